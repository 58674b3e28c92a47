#pragma once
// Base64 (RFC 4648, standard alphabet, '=' padding): the one codec for bytes that
// travel inside JSON (request bodies and header values that are not UTF-8,
// HdrHistogram strings). The decoder takes untrusted input and names the first
// thing wrong with it.

#include "common/result.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace wb {

inline std::string toBase64(std::string_view bytes)
{
    static constexpr char ALPHABET[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    size_t i = 0;
    auto at = [&bytes](size_t k) { return static_cast<uint32_t>(static_cast<unsigned char>(bytes[k])); };
    for (; i + 3 <= bytes.size(); i += 3) {
        const uint32_t v = at(i) << 16 | at(i + 1) << 8 | at(i + 2);
        for (int s = 18; s >= 0; s -= 6)
            out.push_back(ALPHABET[(v >> s) & 63]);
    }
    if (const size_t rest = bytes.size() - i; rest > 0) {
        const uint32_t v = at(i) << 16 | (rest == 2 ? at(i + 1) << 8 : 0);
        out.push_back(ALPHABET[(v >> 18) & 63]);
        out.push_back(ALPHABET[(v >> 12) & 63]);
        out.push_back(rest == 2 ? ALPHABET[(v >> 6) & 63] : '=');
        out.push_back('=');
    }
    return out;
}

/// The bytes of a base64 text; padding is optional, '=' only at the end. The error names the
/// first bad character (by position) or the impossible length.
inline Result<std::string> fromBase64(std::string_view text)
{
    size_t data = text.size();
    while (data > 0 && text.size() - data < 2 && text[data - 1] == '=')
        --data;
    std::string bytes;
    bytes.reserve(data / 4 * 3 + 2);
    uint32_t acc = 0;
    int bits = 0;
    for (size_t i = 0; i < data; ++i) {
        const char c = text[i];
        int v = -1;
        if (c >= 'A' && c <= 'Z')
            v = c - 'A';
        else if (c >= 'a' && c <= 'z')
            v = c - 'a' + 26;
        else if (c >= '0' && c <= '9')
            v = c - '0' + 52;
        else if (c == '+')
            v = 62;
        else if (c == '/')
            v = 63;
        if (v < 0) {
            const auto u = static_cast<unsigned char>(c);
            static constexpr char HEX[] = "0123456789abcdef";
            const std::string what = u >= 0x20 && u < 0x7f ? std::string("'") + c + "'"
                                                           : std::string("byte 0x") + HEX[u >> 4] + HEX[u & 15];
            return Error { "bad base64: " + what + " at character " + std::to_string(i + 1) };
        }
        acc = (acc << 6) | static_cast<uint32_t>(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            bytes.push_back(static_cast<char>((acc >> bits) & 0xff));
        }
    }
    // Characters first, so a stray one is named rather than the length it makes impossible.
    if (data % 4 == 1 || (text.size() != data && text.size() % 4 != 0))
        return Error { "bad base64: a length of " + std::to_string(text.size()) + " characters is impossible" };
    return bytes;
}

} // namespace wb
