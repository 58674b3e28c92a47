#include "prometheus/exposition/scraperecord.h"

#include "common/userpattern.h"
#include "http/url.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <set>

namespace wb {

namespace {

constexpr std::pair<SeriesKind, const char*> KIND_NAMES[] = { { SeriesKind::Rate, "rate" },
    { SeriesKind::Value, "value" }, { SeriesKind::P50, "p50" }, { SeriesKind::P90, "p90" }, { SeriesKind::P99, "p99" },
    { SeriesKind::Mean, "mean" }, { SeriesKind::Percent, "percent" } };

// Bounds of a record read back (a report or export of another machine's): generous beside what a
// scraper makes (MAX_SCRAPE_ENDPOINTS, its series cap and a day of 100 ms windows).
constexpr size_t MAX_SERIES_READ = 200'000;
constexpr size_t MAX_POINTS_READ = 20'000'000;
constexpr size_t MAX_TEXT_READ = 64 * 1024;

bool validName(std::string_view name)
{
    if (name.empty() || name.size() > 64) return false;
    for (char c : name)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.')) return false;
    return true;
}

std::string text(const nlohmann::json& j, const char* key)
{
    auto it = j.find(key);
    if (it == j.end() || !it->is_string()) return {};
    const std::string& s = it->get_ref<const std::string&>();
    return s.size() > MAX_TEXT_READ ? s.substr(0, MAX_TEXT_READ) : s;
}

/// A count, or 0 when the key is missing or holds anything but a non-negative integer (value()
/// would throw on another type).
unsigned count(const nlohmann::json& j, const char* key)
{
    auto it = j.find(key);
    if (it == j.end() || !it->is_number_unsigned()) return 0;
    return static_cast<unsigned>(std::min<uint64_t>(it->get<uint64_t>(), UINT32_MAX));
}

} // namespace

const char* seriesKindName(SeriesKind kind)
{
    for (const auto& [k, name] : KIND_NAMES)
        if (k == kind) return name;
    return "value";
}

std::optional<SeriesKind> seriesKindNamed(std::string_view name)
{
    for (const auto& [k, n] : KIND_NAMES)
        if (name == n) return k;
    return std::nullopt;
}

Result<ScrapeEndpoint> parseScrapeEndpoint(std::string_view input)
{
    std::string s(input);
    ScrapeEndpoint e;
    const size_t eq = s.find('=');
    const size_t scheme = s.find("://");
    if (eq != std::string::npos && (scheme == std::string::npos || eq < scheme)) {
        e.name = s.substr(0, eq);
        s = s.substr(eq + 1);
        if (!validName(e.name))
            return Error { "--scrape '" + std::string(input)
                + "': a name is 1-64 letters, digits, '-', '_' or '.', before '=' and the URL" };
    }
    auto url = parseUrl(s);
    if (!url) return Error { "--scrape '" + std::string(input) + "': " + url.error() };
    e.url = s;
    if (e.name.empty()) {
        // Named after its host and port ("127.0.0.1-9100", "node-1"): a name holds no ':' (nor an
        // IPv6 address's brackets), so every other character becomes '-'.
        std::string name = url->hasDefaultPort() ? url->host : url->host + "-" + std::to_string(url->port);
        for (char& c : name)
            if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.')) c = '-';
        if (name.size() > 64) name.erase(0, name.size() - 64);
        e.name = name;
    }
    return e;
}

Result<ScrapeSpec> scrapeSpecOf(const std::vector<std::string>& endpoints, const std::string& metricRegex)
{
    ScrapeSpec spec;
    for (const std::string& text : endpoints) {
        auto endpoint = parseScrapeEndpoint(text);
        if (!endpoint) return Error { endpoint.error() };
        spec.endpoints.push_back(std::move(*endpoint));
    }
    spec.metricRegex = metricRegex;
    if (Status st = spec.validate(); !st) return Error { st.error() };
    return spec;
}

Status ScrapeSpec::validate() const
{
    if (endpoints.size() > MAX_SCRAPE_ENDPOINTS)
        return Error { "at most " + std::to_string(MAX_SCRAPE_ENDPOINTS) + " --scrape endpoints" };
    std::set<std::string> names;
    for (const ScrapeEndpoint& e : endpoints) {
        if (!validName(e.name)) return Error { "scrape endpoint name '" + e.name + "': use 1-64 letters, digits, -_." };
        if (!names.insert(e.name).second)
            return Error { "two scrape endpoints are named '" + e.name + "': label them NAME=URL" };
        if (auto url = parseUrl(e.url); !url) return Error { "scrape endpoint '" + e.name + "': " + url.error() };
    }
    if (!metricRegex.empty())
        if (auto pattern = UserPattern::compile(metricRegex); !pattern)
            return Error { "--scrape-metric " + userPatternError(metricRegex, pattern.error()) };
    if (!metricRegex.empty() && endpoints.empty()) return Error { "--scrape-metric needs --scrape" };
    return {};
}

nlohmann::json scrapeSpecToJson(const ScrapeSpec& spec)
{
    nlohmann::json endpoints = nlohmann::json::array();
    for (const ScrapeEndpoint& e : spec.endpoints)
        endpoints.push_back({ { "name", e.name }, { "url", e.url } });
    nlohmann::json j { { "endpoints", endpoints } };
    if (!spec.metricRegex.empty()) j["metric"] = spec.metricRegex;
    return j;
}

Result<ScrapeSpec> scrapeSpecFromJson(const nlohmann::json& json)
{
    if (!json.is_object()) return Error { "scrape: expected an object with \"endpoints\"" };
    ScrapeSpec spec;
    spec.metricRegex = text(json, "metric");
    auto it = json.find("endpoints");
    if (it != json.end()) {
        if (!it->is_array()) return Error { "scrape: \"endpoints\" is not a list" };
        if (it->size() > MAX_SCRAPE_ENDPOINTS)
            return Error { "scrape: more than " + std::to_string(MAX_SCRAPE_ENDPOINTS) + " endpoints" };
        for (const nlohmann::json& e : *it) {
            if (e.is_string()) { // "name=URL" or a URL, as on the command line
                auto parsed = parseScrapeEndpoint(e.get<std::string>());
                if (!parsed) return Error { parsed.error() };
                spec.endpoints.push_back(*parsed);
                continue;
            }
            if (!e.is_object()) return Error { "scrape: an endpoint is neither \"name=URL\" nor an object" };
            ScrapeEndpoint endpoint { text(e, "name"), text(e, "url") };
            if (endpoint.name.empty()) {
                auto parsed = parseScrapeEndpoint(endpoint.url);
                if (!parsed) return Error { parsed.error() };
                endpoint.name = parsed->name;
            }
            spec.endpoints.push_back(endpoint);
        }
    }
    if (auto st = spec.validate(); !st) return Error { "scrape: " + st.error() };
    return spec;
}

std::string ScrapeSeries::label() const
{
    switch (kind) {
    case SeriesKind::Rate:
        return name + " /s";
    case SeriesKind::Value:
        return name;
    case SeriesKind::Percent:
        return name + " %";
    default:
        return name + " " + seriesKindName(kind);
    }
}

bool ScrapeRecord::addPoint(
    unsigned endpoint, const std::string& name, SeriesKind kind, ScrapePoint point, size_t maxSeries)
{
    std::string key = std::to_string(endpoint) + '/' + seriesKindName(kind) + '/' + name;
    auto it = m_index.find(key);
    if (it == m_index.end()) {
        if (m_seriesPerEndpoint.size() <= endpoint) m_seriesPerEndpoint.resize(endpoint + 1, 0);
        if (m_seriesPerEndpoint[endpoint] >= maxSeries) return false;
        ++m_seriesPerEndpoint[endpoint];
        it = m_index.emplace(std::move(key), series.size()).first;
        series.push_back({ endpoint, name, kind, {} });
    }
    series[it->second].points.push_back(point);
    return true;
}

nlohmann::json scrapeRecordToJson(const ScrapeRecord& record)
{
    nlohmann::json endpoints = nlohmann::json::array();
    for (const ScrapeEndpointStats& e : record.endpoints)
        endpoints.push_back({ { "name", e.name }, { "url", e.url }, { "scrapes", e.scrapes },
            { "failures", e.failures }, { "warnings", e.warnings } });
    nlohmann::json series = nlohmann::json::array();
    for (const ScrapeSeries& s : record.series) {
        nlohmann::json points = nlohmann::json::array();
        for (const ScrapePoint& p : s.points)
            points.push_back({ p.atUnixMs, p.value });
        series.push_back(
            { { "endpoint", s.endpoint < record.endpoints.size() ? record.endpoints[s.endpoint].name : "" },
                { "name", s.name }, { "kind", seriesKindName(s.kind) }, { "points", points } });
    }
    nlohmann::json j { { "endpoints", endpoints }, { "series", series } };
    if (!record.metricRegex.empty()) j["metric"] = record.metricRegex;
    return j;
}

Result<ScrapeRecord> scrapeRecordFromJson(const nlohmann::json& json)
{
    if (!json.is_object()) return Error { "scrape: expected an object" };
    ScrapeRecord record;
    record.metricRegex = text(json, "metric");
    auto endpoints = json.find("endpoints");
    if (endpoints == json.end() || !endpoints->is_array()) return Error { "scrape: no \"endpoints\" list" };
    if (endpoints->size() > MAX_SCRAPE_ENDPOINTS)
        return Error { "scrape: more than " + std::to_string(MAX_SCRAPE_ENDPOINTS) + " endpoints" };
    for (const nlohmann::json& e : *endpoints) {
        if (!e.is_object()) return Error { "scrape: an endpoint is not an object" };
        ScrapeEndpointStats stats;
        stats.name = text(e, "name");
        stats.url = text(e, "url");
        stats.scrapes = count(e, "scrapes");
        stats.failures = count(e, "failures");
        if (auto w = e.find("warnings"); w != e.end() && w->is_array())
            for (const nlohmann::json& t : *w)
                if (t.is_string() && stats.warnings.size() < MAX_SCRAPE_WARNINGS)
                    stats.warnings.push_back(t.get<std::string>().substr(0, MAX_TEXT_READ));
        record.endpoints.push_back(std::move(stats));
    }
    auto series = json.find("series");
    if (series == json.end()) return record;
    if (!series->is_array()) return Error { "scrape: \"series\" is not a list" };
    if (series->size() > MAX_SERIES_READ) return Error { "scrape: too many series" };
    size_t points = 0;
    for (const nlohmann::json& s : *series) {
        if (!s.is_object()) return Error { "scrape: a series is not an object" };
        const std::string endpoint = text(s, "endpoint");
        unsigned index = 0;
        while (index < record.endpoints.size() && record.endpoints[index].name != endpoint)
            ++index;
        if (index == record.endpoints.size())
            return Error { "scrape: a series of an unknown endpoint '" + endpoint + "'" };
        auto kind = seriesKindNamed(text(s, "kind"));
        if (!kind) return Error { "scrape: a series of an unknown kind '" + text(s, "kind") + "'" };
        ScrapeSeries out { index, text(s, "name"), *kind, {} };
        auto p = s.find("points");
        if (p == s.end() || !p->is_array()) return Error { "scrape: series '" + out.name + "' has no points list" };
        points += p->size();
        if (points > MAX_POINTS_READ) return Error { "scrape: too many points" };
        for (const nlohmann::json& point : *p) {
            if (!point.is_array() || point.size() != 2 || !point[0].is_number_integer() || !point[1].is_number())
                return Error { "scrape: a point of '" + out.name + "' is not [unix_ms, value]" };
            out.points.push_back({ point[0].get<int64_t>(), point[1].get<double>() });
        }
        record.series.push_back(std::move(out));
    }
    return record;
}

} // namespace wb
