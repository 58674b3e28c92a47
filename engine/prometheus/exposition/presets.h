#pragma once
// Presets for what users point --scrape at most. Each is a filter (the families it shows as they are, and those it
// reads only to derive its own series) plus the derived series, and applies by itself to every endpoint that prints
// its families: nothing to choose. docs/METRICS.md lists them: node (node_exporter's CPU busy and per-mode shares),
// envoy (upstream latency, connections, 5xx share), nginx (connections, requests per second, dropped connections) and
// wrkbench (the built-in server's requests per second, connections and busy share).

#include "prometheus/exposition/derive.h"

#include <memory>
#include <span>
#include <string_view>

namespace wb {

struct MetricPreset
{
    const char* name;
    const char* title;
    /// Families shown with the generic derivation (a regular expression matching the whole name).
    const char* shown;
    /// Families read only for the derived series (not shown as they are).
    const char* consumed;
    /// The preset's own series of the window (previous, current]; nothing without a previous scrape.
    void (*derive)(const ScrapeSnapshot* previous, const ScrapeSnapshot& current, std::vector<DerivedValue>& out);
};

std::span<const MetricPreset> metricPresets();

/// Which families an endpoint's scrapes keep and show: the presets' plus the user's --scrape-metric.
class MetricSelection
{
public:
    /// metricRegex: "" for the presets' only (it was checked by ScrapeSpec::validate).
    explicit MetricSelection(const std::string& metricRegex);
    ~MetricSelection();
    MetricSelection(MetricSelection&&) noexcept;
    MetricSelection& operator=(MetricSelection&&) noexcept;

    /// Kept by the parser: shown by a preset or the user, or consumed by a preset.
    bool keeps(std::string_view family, std::string_view name) const;
    /// Given the generic derivation (rates, values, quantiles).
    bool shows(const MetricSample& sample) const;
    /// Sample names whose answer shows() remembers: at most as many as a scrape keeps samples.
    size_t cachedNames() const;
    /// The name of the preset that reads or shows this sample's family, or nullptr.
    const char* presetOf(const MetricSample& sample) const;
    /// The window's values: the generic ones of the shown samples, then the presets'.
    std::vector<DerivedValue> derive(const ScrapeSnapshot* previous, const ScrapeSnapshot& current) const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace wb
