#pragma once
// Open model: is the generator's own lateness a noticeable part of the latency it
// reports? Corrected latency starts at each request's due time, so every
// microsecond a request is sent late counts as the target's. When the send lag's
// p99 exceeds a tenth of the corrected p50, the figures say as much about the
// loader as about the target: the text report, the JSON and the GUI say so.

#include <cstdint>
#include <string>

namespace wb {

struct RunResult;

/// The share of the corrected p50 above which the send-lag p99 is "noticeable".
inline constexpr double GENERATOR_LAG_NOTICEABLE_SHARE = 0.10;

/// True when sendLagP99Us > GENERATOR_LAG_NOTICEABLE_SHARE * correctedP50Us.
bool generatorLagNoticeable(double sendLagP99Us, double correctedP50Us);

/// The one-line warning (no trailing newline) when generatorLagNoticeable(), else empty.
std::string generatorLagWarning(double sendLagP99Us, double correctedP50Us);

/// The same from a run's histograms (send lag p99, corrected p50); empty or false
/// when the run has no send lag (closed loop) or no latency.
bool generatorLagNoticeable(const RunResult& result);
std::string generatorLagWarning(const RunResult& result);

} // namespace wb
