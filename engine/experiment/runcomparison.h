#pragma once
// Two or more stored runs side by side (Compare, its HTML report, `export --html`): how much each figure varies by
// itself, and whether a difference from the baseline is larger than that. One owner of the rule, so the window and the
// report never disagree about what is "within noise". A run's noise in a figure is the robust CV between its intervals
// (1.4826 × MAD / median, so one interval's spike cannot widen it; intervals at least half as long as the longest);
// where the comparison holds two or more runs of one setup, the spread between those runs instead. A difference is
// held to the larger of the two runs' noise and is "within the runs' own variation" when smaller.

#include "store/sessiontypes.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace wb {

/// Sample coefficient of variation in percent; NaN with fewer than two values or a mean <= 0.
double cvPct(const std::vector<double>& values);
/// The same, robustly: 1.4826 × the median absolute deviation over the median, in percent (NaN
/// with fewer than two values or a median <= 0). One outlying value cannot inflate it.
double robustCvPct(std::vector<double> values);

/// The keys of the figures whose noise the intervals tell: "rps", the latency fields "avg",
/// "p50", "p75", "p90", "p99", "p99_9", "p99_99", "max", and "connect_p50", "connect_p99",
/// "tls_handshake_p50", ..., "first_byte_p99".
const std::vector<std::string>& noiseKeys();
/// By key: the CV (%) between the run's whole intervals (NaN when not known).
std::map<std::string, double> intervalNoisePct(const RunData& data);
/// The run's figure by its key in the table of figures (experiment/runfigures.h): requests/s,
/// latency in µs, ... (NaN when not known, or no figure has that key).
double comparedValue(const RunRecord& run, const std::string& key);
/// The same target under the same load (threads, connections, duration or stages, rate,
/// pipelining, streams, protocol, loaders): repetitions of one setup.
bool sameSetup(const RunRecord& a, const RunRecord& b);

/// runs[0] is the baseline; intervalNoise[i] is intervalNoisePct of runs[i] (empty: not known).
struct RunComparison
{
    std::vector<RunRecord> runs;
    std::vector<std::map<std::string, double>> intervalNoise;

    /// (run - baseline) / baseline in percent; NaN when either is unknown or the baseline is 0.
    double deltaPct(const std::string& key, size_t run) const;
    /// How much key varies by itself for runs[run], in percent (see above); NaN when not known.
    double noisePct(const std::string& key, size_t run) const;
    /// The noise a Δ of runs[run] against the baseline is held to: the larger of the two runs' noise (their
    /// intervals' when both are runs of one setup); NaN when not known.
    double noiseAgainstBaselinePct(const std::string& key, size_t run) const;
    /// The Δ is smaller than that noise: neither a gain nor a loss.
    bool withinNoise(const std::string& key, size_t run) const;
};

/// The runs with their interval noise, the one with baselineId first (0 or absent: the first).
RunComparison compareRuns(const std::vector<RunData>& runs, int64_t baselineId = 0);

} // namespace wb
