#include "report/backendreport.h"

#include "report/units.h"
#include "stats/backendbalance.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <iterator>

namespace wb {

namespace {

constexpr size_t NAME_WIDTH = 24;
constexpr size_t TEXT_ROWS = 64; // a text report lists this many backends; the JSON has all

std::string timeOf(uint64_t us)
{
    return formatTimeUs(static_cast<double>(us));
}

std::string seconds(double s)
{
    return fmt::format("{:.2f}s", s);
}

std::string shortName(const std::string& name)
{
    return name.size() <= NAME_WIDTH ? name : name.substr(0, NAME_WIDTH - 3) + "...";
}

void appendBackendTable(std::string& out, const RunResult& result)
{
    const BackendBreakdown& b = result.backends;
    const BackendBalance balance = backendBalanceOf(b);
    fmt::format_to(
        std::back_inserter(out), "  Backends ({}): {}", backendFromText(result.config.backendFrom), balance.backends);
    if (balance.backends > 1)
        fmt::format_to(std::back_inserter(out),
            ", max/min share {:.2f}, CV {:.3f}, chi-square {:.1f} ({} df) vs an even split: p = {:.3g}",
            balance.maxMinRatio, balance.cv, balance.chiSquare, balance.degreesOfFreedom, balance.pValue);
    out += '\n';
    const std::vector<size_t> order = backendsByRequests(b);
    if (!order.empty())
        fmt::format_to(std::back_inserter(out), "    {:<{}}{:>10}{:>9}{:>10}{:>10}{:>10}{:>10}{:>9}{:>9}{:>9}\n",
            "Backend", NAME_WIDTH, "Requests", "Share", "p50", "p90", "p99", "Max", "Non-2xx", "First", "Last");
    const double requests = static_cast<double>(std::max<uint64_t>(1, result.requests));
    for (size_t k = 0; k < order.size() && k < TEXT_ROWS; ++k) {
        const BackendStats& s = b.stats[order[k]];
        fmt::format_to(std::back_inserter(out), "    {:<{}}{:>10}{:>8.2f}%{:>10}{:>10}{:>10}{:>10}{:>9}{:>9}{:>9}\n",
            shortName(b.names[order[k]]), NAME_WIDTH, s.requests, 100.0 * static_cast<double>(s.requests) / requests,
            timeOf(s.latency.valueAtPercentileUs(50)), timeOf(s.latency.valueAtPercentileUs(90)),
            timeOf(s.latency.valueAtPercentileUs(99)), timeOf(s.latency.maxUs()), s.non2xx, seconds(s.firstSeenS),
            seconds(s.lastSeenS));
    }
    if (order.size() > TEXT_ROWS)
        fmt::format_to(
            std::back_inserter(out), "    ... and {} more backends (--json has every one)\n", order.size() - TEXT_ROWS);
    if (b.unnamed > 0) fmt::format_to(std::back_inserter(out), "    {} responses named no backend\n", b.unnamed);
    for (const BackendEvent& e : backendEventsOf(result.intervals))
        fmt::format_to(std::back_inserter(out), "    {} {} at {}\n", e.name, backendEventId(e.kind), seconds(e.atS));
    if (const std::string warning = backendOverflowWarning(result); !warning.empty())
        fmt::format_to(std::back_inserter(out), "  Warning: {}\n", warning);
}

void appendSplit(std::string& out, const RunResult& result)
{
    const LatencyHistogram& total = result.config.openModel() ? result.serviceLatency : result.latency;
    fmt::format_to(std::back_inserter(out), "  Upstream time ({}){:>10}{:>10}{:>10}{:>10}\n",
        upstreamTimeText(result.config.upstreamTime), "p50", "p90", "p99", "Mean");
    const auto row = [&](const char* name, const LatencyHistogram& h) {
        fmt::format_to(std::back_inserter(out), "    {:<12}{:>10}{:>10}{:>10}{:>10}\n", name,
            timeOf(h.valueAtPercentileUs(50)), timeOf(h.valueAtPercentileUs(90)), timeOf(h.valueAtPercentileUs(99)),
            formatTimeUs(h.meanUs()));
    };
    row(result.config.openModel() ? "Service" : "Latency", total);
    row("Upstream", result.upstreamTime);
    row("Front door", result.frontDoor);
    if (const MeanSplit split = meanSplitOf(result.upstreamTime, result.frontDoor); split.responses > 0) {
        const double share = split.frontDoorShare();
        fmt::format_to(std::back_inserter(out),
            "    Mean split: {} = upstream {} + front door {} ({:.1f}% front door)\n", formatTimeUs(split.totalUs()),
            formatTimeUs(split.upstreamUs), formatTimeUs(split.frontDoorUs), std::isnan(share) ? 0.0 : 100.0 * share);
    }
    if (result.upstreamMissing > 0)
        fmt::format_to(std::back_inserter(out), "    {} responses stated no upstream time (in neither side)\n",
            result.upstreamMissing);
}

} // namespace

std::string backendOverflowWarning(const RunResult& result)
{
    const BackendBreakdown& b = result.backends;
    for (size_t i = 0; i < b.names.size(); ++i)
        if (b.names[i] == OTHER_BACKEND && b.stats[i].requests > 0)
            return fmt::format("more than {} distinct backends: {} responses of the rest are counted as {}",
                result.config.backendFrom.maxBackends, b.stats[i].requests, OTHER_BACKEND);
    return {};
}

void appendBehindTheFrontDoor(std::string& out, const RunResult& result)
{
    if (result.config.backendFrom.enabled()) appendBackendTable(out, result);
    if (result.config.upstreamTime.enabled()) appendSplit(out, result);
}

WireJson splitSideJson(const LatencyHistogram& h)
{
    return WireJson { { "count", h.count() }, { "p50", h.valueAtPercentileUs(50) },
        { "p90", h.valueAtPercentileUs(90) }, { "p99", h.valueAtPercentileUs(99) }, { "max", h.maxUs() },
        { "mean", h.empty() ? 0.0 : h.meanUs() } };
}

WireJson backendsReportJson(const RunResult& result)
{
    const BackendBreakdown& b = result.backends;
    const BackendBalance balance = backendBalanceOf(b);
    WireJson list = WireJson::array();
    const double requests = static_cast<double>(std::max<uint64_t>(1, result.requests));
    for (size_t i = 0; i < b.stats.size(); ++i) {
        const BackendStats& s = b.stats[i];
        if (s.requests == 0) continue;
        list.push_back(WireJson { { "name", b.names[i] }, { "requests", s.requests },
            { "share", static_cast<double>(s.requests) / requests }, { "latency_us", splitSideJson(s.latency) },
            { "non2xx", s.non2xx }, { "first_seen_s", s.firstSeenS }, { "last_seen_s", s.lastSeenS } });
    }
    WireJson events = WireJson::array();
    for (const BackendEvent& e : backendEventsOf(result.intervals))
        events.push_back(WireJson { { "kind", backendEventId(e.kind) }, { "name", e.name }, { "at_s", e.atS } });
    WireJson j { { "source", backendFromText(result.config.backendFrom) }, { "count", balance.backends },
        { "requests", balance.requests }, { "unnamed", b.unnamed }, { "max_share", balance.maxShare },
        { "min_share", balance.minShare }, { "max_min_ratio", balance.maxMinRatio }, { "cv", balance.cv },
        { "chi_square", balance.chiSquare }, { "degrees_of_freedom", balance.degreesOfFreedom },
        { "p_value", balance.pValue }, { "list", std::move(list) }, { "events", std::move(events) } };
    if (const std::string warning = backendOverflowWarning(result); !warning.empty()) j["warning"] = warning;
    return j;
}

} // namespace wb
