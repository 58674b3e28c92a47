#pragma once
// A JSON number read as the whole number it is. nlohmann's get<int64_t>() converts
// whatever number it holds: a float past int64's range is undefined behaviour, 2.5
// becomes 2, and an unsigned 2^64-1 (which is_number_integer() also accepts) wraps
// to -1. Every reader of an id or a time from the network or a file asks here.
// A template over the JSON type, so json and ordered_json both use it and this
// header needs no nlohmann include.

#include <cstdint>
#include <optional>

namespace wb {

/// The value of j when it is a whole number within int64_t; nothing otherwise
/// (a float, a number past the range, or not a number at all).
template<typename Json> std::optional<int64_t> jsonInt64(const Json& j)
{
    if (j.is_number_unsigned()) {
        const uint64_t u = j.template get<uint64_t>();
        if (u > static_cast<uint64_t>(INT64_MAX)) return std::nullopt;
        return static_cast<int64_t>(u);
    }
    if (j.is_number_integer()) return j.template get<int64_t>();
    return std::nullopt;
}

} // namespace wb
