#include "agent/server/agentlimits.h"

#include "common/jsontext.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <nlohmann/json.hpp>
#include <string_view>

namespace wb {

namespace {

using Json = nlohmann::json;

/// Keys whose values the decoder reads as double; every other number is read as an integer.
bool isRealKey(std::string_view key)
{
    return key == "rate_per_s" || key == "target" || key == "weight";
}

/// Keys read as 64-bit (durations in µs, the mix's seed); the others fit 32 bits.
bool isWideKey(std::string_view key)
{
    return (key.size() > 3 && key.substr(key.size() - 3) == "_us") || key == "seed";
}

Status checkNumbers(const Json& j, std::string_view key, unsigned depth)
{
    if (depth > 64) return Error { "the configuration nests too deeply" }; // jsonDepthWithin ran first
    if (j.is_object()) {
        for (auto it = j.begin(); it != j.end(); ++it)
            if (auto st = checkNumbers(it.value(), it.key(), depth + 1); !st) return st;
        return {};
    }
    if (j.is_array()) {
        for (const Json& e : j)
            if (auto st = checkNumbers(e, key, depth + 1); !st) return st;
        return {};
    }
    if (!j.is_number()) return {};
    const std::string name = key.empty() ? std::string("a number") : fmt::format("'{}'", key);
    if (isRealKey(key)) {
        const double v = j.get<double>();
        if (!std::isfinite(v) || v < 0 || v > 1e12)
            return Error { fmt::format("{} must be a number from 0 to 1e12, not {}", name, jsonText(j)) };
        return {};
    }
    if (!j.is_number_unsigned()) // negative, or a float such as 1e9 or 2.5
        return Error { fmt::format("{} must be a whole number of 0 or more, not {}", name, jsonText(j)) };
    const uint64_t v = j.get<uint64_t>();
    // A seed is any 64-bit number; durations stay below 2^63 so that no later signed use of
    // them (elapsed times, deadlines) can go negative.
    const uint64_t max = key == "seed" ? std::numeric_limits<uint64_t>::max()
        : isWideKey(key)               ? static_cast<uint64_t>(std::numeric_limits<int64_t>::max())
                                       : std::numeric_limits<uint32_t>::max();
    if (v > max) return Error { fmt::format("{} is {}, over its limit of {}", name, v, max) };
    return {};
}

std::string seconds(uint64_t us)
{
    return fmt::format("{} s", us / 1'000'000);
}

} // namespace

Status checkConfigNumbers(const Json& config)
{
    return checkNumbers(config, {}, 0);
}

Status checkRunLimits(const RunConfig& received, const AgentLimits& limits)
{
    // Stages replace the duration (normalized()): sum them here first, with a check, because
    // normalized() adds them as they are, and rounds the highest connection target into an
    // unsigned.
    uint64_t stagesUs = 0;
    for (const Stage& s : received.stages) {
        if (s.durationUs > limits.maxDurationUs || stagesUs > limits.maxDurationUs - s.durationUs)
            return Error { fmt::format(
                "the stages last longer than this agent's --max-duration of {}", seconds(limits.maxDurationUs)) };
        stagesUs += s.durationUs;
        if (!std::isfinite(s.target) || s.target < 0 || s.target > 1e9)
            return Error { "a stage's target must be from 0 to 1e9" };
    }
    const uint64_t durationUs = received.stages.empty() ? received.durationUs : stagesUs;
    // Compared, never added: warm-up + duration near 2^63 wrapped past the cap.
    if (durationUs > limits.maxDurationUs || received.warmupUs > limits.maxDurationUs - durationUs)
        return Error { fmt::format("a run of {} and {} of warm-up is longer than this agent's --max-duration of {}",
            seconds(durationUs), seconds(received.warmupUs), seconds(limits.maxDurationUs)) };
    return {};
}

Status checkShareLimits(const RunConfig& share, const AgentLimits& limits)
{
    if (share.connections > limits.maxConnections)
        return Error { fmt::format(
            "{} connections are over this agent's --max-connections of {}", share.connections, limits.maxConnections) };
    if (share.threads > limits.maxThreads)
        return Error { fmt::format(
            "{} threads are over this agent's --max-threads of {}", share.threads, limits.maxThreads) };
    double highestRate = share.ratePerS;
    if (!share.stagesAreConnections)
        for (const Stage& s : share.stages)
            highestRate = std::max(highestRate, s.target);
    if (!std::isfinite(highestRate) || highestRate > limits.maxRatePerS)
        return Error { fmt::format(
            "a rate of {}/s is over this agent's --max-rate of {}/s", highestRate, limits.maxRatePerS) };
    return {};
}

Status checkStartAt(int64_t startAtUnixUs, int64_t nowUnixUs, const AgentLimits& limits)
{
    if (startAtUnixUs <= 0) return Error { "start_at_unix_us must be positive" };
    const uint64_t ahead = startAtUnixUs > nowUnixUs ? static_cast<uint64_t>(startAtUnixUs - nowUnixUs) : 0;
    if (ahead > limits.maxStartAheadUs)
        return Error { fmt::format(
            "the start is {} ahead; this agent takes a start at most {} ahead (--max-start-ahead)", seconds(ahead),
            seconds(limits.maxStartAheadUs)) };
    return {};
}

} // namespace wb
