#pragma once
// UTF-8 validation without decoding: text from peers, logs and request bodies
// is checked where it lies (no allocation), strictly (overlong forms, UTF-16
// surrogates and code points past U+10FFFF are invalid).

#include <cstddef>
#include <string_view>

namespace wb {

/// Length of the valid UTF-8 sequence at s[i] (1 to 4), 0 if invalid or cut off.
inline size_t utf8SequenceLength(std::string_view s, size_t i)
{
    const auto b = [&](size_t k) { return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0u; };
    const auto cont = [&](size_t k, unsigned lo = 0x80, unsigned hi = 0xbf) { return b(k) >= lo && b(k) <= hi; };
    const unsigned lead = b(0);
    if (lead < 0x80) return 1;
    if (lead >= 0xc2 && lead <= 0xdf) return cont(1) ? 2 : 0;
    if (lead == 0xe0) return cont(1, 0xa0) && cont(2) ? 3 : 0;
    if (lead == 0xed) return cont(1, 0x80, 0x9f) && cont(2) ? 3 : 0;
    if (lead >= 0xe1 && lead <= 0xef) return cont(1) && cont(2) ? 3 : 0;
    if (lead == 0xf0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
    if (lead >= 0xf1 && lead <= 0xf3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
    if (lead == 0xf4) return cont(1, 0x80, 0x8f) && cont(2) && cont(3) ? 4 : 0;
    return 0;
}

/// Whether all of s is valid UTF-8.
inline bool isValidUtf8(std::string_view s)
{
    for (size_t i = 0; i < s.size();) {
        const size_t length = utf8SequenceLength(s, i);
        if (length == 0) return false;
        i += length;
    }
    return true;
}

} // namespace wb
