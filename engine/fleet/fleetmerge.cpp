#include "fleet/fleetmerge.h"

#include "run/runcontroller.h"
#include "run/shard.h"
#include "run/slo.h"
#include "wire/configcodec.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace wb {

namespace {
// What loaders of one run must share: the whole configuration but where each finds the CA file
// it trusts (a path of its own machine: a pod reads the copy in its ConfigMap, a loader VM its own).
std::string sharedConfigJson(RunConfig config)
{
    config.tls.caFile.clear();
    return runConfigToJson(config);
}
} // namespace

FleetMerge::FleetMerge(RunConfig whole, unsigned loaders, int64_t commonStartUnixMs)
    : m_whole(whole.normalized())
    , m_count(loaders)
    , m_commonStartUnixMs(commonStartUnixMs)
    , m_intervalUs(std::max<uint64_t>(m_whole.intervalUs, 1))
    , m_loaders(loaders)
    , m_rows(loaders)
    , m_fold(m_whole)
{
    m_configJson = sharedConfigJson(m_whole);
    for (unsigned i = 0; i < loaders; ++i) {
        m_rows[i].index = i;
        m_rows[i].connections = static_cast<unsigned>(evenShare(m_whole.connections, loaders, i));
        m_rows[i].state = "not started";
    }
}

Status FleetMerge::started(const LoaderIdentity& id)
{
    if (id.count != m_count)
        return Error { fmt::format("loader {} belongs to a run of {} loaders, not {}", id.index, id.count, m_count) };
    if (id.index >= m_count)
        return Error { fmt::format("loader index {} is out of range (0 to {})", id.index, m_count - 1) };
    Loader& l = m_loaders[id.index];
    if (l.started) return Error { fmt::format("loader {} appears twice", id.index) };
    // The same run: its whole configuration, read and written again, is ours to the byte (but for
    // the CA file's path, which is the loader's machine's).
    auto theirs = runConfigFromJson(id.wholeConfigJson);
    if (!theirs)
        return Error { fmt::format("loader {}: its configuration is unreadable: {}", id.index, theirs.error()) };
    if (sharedConfigJson(theirs->normalized()) != m_configJson)
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

void FleetMerge::interval(unsigned loader, const IntervalRecord& in)
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
    row.cost.add(in.loaderCost);
    publishReady();
}

void FleetMerge::finished(unsigned loader, const RunEnd& end, uint64_t intervalRequests)
{
    if (loader >= m_count || m_loaders[loader].ended) return;
    Loader& l = m_loaders[loader];
    l.ended = true;
    l.end = end;
    LoaderSummary& row = m_rows[loader];
    row.requestsPerS = end.measuredS > 0 ? static_cast<double>(row.requests) / end.measuredS : 0;
    row.state = end.stoppedEarly ? "stopped" : "completed";
    if (end.measureStartUnixMs) row.startOffsetMs = static_cast<double>(end.measureStartUnixMs - m_commonStartUnixMs);
    if (intervalRequests != UINT64_MAX && intervalRequests != row.requests)
        m_warnings.push_back(fmt::format("loader {} measured {} requests but {} arrived in its intervals: the merged "
                                         "run lacks the rest",
            loader, intervalRequests, row.requests));
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
    m_fold.add(s, std::move(record));
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

    // One end for the run: every loader's merged (entries, samples, first errors...), the
    // common start, and the loaders table; a loader without an end makes the run partial.
    RunEnd end;
    end.engineVersion = engineVersion();
    end.measureStartUnixMs = m_commonStartUnixMs;
    for (unsigned i = 0; i < m_count; ++i) {
        const Loader& l = m_loaders[i];
        if (!l.end) {
            end.stoppedEarly = true;
            continue;
        }
        if (!l.end->engineVersion.empty() && l.end->engineVersion != end.engineVersion)
            m_warnings.push_back(fmt::format(
                "loader {} runs wrkbench {}, the coordinator {}", i, l.end->engineVersion, end.engineVersion));
        RunEnd theirs = *l.end;
        theirs.measureStartUnixMs = 0; // the run's start is the common one
        theirs.loaders.clear(); // a loader's own table (none) is not the fleet's
        end.merge(theirs);
    }
    end.stoppedEarly = end.stoppedEarly || stopped;
    end.loaders = m_rows;
    RunResult r = m_fold.finish(end);
    for (RunObserver* o : m_observers)
        o->onFinished(r);
    return r;
}

} // namespace wb
