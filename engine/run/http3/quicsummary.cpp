#include "run/http3/quicsummary.h"

#include <cstdio>

namespace wb {

std::string quicVersionName(uint32_t version)
{
    if (version == 1) return "QUIC v1";
    char hex[16];
    std::snprintf(hex, sizeof hex, "0x%08x", version);
    return std::string("QUIC ") + hex;
}

} // namespace wb
