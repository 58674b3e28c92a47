#include "run/mixorder.h"

namespace wb {

Result<MixOrder> parseMixOrder(const std::string& text)
{
    for (MixOrder order : { MixOrder::RoundRobin, MixOrder::Random, MixOrder::Weighted })
        if (text == mixOrderId(order)) return order;
    return Error { "unknown request order '" + text + "' (use round-robin, random or weighted)" };
}

const char* mixOrderId(MixOrder order)
{
    switch (order) {
    case MixOrder::RoundRobin:
        return "round-robin";
    case MixOrder::Random:
        return "random";
    case MixOrder::Weighted:
        return "weighted";
    }
    return "round-robin";
}

} // namespace wb
