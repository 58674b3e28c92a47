#include "prometheus/exposition/presets.h"

#include "common/userpattern.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

namespace wb {

namespace {

/// The window's increase of a counter-like sample; false when the previous scrape did not have it.
/// (A snapshot holds each series once: ScrapeSnapshot::of keeps the first of a duplicate.)
bool increaseOf(const ScrapeSnapshot& previous, const MetricSample& s, double& out)
{
    const double* before = previous.counter(seriesKey(s.name, s.labels));
    if (!before) return false;
    out = counterIncrease(*before, s.value);
    return true;
}

double windowS(const ScrapeSnapshot& previous, const ScrapeSnapshot& current)
{
    return static_cast<double>(current.atUnixMs - previous.atUnixMs) / 1000.0;
}

// node_exporter: every CPU's seconds per mode. The share of each mode is its increase over the
// increase of all modes of all CPUs, so it needs neither the CPU count nor the window's length
// (and a CPU taken offline mid-run weighs nothing). Busy is everything but idle and iowait, as
// the node_exporter mixin's CPU utilisation counts it.
void deriveNode(const ScrapeSnapshot* previous, const ScrapeSnapshot& current, std::vector<DerivedValue>& out)
{
    if (!previous) return;
    std::map<std::string, double> perMode;
    double total = 0;
    for (const MetricSample& s : current.data.samples) {
        if (s.family != "node_cpu_seconds_total" && s.name != "node_cpu_seconds_total") continue;
        double increase = 0;
        if (!increaseOf(*previous, s, increase)) continue;
        perMode[std::string(s.label("mode"))] += increase;
        total += increase;
    }
    if (!(total > 0)) return;
    const double idle = perMode["idle"] + perMode["iowait"];
    out.push_back({ "node_cpu_busy_percent", SeriesKind::Percent, 100.0 * (total - idle) / total });
    for (const auto& [mode, seconds] : perMode)
        out.push_back(
            { seriesKey("node_cpu_mode_percent", { { "mode", mode } }), SeriesKind::Percent, 100.0 * seconds / total });
}

// Envoy: upstream requests by response code class, per cluster: the 5xx share and rate.
void deriveEnvoy(const ScrapeSnapshot* previous, const ScrapeSnapshot& current, std::vector<DerivedValue>& out)
{
    if (!previous) return;
    const double dtS = windowS(*previous, current);
    if (!(dtS > 0)) return;
    struct Classes
    {
        double all = 0;
        double fives = 0;
    };
    std::map<std::string, Classes> clusters;
    for (const MetricSample& s : current.data.samples) {
        if (s.family != "envoy_cluster_upstream_rq_xx") continue;
        double increase = 0;
        if (!increaseOf(*previous, s, increase)) continue;
        Classes& c = clusters[std::string(s.label("envoy_cluster_name"))];
        c.all += increase;
        if (s.label("envoy_response_code_class") == "5") c.fives += increase;
    }
    for (const auto& [cluster, c] : clusters) {
        const std::vector<MetricLabel> labels { { "envoy_cluster_name", cluster } };
        out.push_back({ seriesKey("envoy_cluster_upstream_5xx", labels), SeriesKind::Rate, c.fives / dtS });
        if (c.all > 0)
            out.push_back({ seriesKey("envoy_cluster_upstream_5xx_percent", labels), SeriesKind::Percent,
                100.0 * c.fives / c.all });
    }
}

// nginx-prometheus-exporter: connections accepted but not handled (worker_connections reached).
void deriveNginx(const ScrapeSnapshot* previous, const ScrapeSnapshot& current, std::vector<DerivedValue>& out)
{
    if (!previous) return;
    const double dtS = windowS(*previous, current);
    double accepted = 0, handled = 0;
    bool haveAccepted = false, haveHandled = false;
    for (const MetricSample& s : current.data.samples) {
        if (s.family == "nginx_connections_accepted") haveAccepted = increaseOf(*previous, s, accepted);
        if (s.family == "nginx_connections_handled") haveHandled = increaseOf(*previous, s, handled);
    }
    if (haveAccepted && haveHandled && dtS > 0)
        out.push_back({ "nginx_connections_dropped", SeriesKind::Rate, std::max(0.0, accepted - handled) / dtS });
}

// The built-in server: its loop threads' busy time over the window's time of all threads.
void deriveWrkbench(const ScrapeSnapshot* previous, const ScrapeSnapshot& current, std::vector<DerivedValue>& out)
{
    if (!previous) return;
    const double dtS = windowS(*previous, current);
    double busyS = 0;
    unsigned threads = 0;
    for (const MetricSample& s : current.data.samples) {
        if (s.family != "wrkbench_server_busy_seconds_total" && s.name != "wrkbench_server_busy_seconds_total")
            continue;
        double increase = 0;
        if (!increaseOf(*previous, s, increase)) continue;
        busyS += increase;
        ++threads;
    }
    // The server's clock and the scrape's time stamps are read a little apart: a thread busy the whole
    // window can come out a hair above 100%, which it cannot have been.
    if (threads > 0 && dtS > 0)
        out.push_back({ "wrkbench_server_busy_percent", SeriesKind::Percent,
            std::clamp(100.0 * busyS / (dtS * threads), 0.0, 100.0) });
}

constexpr MetricPreset PRESETS[] = {
    { "node", "node_exporter: CPU busy per mode, per node", "", "node_cpu_seconds_total", deriveNode },
    { "envoy", "Envoy: upstream request time, active connections, 5xx",
        "envoy_cluster_upstream_rq_time|envoy_cluster_upstream_cx_active|envoy_cluster_upstream_rq_active"
        "|envoy_http_downstream_cx_active|envoy_http_downstream_rq_time",
        "envoy_cluster_upstream_rq_xx", deriveEnvoy },
    { "nginx", "nginx-prometheus-exporter: connections, requests, dropped connections",
        "nginx_connections_(active|reading|writing|waiting)|nginx_http_requests_total|nginx_up",
        "nginx_connections_(accepted|handled)", deriveNginx },
    { "wrkbench", "wrkbench's built-in server: requests, connections, busy time, --capacity's refusals and queue",
        "wrkbench_server_requests_total|wrkbench_server_connections|wrkbench_server_refused_total|"
        "wrkbench_server_queue_wait_seconds_total",
        "wrkbench_server_busy_seconds_total", deriveWrkbench },
};

std::string presetsPattern(bool consumedToo)
{
    std::string pattern;
    for (const MetricPreset& p : PRESETS) {
        for (const char* part : { p.shown, consumedToo ? p.consumed : "" }) {
            if (!*part) continue;
            if (!pattern.empty()) pattern += '|';
            pattern += std::string("(?:") + part + ")";
        }
    }
    return pattern;
}

} // namespace

std::span<const MetricPreset> metricPresets()
{
    return PRESETS;
}

namespace {

// shows() asks the patterns once per sample name. An endpoint that prints new names at every
// scrape (a broad --scrape-metric such as '.*' keeps them all) grew the cache by each scrape's
// names, without end; past this many, as many as a scrape keeps samples, it starts over.
constexpr size_t MAX_SHOWN_CACHE = 20'000;

// Our own patterns: they compile.
UserPattern ownPattern(const std::string& pattern)
{
    return *UserPattern::compile(pattern);
}

} // namespace

struct MetricSelection::Impl
{
    std::optional<UserPattern> user;
    UserPattern presetKept = ownPattern(presetsPattern(true));
    UserPattern presetShown = ownPattern(presetsPattern(false));
    mutable std::unordered_map<std::string, bool> shownCache; ///< by sample name, at most MAX_SHOWN_CACHE
    std::vector<UserPattern> each; ///< per preset: shown or consumed

