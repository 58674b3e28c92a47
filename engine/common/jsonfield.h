#pragma once
// Typed fields of a JSON document from a file or the network, shared by the
// readers of every format: a value of the field's own type or a JsonFieldError
// naming the key (nlohmann's get<unsigned>() of 1e40 or -1 is undefined
// behaviour, and a count that wrapped would run another load), and bytes that
// travel as text when they are UTF-8 and as base64 under "<key>_base64" when
// not (a JSON string is Unicode text: writing other bytes into one changes them).
// Templates over the JSON type: json and ordered_json both use them.

#include "common/base64.h"
#include "common/utf8.h"

#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

namespace wb {

/// A field that is not what it must be; readers catch it at their public edge.
struct JsonFieldError
{
    std::string what;
};

template<typename T, typename Json> T jsonField(const Json& v, const char* key)
{
    if constexpr (std::is_same_v<T, bool>) {
        if (!v.is_boolean()) throw JsonFieldError { std::string("'") + key + "' must be true or false" };
        return v.template get<bool>();
    } else if constexpr (std::is_integral_v<T>) {
        static_assert(std::is_unsigned_v<T>);
        if (!v.is_number_unsigned() && !(v.is_number_integer() && v.template get<int64_t>() >= 0))
            throw JsonFieldError { std::string("'") + key + "' must be a whole number" };
        if (v.template get<uint64_t>() > std::numeric_limits<T>::max())
            throw JsonFieldError { std::string("'") + key + "' is out of range (at most "
                + std::to_string(std::numeric_limits<T>::max()) + ")" };
        return static_cast<T>(v.template get<uint64_t>());
    } else if constexpr (std::is_floating_point_v<T>) {
        if (!v.is_number()) throw JsonFieldError { std::string("'") + key + "' must be a number" };
        return v.template get<T>();
    } else if constexpr (std::is_same_v<T, std::string>) {
        if (!v.is_string()) throw JsonFieldError { std::string("'") + key + "' must be text" };
        return v.template get<std::string>();
    } else {
        return v.template get<T>(); // lists of strings: a wrong type throws json's type_error
    }
}

/// Reads key into out when j has it (and it is not null); out keeps its value otherwise.
template<typename T, typename Json> void readJsonField(const Json& j, const char* key, T& out)
{
    if (auto it = j.find(key); it != j.end() && !it->is_null()) out = jsonField<T>(*it, key);
}

template<typename Json> void putJsonBytes(Json& j, const char* key, const std::string& bytes)
{
    if (isValidUtf8(bytes))
        j[key] = bytes;
    else
        j[std::string(key) + "_base64"] = toBase64(bytes);
}

/// Reads key (text) or key_base64 into out; false when neither is there.
template<typename Json> bool readJsonBytes(const Json& j, const char* key, std::string& out)
{
    bool found = false;
    if (auto it = j.find(key); it != j.end() && !it->is_null()) {
        out = jsonField<std::string>(*it, key);
        found = true;
    }
    const std::string encodedKey = std::string(key) + "_base64";
    if (auto it = j.find(encodedKey); it != j.end()) {
        auto bytes = fromBase64(jsonField<std::string>(*it, encodedKey.c_str()));
        if (!bytes) throw JsonFieldError { encodedKey + ": " + bytes.error() };
        out = std::move(*bytes);
        found = true;
    }
    return found;
}

} // namespace wb
