#include "report/palette.h"

#include <array>
#include <cstdio>

namespace wb {

uint32_t targetColorRgb(int64_t targetId)
{
    // Tableau 10 (Maureen Stone's 2016 revision): distinct in hue and lightness,
    // chosen to stay apart for the common colour-vision deficiencies, and dark
    // enough for 2 px lines on white. The order puts the most distinct first.
    static constexpr std::array<uint32_t, 10> PALETTE = {
        0x4e79a7, // blue
        0xf28e2b, // orange
        0x59a14f, // green
        0xe15759, // red
        0xb07aa1, // purple
        0x76b7b2, // teal
        0xedc948, // yellow
        0xff9da7, // pink
        0x9c755f, // brown
        0xbab0ac, // grey
    };
    // Id 1 gets the first colour. Negative ids still map.
    const int64_t n = static_cast<int64_t>(PALETTE.size());
    return PALETTE[static_cast<size_t>(((targetId - 1) % n + n) % n)];
}

std::string targetColorHex(int64_t targetId)
{
    char buf[8];
    std::snprintf(buf, sizeof buf, "#%06x", static_cast<unsigned>(targetColorRgb(targetId)));
    return buf;
}

} // namespace wb
