#include "fleet/fleetmerge.h"

#include "run/runcontroller.h"
#include "run/shard.h"
#include "run/slo.h"
#include "store/configjson.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace wb {

FleetMerge::FleetMerge(RunConfig whole, unsigned loaders, int64_t commonStartUnixMs)
    : m_whole(whole.normalized())
    , m_count(loaders)
    , m_commonStartUnixMs(commonStartUnixMs)
    , m_intervalUs(std::max<uint64_t>(m_whole.intervalUs, 1))
    , m_loaders(loaders)
    , m_rows(loaders)
{
    m_configJson = runConfigToJson(m_whole);
    for (unsigned i = 0; i < loaders; ++i) {
        m_rows[i].index = i;
        m_rows[i].connections = evenShare(m_whole.connections, loaders, i);
        m_rows[i].state = "not started";
    }
    m_result.config = m_whole;
    m_result.engineVersion = engineVersion();
    m_result.protocol = protocolId(m_whole.httpVersion, m_whole.request.url.isTls());
    m_result.measureStartUnixMs = commonStartUnixMs;
}

Status FleetMerge::started(const LoaderIdentity& id)
{
    if (id.count != m_count)
        return Error { fmt::format("loader {} belongs to a run of {} loaders, not {}", id.index, id.count, m_count) };
    if (id.index >= m_count)
        return Error { fmt::format("loader index {} is out of range (0 to {})", id.index, m_count - 1) };
    Loader& l = m_loaders[id.index];
    if (l.started) return Error { fmt::format("loader {} appears twice", id.index) };
    // The same run: its whole configuration, read and written again, is ours to the byte.
    auto theirs = runConfigFromJson(id.wholeConfigJson);
    if (!theirs)
        return Error { fmt::format("loader {}: its configuration is unreadable: {}", id.index, theirs.error()) };
    if (runConfigToJson(theirs->normalized()) != m_configJson)
        return Error { fmt::format("loader {} ran another configuration (URL, load or options differ from the "
                                   "run's): loaders of one run must share one configuration",
            id.index) };
    l.started = true;
    LoaderSummary& row = m_rows[id.index];
    row.host = id.host;
    row.clock = id.clock;
    row.state = "running";
    return {};
}

int64_t FleetMerge::mergedIndexOf(int64_t startUnixMs) const
{
    const double intervalMs = static_cast<double>(m_intervalUs) / 1000.0;
    return std::max<int64_t>(0, std::llround(static_cast<double>(startUnixMs - m_commonStartUnixMs) / intervalMs));
}

void FleetMerge::announce()
{
    if (m_announced) return;
    m_announced = true;
    for (RunObserver* o : m_observers)
        o->onStarted(m_whole);
}

void FleetMerge::interval(unsigned loader, const LoaderInterval& in)
{
    if (loader >= m_count || !m_loaders[loader].started || m_loaders[loader].ended) return;
    announce();
    Loader& l = m_loaders[loader];
    const IntervalSnapshot snapshot = in.snapshot();
    const int64_t index = mergedIndexOf(in.startUnixMs);
    if (l.passed < 0) {
        // Its measurement began startS before this interval did.
        const int64_t firstStartUnixMs = in.startUnixMs - std::llround(in.startS * 1000.0);
        m_rows[loader].startOffsetMs = static_cast<double>(firstStartUnixMs - m_commonStartUnixMs);
    }
    if (index < m_nextEmit) {
        // Later than the fleet (its clock lags by more than the merge waited): added to the
        // oldest interval still open rather than lost.
        m_warnings.push_back(
            fmt::format("loader {}'s interval at {} ms came after the merged one", loader, in.startUnixMs));
    }
    Pending& p = m_pending[std::max(index, m_nextEmit)];
    if (!p.any) {
        p.sum = snapshot;
        p.any = true;
    } else {
        p.sum.add(snapshot);
        p.sum.endS = std::max(p.sum.endS, p.sum.startS + snapshot.durationS());
    }
    p.targetRatePerS += snapshot.targetRatePerS;
    p.loaderRequests.resize(m_count);
    p.loaderRequests[loader] += in.requests;
    l.passed = std::max(l.passed, index);
    LoaderSummary& row = m_rows[loader];
    row.requests += in.requests;
    row.errors += in.transportErrors();
    publishReady();
}

void FleetMerge::finished(unsigned loader, const LoaderFinal& final)
{
    if (loader >= m_count || m_loaders[loader].ended) return;
    Loader& l = m_loaders[loader];
    l.ended = true;
    l.final = final;
    LoaderSummary& row = m_rows[loader];
    row.requestsPerS = final.durationS > 0 ? static_cast<double>(row.requests) / final.durationS : 0;
    row.state = final.stoppedEarly ? "stopped" : "completed";
    if (final.measureStartUnixMs)
        row.startOffsetMs = static_cast<double>(final.measureStartUnixMs - m_commonStartUnixMs);
    publishReady();
}

