#include "run/stages.h"

namespace wb {

uint64_t totalStageDurationUs(const std::vector<Stage>& stages)
{
    uint64_t total = 0;
    for (const auto& s : stages)
        total += s.durationUs;
    return total;
}

double stageTargetAt(const std::vector<Stage>& stages, uint64_t tUs)
{
    double previous = 0;
    uint64_t stageStartUs = 0;
    for (const auto& s : stages) {
        if (tUs < stageStartUs + s.durationUs) {
            const double f = static_cast<double>(tUs - stageStartUs) / static_cast<double>(s.durationUs);
            return previous + (s.target - previous) * f;
        }
        previous = s.target;
        stageStartUs += s.durationUs;
    }
    return previous;
}

} // namespace wb
