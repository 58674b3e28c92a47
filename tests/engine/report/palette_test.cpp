// The targets' colours: each one visible as a thin line on white (WCAG's 3:1 for graphics),
// twenty before any repeats, and a chart's series never given one colour twice while there are
// colours left.
#include "report/palette.h"

#include <cmath>
#include <gtest/gtest.h>
#include <set>

using namespace wb;

namespace {

double contrastWithWhite(uint32_t rgb)
{
    const auto linear = [](uint32_t c) {
        const double x = c / 255.0;
        return x <= 0.03928 ? x / 12.92 : std::pow((x + 0.055) / 1.055, 2.4);
    };
    const double l = 0.2126 * linear(rgb >> 16 & 255) + 0.7152 * linear(rgb >> 8 & 255) + 0.0722 * linear(rgb & 255);
    return 1.05 / (l + 0.05);
}

} // namespace

TEST(Palette, EveryColourStandsOutOnWhiteAndTwentyDiffer)
{
    std::set<uint32_t> seen;
    for (int64_t id = 1; id <= static_cast<int64_t>(TARGET_PALETTE_SIZE); ++id) {
        const uint32_t c = targetColorRgb(id);
        EXPECT_GE(contrastWithWhite(c), 3.0) << targetColorHex(id);
        EXPECT_TRUE(seen.insert(c).second) << "id " << id << " repeats " << targetColorHex(id);
    }
    EXPECT_EQ(targetColorRgb(1), targetColorRgb(1 + TARGET_PALETTE_SIZE));
    EXPECT_EQ(targetColorRgb(0), targetColorRgb(TARGET_PALETTE_SIZE)); // any id maps
    EXPECT_EQ(targetColorRgb(-3), targetColorRgb(TARGET_PALETTE_SIZE - 3));
    EXPECT_EQ(targetColorHex(1), "#4e79a7");
    EXPECT_EQ(colorHex(0x0a0b0c), "#0a0b0c");
}

TEST(Palette, ASeriesKeepsItsTargetsColourUnlessAnotherHasIt)
{
    // Target 3 in two groups, a series without a target, and target 23 (3's colour, 20 apart).
    const auto colors = distinctSeriesColors({ 3, 2, 3, 0, 23 });
    ASSERT_EQ(colors.size(), 5u);
    EXPECT_EQ(colors[0], targetColorRgb(3));
    EXPECT_EQ(colors[1], targetColorRgb(2));
    EXPECT_EQ(std::set<uint32_t>(colors.begin(), colors.end()).size(), 5u);
    // The others take the first free colours, in order: 1's, then 4's, then 5's.
    EXPECT_EQ(colors[2], targetColorRgb(1));
    EXPECT_EQ(colors[3], targetColorRgb(4));
    EXPECT_EQ(colors[4], targetColorRgb(5));
    // A later series whose own colour is free keeps it, though an earlier one took another's.
    const auto kept = distinctSeriesColors({ 0, 1 });
    EXPECT_EQ(kept[1], targetColorRgb(1));
    EXPECT_EQ(kept[0], targetColorRgb(2));
    // More series than colours: they repeat, and nothing breaks.
    EXPECT_EQ(distinctSeriesColors(std::vector<int64_t>(TARGET_PALETTE_SIZE + 5, 0)).size(), TARGET_PALETTE_SIZE + 5);
}