    bool userMatches(std::string_view family, std::string_view name) const
    {
        return user && (user->fullMatch(family) || user->fullMatch(name));
    }
};

MetricSelection::MetricSelection(const std::string& metricRegex)
    : m_impl(std::make_unique<Impl>())
{
    for (const MetricPreset& p : PRESETS)
        m_impl->each.push_back(ownPattern(std::string(p.shown) + (*p.shown ? "|" : "") + p.consumed));
    // Checked by ScrapeSpec::validate; one that does not compile keeps the presets' only.
    if (!metricRegex.empty())
        if (auto user = UserPattern::compile(metricRegex)) m_impl->user = std::move(*user);
}

MetricSelection::~MetricSelection() = default;
MetricSelection::MetricSelection(MetricSelection&&) noexcept = default;
MetricSelection& MetricSelection::operator=(MetricSelection&&) noexcept = default;

bool MetricSelection::keeps(std::string_view family, std::string_view name) const
{
    return m_impl->userMatches(family, name) || m_impl->presetKept.fullMatch(family)
        || m_impl->presetKept.fullMatch(name);
}

bool MetricSelection::shows(const MetricSample& sample) const
{
    auto it = m_impl->shownCache.find(sample.name);
    if (it != m_impl->shownCache.end()) return it->second;
    const bool shown = m_impl->userMatches(sample.family, sample.name) || m_impl->presetShown.fullMatch(sample.family)
        || m_impl->presetShown.fullMatch(sample.name);
    if (m_impl->shownCache.size() >= MAX_SHOWN_CACHE) m_impl->shownCache.clear();
    m_impl->shownCache.emplace(sample.name, shown);
    return shown;
}

size_t MetricSelection::cachedNames() const
{
    return m_impl->shownCache.size();
}

const char* MetricSelection::presetOf(const MetricSample& sample) const
{
    for (size_t i = 0; i < m_impl->each.size(); ++i)
        if (m_impl->each[i].fullMatch(sample.family) || m_impl->each[i].fullMatch(sample.name)) return PRESETS[i].name;
    return nullptr;
}

std::vector<DerivedValue> MetricSelection::derive(const ScrapeSnapshot* previous, const ScrapeSnapshot& current) const
{
    std::vector<DerivedValue> out = deriveWindow(previous, current, [this](const MetricSample& s) { return shows(s); });
    std::vector<DerivedValue> own;
    for (const MetricPreset& preset : PRESETS)
        preset.derive(previous, current, own);
    for (DerivedValue& v : own)
        if (std::isfinite(v.value)) out.push_back(std::move(v)); // a NaN or Inf printed by the endpoint
    return out;
}

} // namespace wb
