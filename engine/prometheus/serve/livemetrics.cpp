#include "prometheus/serve/livemetrics.h"

#include <fmt/format.h>
#include <iterator>

namespace wb {

std::string escapeLabelValue(const std::string& value)
{
    std::string out;
    out.reserve(value.size());
    for (char c : value) {
        if (c == '\\')
            out += "\\\\";
        else if (c == '"')
            out += "\\\"";
        else if (c == '\n')
            out += "\\n";
        else
            out += c;
    }
    return out;
}

LiveMetrics::LiveMetrics(MetricsLabels labels)
    : m_labels(fmt::format("run=\"{}\",target=\"{}\",loader=\"{}\"", escapeLabelValue(labels.run),
        escapeLabelValue(labels.target), escapeLabelValue(labels.loader)))
{ }

void LiveMetrics::onStarted(const RunConfig&)
{
    std::lock_guard lock(m_mutex);
    m_state.started = true;
}

void LiveMetrics::onInterval(const IntervalRecord& interval)
{
    // Decoded outside the lock: a scrape waits at most for the additions below.
    const LatencyHistogram latency = interval.latencyHistogramDecoded();
    std::lock_guard lock(m_mutex);
    m_state.bytes += interval.bytes;
    m_state.errors += interval.errors;
    for (const auto& [code, count] : interval.statusCodes)
        m_state.status.byCode[code >= 0 && code <= StatusCounts::MAX_CODE ? static_cast<size_t>(code) : 0] += count;
    m_state.latency.merge(latency);
    m_state.cost.add(interval.loaderCost);
    m_state.connections = interval.connections;
    m_state.inFlight = interval.inFlight;
    m_state.lastCost = interval.loaderCost;
    ++m_state.intervals;
}

void LiveMetrics::onFinished(const RunResult&)
{
    std::lock_guard lock(m_mutex);
    m_state.finished = true;
    m_state.connections = 0;
    m_state.inFlight = 0;
}

bool LiveMetrics::finished() const
{
    std::lock_guard lock(m_mutex);
    return m_state.finished;
}

std::string LiveMetrics::render() const
{
    State copy;
    {
        std::lock_guard lock(m_mutex);
        copy = m_state;
    }
    return renderState(copy, m_labels);
}

std::string LiveMetrics::renderState(const State& s, const std::string& labels)
{
    std::string out;
    const auto header = [&](const char* name, const char* type, const char* help) {
        fmt::format_to(std::back_inserter(out), "# HELP {} {}\n# TYPE {} {}\n", name, help, name, type);
    };
    const auto sample = [&](const char* name, const std::string& extra, auto value) {
        fmt::format_to(std::back_inserter(out), "{}{{{}{}}} {}\n", name, labels, extra, value);
    };

    // Responses by status class: "1xx".."5xx", and "other" for a status outside 100..599.
    header("wrkbench_requests_total", "counter",
        "Responses received (any status), by status class; errors without a response are apart");
    uint64_t byClass[6] = {};
    for (size_t code = 0; code < s.status.byCode.size(); ++code) {
        const uint64_t n = s.status.byCode[code];
        byClass[code >= 100 && code <= 599 ? code / 100 : 0] += n;
    }
    for (int c = 1; c <= 5; ++c)
        sample("wrkbench_requests_total", fmt::format(",status_class=\"{}xx\"", c), byClass[c]);
    sample("wrkbench_requests_total", ",status_class=\"other\"", byClass[0]);

    header("wrkbench_errors_total", "counter", "Requests without a usable answer, by kind");
    const ErrorCounts& e = s.errors;
    const std::pair<const char*, uint64_t> kinds[]
        = { { "connect", e.connect }, { "read", e.read }, { "write", e.write }, { "timeout", e.timeout },
              { "tls", e.tls }, { "parse", e.parse }, { "stream", e.stream } };
    for (const auto& [kind, n] : kinds)
        sample("wrkbench_errors_total", fmt::format(",kind=\"{}\"", kind), n);

    header("wrkbench_read_bytes_total", "counter", "Bytes read from the network (headers and bodies)");
    sample("wrkbench_read_bytes_total", "", s.bytes);

    header("wrkbench_in_flight_requests", "gauge", "Requests sent and not yet answered, at the last interval's end");
    sample("wrkbench_in_flight_requests", "", s.inFlight);
    header("wrkbench_connections", "gauge", "Connections open at the last interval's end");
    sample("wrkbench_connections", "", s.connections);

    // The run's latency (corrected for coordinated omission in the open model, as its report):
    // a bucket counts the responses in the histogram's buckets up to the bound's own (2 significant
    // digits: a response up to 1% above a bound may count under it).
    header("wrkbench_request_duration_seconds", "histogram", "Latency of the responses, in seconds");
    const LatencyHistogram& h = s.latency;
    for (double bound : LATENCY_BUCKET_BOUNDS_S) {
        const auto boundUs = static_cast<uint64_t>(bound * 1e6 + 0.5);
        sample("wrkbench_request_duration_seconds_bucket", fmt::format(",le=\"{}\"", bound), h.countAtOrBelow(boundUs));
    }
    sample("wrkbench_request_duration_seconds_bucket", ",le=\"+Inf\"", h.count());
    sample("wrkbench_request_duration_seconds_sum", "", static_cast<double>(h.sumUs()) / 1e6);
    sample("wrkbench_request_duration_seconds_count", "", h.count());

    // The loader's honesty, live: a saturated loader measures itself.
    header("wrkbench_loader_worker_cpu_seconds_total", "counter", "CPU time of the worker threads");
    sample("wrkbench_loader_worker_cpu_seconds_total", "", static_cast<double>(s.cost.workerCpuUs) / 1e6);
    header("wrkbench_loader_worker_busy_ratio", "gauge",
        "Share of the last interval the workers were on a CPU or waiting for one (saturated from 0.9)");
    sample("wrkbench_loader_worker_busy_ratio", "", s.lastCost.workerBusyShare());
    header("wrkbench_loader_machine_busy_ratio", "gauge", "Share of the machine's CPU time busy in the last interval");
    sample("wrkbench_loader_machine_busy_ratio", "", s.lastCost.machineBusyShare());
    header(
        "wrkbench_loader_machine_steal_ratio", "gauge", "Share of the machine's CPU time stolen in the last interval");
    sample("wrkbench_loader_machine_steal_ratio", "", s.lastCost.machineStealShare());

    header("wrkbench_run_finished", "gauge", "1 once the run has ended (its last figures are above)");
    sample("wrkbench_run_finished", "", s.finished ? 1 : 0);
    return out;
}

} // namespace wb
