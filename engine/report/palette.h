#pragma once
// The colour of a target, wherever it is drawn: the window's charts and cards
// (ui/charts: colorForTarget) and the HTML reports' charts and tables, so that a
// target looks the same in the report as in the window it was exported from.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace wb {

/// Colours before they repeat (ids 1 and 21 share one).
inline constexpr size_t TARGET_PALETTE_SIZE = 20;

/// 0xRRGGBB of the target with this session id (ids start at 1; any id maps).
uint32_t targetColorRgb(int64_t targetId);
/// The same as "#rrggbb".
std::string targetColorHex(int64_t targetId);
std::string colorHex(uint32_t rgb);

/// The colours of series drawn in one chart, in order, by their targets' session ids (0: none):
/// each keeps its target's colour when no other series of the chart has it, and the rest (the
/// same target in two groups, a target not in the session, ids 20 apart) take colours no series
/// has, so that no two series of a chart look alike while there are colours left.
std::vector<uint32_t> distinctSeriesColors(const std::vector<int64_t>& targetIds);

} // namespace wb
