#include "import/wrkimport.h"

#include <algorithm>
#include <cmath>

namespace wb {

namespace {

// The value wrk printed for percentile p (0..100): an exact row of the
// "Latency Distribution" block, else the first wrk2 spectrum row at or above p.
double printedPercentileUs(const WrkLogReport& r, double p)
{
    for (const auto& row : r.latencyDistribution)
        if (std::fabs(row.percentile - p) < 1e-9) return row.valueUs;
    for (const auto& row : r.spectrum)
        if (row.percentile * 100.0 >= p - 1e-9) return row.valueUs;
    return UNKNOWN;
}

double orUnknown(double v, bool known)
{
    return known ? v : UNKNOWN;
}

} // namespace

ImportedRun importedRunOf(const WrkLogReport& r, const std::string& sourceName)
{
    ImportedRun run;
    RunConfig& c = run.config;
    if (auto url = parseUrl(r.url)) c.request.url = *url;
    c.request.url.original = r.url;
    if (r.threads) c.threads = r.threads;
    if (r.connections) c.connections = r.connections;
    const double plannedS = r.plannedDurationS > 0 ? r.plannedDurationS : r.durationS;
    c.durationUs = static_cast<uint64_t>(std::llround(plannedS * 1e6));
    c.ratePerS = r.rate;
    if (r.timeoutS > 0) c.timeoutUs = static_cast<uint64_t>(std::llround(r.timeoutS * 1e6));

    run.engineVersion = r.isWrk2 ? "wrk2" : "wrk";
    run.source = sourceName + ":" + std::to_string(r.firstLine) + "-" + std::to_string(r.lastLine);
    run.commandLine = r.commandLine;

    RunTotals& t = run.totals;
    t.durationS = r.durationS;
    t.requests = r.requests;
    t.bytes = r.bytesRead;
    t.requestsPerS = r.requestsPerS;
    t.bytesPerS = r.transferBytesPerS;
    t.errors.connect = r.errorsConnect;
    t.errors.read = r.errorsRead;
    t.errors.write = r.errorsWrite;
    t.errors.timeout = r.errorsTimeout;
    t.non2xx = r.non2xx;
    // wrk prints no minimum, and a report without requests no meaningful row.
    const bool hasLatency = r.requests > 0 || r.latencyUs.avg > 0;
    t.latency.meanUs = orUnknown(r.latencyUs.avg, hasLatency);
    t.latency.stdevUs = orUnknown(r.latencyUs.stdev, hasLatency);
    t.latency.maxUs = orUnknown(r.latencyUs.max, hasLatency);
    t.latency.withinStdevPct = orUnknown(r.latencyUs.withinStdevPct, hasLatency);
    t.latency.p50Us = printedPercentileUs(r, 50);
    t.latency.p75Us = printedPercentileUs(r, 75);
    t.latency.p90Us = printedPercentileUs(r, 90);
    t.latency.p99Us = printedPercentileUs(r, 99);
    t.latency.p999Us = printedPercentileUs(r, 99.9);
    t.latency.p9999Us = printedPercentileUs(r, 99.99);
    t.threadRate = ThreadRateSummary { r.requestsPerThread.avg, r.requestsPerThread.stdev, r.requestsPerThread.max,
        r.requestsPerThread.withinStdevPct };
    if (r.rate > 0) t.targetRatePerS = r.rate;

    for (const auto& row : r.latencyDistribution)
        run.latencyDistribution.push_back(PercentileRow { row.percentile, row.valueUs, 0 });
    for (const auto& row : r.spectrum)
        run.spectrum.push_back(PercentileRow { row.percentile * 100.0, row.valueUs, row.totalCount });
    return run;
}

Result<std::vector<int64_t>> importWrkReports(
    SessionStore& store, const std::vector<WrkLogReport>& reports, const ImportOptions& options)
{
    std::vector<int64_t> ids;
    auto st = store.transaction([&]() -> Status {
        for (size_t i = 0; i < reports.size(); ++i) {
            const WrkLogReport& report = reports[i];
            Target prototype;
            prototype.name = options.targetName.empty() ? report.url : options.targetName;
            prototype.url = report.url;
            auto targetId = store.targets().ensure(prototype);
            if (!targetId) return Error { targetId.error() };
            ImportedRun run = importedRunOf(report, options.sourceName);
            run.targetId = *targetId;
            run.tags = options.tags;
            if (i < options.reportTags.size() && !options.reportTags[i].empty()
                && std::find(run.tags.begin(), run.tags.end(), options.reportTags[i]) == run.tags.end())
                run.tags.push_back(options.reportTags[i]);
            auto id = store.runs().addImported(run);
            if (!id) return Error { id.error() };
            ids.push_back(*id);
        }
        return {};
    });
    if (!st) return Error { st.error() };
    return ids;
}

} // namespace wb
