#include "report/generatorlag.h"

#include "report/units.h"

#include <cmath>

namespace wb {

bool generatorLagNoticeable(double sendLagP99Us, double correctedP50Us)
{
    if (std::isnan(sendLagP99Us) || std::isnan(correctedP50Us) || correctedP50Us <= 0) return false;
    return sendLagP99Us > GENERATOR_LAG_NOTICEABLE_SHARE * correctedP50Us;
}

std::string generatorLagWarning(double sendLagP99Us, double correctedP50Us)
{
    if (!generatorLagNoticeable(sendLagP99Us, correctedP50Us)) return {};
    return "generator lag is a noticeable part of the measured latency (send lag p99 " + formatTimeUs(sendLagP99Us)
        + ", over 10% of the corrected p50 " + formatTimeUs(correctedP50Us)
        + "); use more threads or a quieter loader";
}

} // namespace wb