void FleetMerge::failed(unsigned loader, const std::string& why)
{
    if (loader >= m_count || m_loaders[loader].ended) return;
    m_loaders[loader].ended = true;
    m_rows[loader].state = "died: " + why;
    publishReady();
}

bool FleetMerge::allEnded() const
{
    return std::all_of(m_loaders.begin(), m_loaders.end(), [](const Loader& l) { return l.ended; });
}

void FleetMerge::publishReady()
{
    for (;;) {
        const bool ready = std::all_of(m_loaders.begin(), m_loaders.end(),
            [&](const Loader& l) { return l.ended || (l.started && l.passed >= m_nextEmit); });
        if (!ready) return;
        auto it = m_pending.find(m_nextEmit);
        if (it == m_pending.end()) {
            // Nobody measured this interval: it ends the run, or every loader is past it (a gap).
            if (m_pending.empty()) return;
            ++m_nextEmit;
            continue;
        }
        publish(it->first, it->second);
        m_pending.erase(it);
        ++m_nextEmit;
    }
}

void FleetMerge::publish(int64_t index, Pending& p)
{
    IntervalSnapshot& s = p.sum;
    const double durationS = s.durationS();
    s.index = static_cast<uint32_t>(index);
    s.startS = static_cast<double>(index) * static_cast<double>(m_intervalUs) / 1e6;
    s.endS = s.startS + durationS;
    s.targetRatePerS = p.targetRatePerS;
    IntervalRecord record
        = IntervalRecord::of(s, m_commonStartUnixMs + index * static_cast<int64_t>(m_intervalUs / 1000));
    record.loaderRequests = std::move(p.loaderRequests);
    for (RunObserver* o : m_observers)
        o->onInterval(record);
    if (m_keepIntervals) {
        m_result.addInterval(s, std::move(record));
    } else {
        m_result.Measurements::add(s);
    }
    m_result.durationS = std::max(m_result.durationS, s.endS);
}

RunResult FleetMerge::finish(bool stopped)
{
    announce();
    // Whatever is still pending goes in, in order: loaders that never got there count as ended.
    for (Loader& l : m_loaders)
        if (!l.ended) {
            l.ended = true;
            const unsigned i = static_cast<unsigned>(&l - m_loaders.data());
            if (m_rows[i].state == "running" || m_rows[i].state == "not started") m_rows[i].state = "lost: no result";
        }
    for (auto& [index, pending] : m_pending)
        publish(index, pending);
    m_pending.clear();

    RunResult& r = m_result;
    double longestS = 0;
    for (unsigned i = 0; i < m_count; ++i) {
        const Loader& l = m_loaders[i];
        if (!l.final) {
            r.stoppedEarly = true; // a loader died: the run is partial
            continue;
        }
        const LoaderFinal& f = *l.final;
        longestS = std::max(longestS, f.durationS);
        r.targetRatePerS += f.targetRatePerS;
        r.stoppedEarly = r.stoppedEarly || f.stoppedEarly;
        if (!f.protocol.empty()) r.protocol = f.protocol;
        if (!f.engineVersion.empty() && f.engineVersion != r.engineVersion)
            m_warnings.push_back(
                fmt::format("loader {} runs wrkbench {}, the coordinator {}", i, f.engineVersion, r.engineVersion));
        r.reconnects += f.reconnects;
        if (f.serverStreamLimit > 0 && (r.serverStreamLimit == 0 || f.serverStreamLimit < r.serverStreamLimit))
            r.serverStreamLimit = f.serverStreamLimit;
        if (r.firstTlsError.empty()) r.firstTlsError = f.firstTlsError;
        if (r.firstConnectError.empty()) r.firstConnectError = f.firstConnectError;
        r.threadRates.perThreadRequestsPerS.insert(r.threadRates.perThreadRequestsPerS.end(),
            f.threadRates.perThreadRequestsPerS.begin(), f.threadRates.perThreadRequestsPerS.end());
    }
    // The run lasted as long as its longest loader measured (intervals are aligned to the common start).
    r.durationS = std::max(r.durationS, longestS);
    r.stoppedEarly = r.stoppedEarly || stopped;
    r.loaders = m_rows;
    r.slo = evaluateSlos(m_whole.slos, sloInputsOf(r, r.durationS));
    for (RunObserver* o : m_observers)
        o->onFinished(r);
    return r;
}

} // namespace wb
