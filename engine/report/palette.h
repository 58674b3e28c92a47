#pragma once
// The colour of a target, wherever it is drawn: the window's charts and cards
// (ui/charts: colorForTarget) and the HTML reports' charts and tables, so that a
// target looks the same in the report as in the window it was exported from.

#include <cstdint>
#include <string>

namespace wb {

/// 0xRRGGBB of the target with this session id (ids start at 1; any id maps).
uint32_t targetColorRgb(int64_t targetId);
/// The same as "#rrggbb".
std::string targetColorHex(int64_t targetId);

} // namespace wb
