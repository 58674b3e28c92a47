#include "report/palette.h"

#include <algorithm>
#include <array>
#include <cstdio>

namespace wb {

namespace {

// Tableau 10's hues (Maureen Stone's 2016 revision: apart in hue and lightness, and for the
// common colour-vision deficiencies), each darkened until it has a 3:1 contrast with white (WCAG
// 2.1's bar for graphics): a 1 px dotted p50 line of the original yellow (1.6:1) or teal could
// not be seen. Then ten darker ones (5:1 or more) in other hues, so that ids 11-20 do not repeat
// ids 1-10 (a session whose targets were made and deleted reaches them soon).
constexpr std::array<uint32_t, TARGET_PALETTE_SIZE> PALETTE = {
    0x4e79a7, // blue
    0xe4780e, // orange
    0x59a14f, // green
    0xe15759, // red
    0xb07aa1, // purple
    0x54a19b, // teal
    0xb39012, // gold
    0xd37295, // pink
    0x9c755f, // brown
    0x9f928c, // grey
    0x2b4c7e, // navy
    0xa0550a, // rust
    0x3f7338, // forest
    0x9b1c1f, // crimson
    0x6b3f8f, // violet
    0x00695c, // pine
    0x7e650c, // olive
    0xad1457, // magenta
    0x5d4037, // umber
    0x546e7a, // slate
};

size_t indexOf(int64_t targetId)
{
    // Id 1 gets the first colour. Negative ids still map.
    const int64_t n = static_cast<int64_t>(PALETTE.size());
    return static_cast<size_t>(((targetId - 1) % n + n) % n);
}

} // namespace

uint32_t targetColorRgb(int64_t targetId)
{
    return PALETTE[indexOf(targetId)];
}

std::string targetColorHex(int64_t targetId)
{
    return colorHex(targetColorRgb(targetId));
}

std::string colorHex(uint32_t rgb)
{
    char buf[8];
    std::snprintf(buf, sizeof buf, "#%06x", static_cast<unsigned>(rgb & 0xffffffu));
    return buf;
}

std::vector<uint32_t> distinctSeriesColors(const std::vector<int64_t>& targetIds)
{
    std::array<bool, TARGET_PALETTE_SIZE> taken {};
    std::vector<uint32_t> out(targetIds.size());
    std::vector<bool> placed(targetIds.size(), false);
    // First every series whose target's colour is still free keeps it (as everywhere else)...
    for (size_t i = 0; i < targetIds.size(); ++i) {
        if (targetIds[i] == 0) continue;
        const size_t k = indexOf(targetIds[i]);
        if (taken[k]) continue;
        taken[k] = true;
        out[i] = PALETTE[k];
        placed[i] = true;
    }
    // ...then the others (no target, or one whose colour another series has) take free ones in order.
    size_t next = 0;
    for (size_t i = 0; i < targetIds.size(); ++i) {
        if (placed[i]) continue;
        while (next < PALETTE.size() && taken[next])
            ++next;
        if (next == PALETTE.size()) { // more series than colours: they repeat, in order
            out[i] = PALETTE[i % PALETTE.size()];
            continue;
        }
        taken[next] = true;
        out[i] = PALETTE[next];
    }
    return out;
}

} // namespace wb
