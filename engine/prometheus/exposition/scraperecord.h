#pragma once
// What a run keeps of its target's metrics (`--scrape`): which endpoints were read and how that
// went, and the series derived from them, one point per window between two scrapes. Its JSON
// (writer beside reader) is the run report's "scrape", `export --what scrape`'s JSON and a
// plan's; the session stores the same points in its scrape tables.
//
// These are observations of the target made by the process that drives the run (in a
// distributed run, the coordinator: once for the whole run), not measurements of the load, so
// they are kept beside the run's result rather than folded into it (run/runfold.h).

#include "common/result.h"

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace wb {

/// How a series was derived from what the endpoint printed.
enum class SeriesKind : uint8_t {
    Rate, ///< a counter's increase per second over the window
    Value, ///< a gauge's (or untyped, or a summary quantile's) value at the window's end
    P50, ///< a classic histogram's quantiles over the window (from its buckets' increase)
    P90,
    P99,
    Mean, ///< a histogram's or summary's increase of _sum over that of _count
    Percent, ///< a preset's share, 0-100 (CPU busy, 5xx share)
};

const char* seriesKindName(SeriesKind kind);
std::optional<SeriesKind> seriesKindNamed(std::string_view name);

/// One endpoint to read: `name=URL` or a URL (named after its host and port).
struct ScrapeEndpoint
{
    std::string name;
    std::string url;
    bool operator==(const ScrapeEndpoint&) const = default;
};

/// What a run scrapes: endpoints and the series to keep beyond the presets'.
struct ScrapeSpec
{
    std::vector<ScrapeEndpoint> endpoints;
    /// A regular expression (RE2 syntax, as Prometheus' own, matching the whole metric or family
    /// name, as its relabelling does) of the series to keep besides the presets'; "" keeps the
    /// presets' only.
    std::string metricRegex;

    bool enabled() const { return !endpoints.empty(); }
    bool operator==(const ScrapeSpec&) const = default;
    /// One sentence naming what is wrong: a URL that is not http(s), two endpoints of one name,
    /// a regular expression that does not compile.
    Status validate() const;
};

/// "name=URL" or "URL". The error names the text.
Result<ScrapeEndpoint> parseScrapeEndpoint(std::string_view text);
/// The spec of --scrape (each "name=URL" or "URL") and --scrape-metric, validated.
Result<ScrapeSpec> scrapeSpecOf(const std::vector<std::string>& endpoints, const std::string& metricRegex);

nlohmann::json scrapeSpecToJson(const ScrapeSpec& spec);
/// Bounded: at most MAX_SCRAPE_ENDPOINTS endpoints; the error is one sentence.
Result<ScrapeSpec> scrapeSpecFromJson(const nlohmann::json& json);

inline constexpr size_t MAX_SCRAPE_ENDPOINTS = 32;

struct ScrapePoint
{
    int64_t atUnixMs = 0; ///< the end of the window: when the scrape that closed it was answered
    double value = 0;
    bool operator==(const ScrapePoint&) const = default;
};

struct ScrapeSeries
{
    unsigned endpoint = 0; ///< index into ScrapeRecord::endpoints
    std::string name; ///< name{label="value",...} (labels sorted)
    SeriesKind kind = SeriesKind::Value;
    std::vector<ScrapePoint> points;

    /// "name{...} /s", "name{...} p99", "name{...}" for values, "name{...} %".
    std::string label() const;
    bool operator==(const ScrapeSeries&) const = default;
};

struct ScrapeEndpointStats
{
    std::string name;
    std::string url;
    unsigned scrapes = 0; ///< attempts, failed ones included
    unsigned failures = 0; ///< attempts that gave nothing (connect, timeout, HTTP status, size)
    std::vector<std::string> warnings; ///< the first few, each naming the endpoint
    bool operator==(const ScrapeEndpointStats&) const = default;
};

struct ScrapeRecord
{
    std::vector<ScrapeEndpointStats> endpoints;
    std::vector<ScrapeSeries> series;
    std::string metricRegex;

    bool empty() const { return endpoints.empty(); }
    /// Appends a point to the series (endpoint, name, kind), created on first use. Returns false
    /// when the endpoint already has maxSeries series and this would be a new one.
    bool addPoint(unsigned endpoint, const std::string& name, SeriesKind kind, ScrapePoint point, size_t maxSeries);
    bool operator==(const ScrapeRecord& other) const
    {
        return endpoints == other.endpoints && series == other.series && metricRegex == other.metricRegex;
    }

private:
    std::unordered_map<std::string, size_t> m_index; ///< "endpoint/kind/name" -> series
    std::vector<size_t> m_seriesPerEndpoint;
};

/// Warnings kept per endpoint (the rest are counted in the last one).
inline constexpr size_t MAX_SCRAPE_WARNINGS = 8;

nlohmann::json scrapeRecordToJson(const ScrapeRecord& record);
/// Bounded like every untrusted input; the error is one sentence.
Result<ScrapeRecord> scrapeRecordFromJson(const nlohmann::json& json);

} // namespace wb
