#include "report/generatorlag.h"

#include "report/units.h"
#include "run/runresult.h"

#include <cmath>
#include <utility>

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
        + ", over 10% of the corrected p50 " + formatTimeUs(correctedP50Us) + "); use more threads or a quieter loader";
}

namespace {

/// Send lag p99 and corrected p50 of result; NaN when either histogram is empty.
std::pair<double, double> lagAndMedianUs(const RunResult& result)
{
    if (result.sendLag.empty() || result.latency.empty()) return { std::nan(""), std::nan("") };
    return { static_cast<double>(result.sendLag.valueAtPercentileUs(99)),
        static_cast<double>(result.latency.valueAtPercentileUs(50)) };
}

} // namespace

bool generatorLagNoticeable(const RunResult& result)
{
    const auto [lagUs, medianUs] = lagAndMedianUs(result);
    return generatorLagNoticeable(lagUs, medianUs);
}

std::string generatorLagWarning(const RunResult& result)
{
    const auto [lagUs, medianUs] = lagAndMedianUs(result);
    return generatorLagWarning(lagUs, medianUs);
}

} // namespace wb
