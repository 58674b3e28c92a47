#pragma once
// Private to the target server: what it says about itself at GET /metrics, in the Prometheus text
// format (so `--scrape http://builtin/metrics` and the GUI's demo targets show the target's side
// of a run out of the box). Each loop thread owns one LoopCounters slot and is its only writer
// (relaxed stores, no locked instruction on the hot path); /metrics reads every slot.

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <span>
#include <string>

namespace wb::serve {

struct LoopCounters
{
    std::atomic<uint64_t> answered { 0 }; ///< every answer, /metrics included
    std::atomic<uint64_t> metricsAnswers { 0 }; ///< answers to /metrics (subset of answered)
    std::atomic<uint64_t> busyNs { 0 }; ///< time the loop spent handling events, not waiting for them
    std::atomic<uint64_t> connections { 0 }; ///< open client connections
    // --capacity: what admission did (0 without it).
    std::atomic<uint64_t> refused { 0 }; ///< requests answered 503 past the rate
    std::atomic<uint64_t> queuedNs { 0 }; ///< the waits of admitted requests, summed (--queue)
};

/// The body of GET /metrics.
inline std::string formatServerMetrics(std::span<const LoopCounters> loops)
{
    uint64_t requests = 0, connections = 0, refused = 0, queuedNs = 0;
    for (const LoopCounters& l : loops) {
        refused += l.refused.load(std::memory_order_relaxed);
        queuedNs += l.queuedNs.load(std::memory_order_relaxed);
        // Two relaxed loads of counters published one after the other: never let a /metrics answer
        // counted a moment before its own answer make the difference negative.
        const uint64_t metrics = l.metricsAnswers.load(std::memory_order_relaxed);
        const uint64_t answered = l.answered.load(std::memory_order_relaxed);
        requests += answered >= metrics ? answered - metrics : 0;
        connections += l.connections.load(std::memory_order_relaxed);
    }
    std::string out;
    out += "# HELP wrkbench_server_requests_total Requests answered, not counting /metrics.\n"
           "# TYPE wrkbench_server_requests_total counter\n"
           "wrkbench_server_requests_total "
        + std::to_string(requests) + "\n";
    out += "# HELP wrkbench_server_busy_seconds_total Time each event-loop thread spent handling events rather than "
           "waiting for them.\n"
           "# TYPE wrkbench_server_busy_seconds_total counter\n";
    for (size_t i = 0; i < loops.size(); ++i) {
        const uint64_t ns = loops[i].busyNs.load(std::memory_order_relaxed);
        char seconds[32];
        std::snprintf(seconds, sizeof seconds, "%.9f", static_cast<double>(ns) / 1e9);
        out += "wrkbench_server_busy_seconds_total{thread=\"" + std::to_string(i) + "\"} " + seconds + "\n";
    }
    out += "# HELP wrkbench_server_connections Open client connections.\n"
           "# TYPE wrkbench_server_connections gauge\n"
           "wrkbench_server_connections "
        + std::to_string(connections) + "\n";
    // Little's law makes the wait's rate (seconds per second) the mean number of requests queued.
    char queuedSeconds[32];
    std::snprintf(queuedSeconds, sizeof queuedSeconds, "%.9f", static_cast<double>(queuedNs) / 1e9);
    out += "# HELP wrkbench_server_refused_total Requests refused (503) past --capacity.\n"
           "# TYPE wrkbench_server_refused_total counter\n"
           "wrkbench_server_refused_total "
        + std::to_string(refused) + "\n";
    out += "# HELP wrkbench_server_queue_wait_seconds_total Time admitted requests waited for their turn under "
           "--capacity --queue.\n"
           "# TYPE wrkbench_server_queue_wait_seconds_total counter\n"
           "wrkbench_server_queue_wait_seconds_total "
        + std::string(queuedSeconds) + "\n";
    out += "# HELP wrkbench_server_threads Event-loop threads.\n"
           "# TYPE wrkbench_server_threads gauge\n"
           "wrkbench_server_threads "
        + std::to_string(loops.size()) + "\n";
    return out;
}

} // namespace wb::serve
