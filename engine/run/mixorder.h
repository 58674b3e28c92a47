#pragma once
// The order in which a connection walks a request mix (--order). It lives in
// run/ because the picker needs it and run/ may not depend on parse/ (the
// layers point downwards); parse/requestmix.h includes it for its callers.

#include "common/result.h"

#include <cstdint>
#include <string>

namespace wb {

enum class MixOrder : uint8_t {
    RoundRobin, ///< entry after entry; every entry equally often, weights ignored
    Random, ///< uniformly at random; weights ignored
    Weighted, ///< at random in proportion to the entries' weights
};

/// "round-robin", "random" or "weighted"; the error lists them.
Result<MixOrder> parseMixOrder(const std::string& text);
/// The name parseMixOrder() reads, for reports and the config JSON.
const char* mixOrderId(MixOrder order);

} // namespace wb
