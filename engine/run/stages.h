#pragma once
// Ramp arithmetic shared by the workers and the reports.

#include "run/runconfig.h"

#include <cstdint>
#include <vector>

namespace wb {

/// Sum of the stage durations.
uint64_t totalStageDurationUs(const std::vector<Stage>& stages);

/// Linear interpolation of the stage targets at time tUs since the start
/// (starting from 0; after the last stage, its target).
double stageTargetAt(const std::vector<Stage>& stages, uint64_t tUs);

} // namespace wb
