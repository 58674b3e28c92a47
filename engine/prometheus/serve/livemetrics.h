#pragma once
// A running run's figures in the Prometheus text exposition format (version 0.0.4), for
// --metrics-listen: what Prometheus scrapes and Grafana draws while the run goes on.
//
// Fed by the run controller's merged intervals (RunObserver::onInterval, never per request):
// counters are the intervals added up since the run started, gauges are the last interval's,
// latency is a classic histogram with buckets chosen for HTTP latencies. Every series carries
// the labels run, target and loader. Rendering reads a copy made under a mutex, so a scrape
// never holds up the controller for longer than the copy.

#include "run/runobserver.h"
#include "stats/counters.h"
#include "stats/histogram.h"
#include "stats/loadercost.h"

#include <array>
#include <cstdint>
#include <mutex>
#include <string>

namespace wb {

/// The labels every series carries.
struct MetricsLabels
{
    std::string run; ///< which run: its start (the common start of a distributed run), UTC
    std::string target; ///< the target's name, or its URL
    std::string loader; ///< where the load ran: the host name (a loader of several: "I/N host")
};

/// The upper bounds (seconds) of the latency histogram's buckets, +Inf aside: from 500 µs (a
/// loopback answer) to 10 s (past any sane timeout), about 2.5x apart, as HTTP latencies spread.
inline constexpr std::array<double, 14> LATENCY_BUCKET_BOUNDS_S
    = { 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10 };

class LiveMetrics final : public RunObserver
{
public:
    explicit LiveMetrics(MetricsLabels labels);

    void onStarted(const RunConfig& config) override;
    void onInterval(const IntervalRecord& interval) override;
    void onFinished(const RunResult& result) override;

    /// The exposition text of everything so far.
    std::string render() const;
    /// Whether the run has finished (its last figures are in render()).
    bool finished() const;

private:
    struct State
    {
        // The intervals added up (of the histograms, only the latency is exposed).
        uint64_t bytes = 0;
        ErrorCounts errors;
        StatusCounts status;
        LatencyHistogram latency;
        LoaderCost cost;
        uint32_t connections = 0; ///< the last interval's
        uint32_t inFlight = 0;
        LoaderCost lastCost; ///< the last interval's loader cost
        uint64_t intervals = 0;
        bool started = false;
        bool finished = false;
    };
    static std::string renderState(const State& s, const std::string& labels);

    const std::string m_labels; ///< run="..",target="..",loader=".." escaped once
    mutable std::mutex m_mutex;
    State m_state;
};

/// The exposition format's escaping of a label value (backslash, double quote, newline).
std::string escapeLabelValue(const std::string& value);

} // namespace wb
