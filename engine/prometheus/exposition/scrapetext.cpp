#include "prometheus/exposition/scrapetext.h"

#include "common/text.h"

#include <algorithm>
#include <cstdio>
#include <limits>

namespace wb {

namespace {

std::string number(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

} // namespace

SeriesSummary summarizeSeries(const ScrapeSeries& series, int64_t fromUnixMs)
{
    SeriesSummary s;
    double sum = 0;
    s.min = std::numeric_limits<double>::infinity();
    s.max = -std::numeric_limits<double>::infinity();
    for (const ScrapePoint& p : series.points) {
        if (p.atUnixMs < fromUnixMs) continue;
        ++s.points;
        sum += p.value;
        s.min = std::min(s.min, p.value);
        s.max = std::max(s.max, p.value);
        s.last = p.value;
    }
    if (s.points == 0) return SeriesSummary {};
    s.mean = sum / static_cast<double>(s.points);
    return s;
}

std::string formatScrapeText(const ScrapeRecord& record)
{
    if (record.empty()) return {};
    std::string out = "Target metrics (min, mean, max and last of each window's value)\n";
    for (unsigned e = 0; e < record.endpoints.size(); ++e) {
        const ScrapeEndpointStats& stats = record.endpoints[e];
        out += "  " + stats.name + " (" + stats.url + "): " + std::to_string(stats.scrapes) + " scrapes";
        if (stats.failures) out += ", " + std::to_string(stats.failures) + " failed";
        out += "\n";
        std::vector<const ScrapeSeries*> series;
        size_t width = 0;
        for (const ScrapeSeries& s : record.series)
            if (s.endpoint == e) {
                series.push_back(&s);
                width = std::max(width, s.label().size());
            }
        width = std::min<size_t>(width, 72);
        if (series.empty()) out += "    (no series: nothing matched, or fewer than two scrapes answered)\n";
        for (const ScrapeSeries* s : series) {
            const SeriesSummary sum = summarizeSeries(*s);
            std::string label = s->label();
            if (label.size() < width) label.append(width - label.size(), ' ');
            out += "    " + label + "  " + number(sum.min) + "  " + number(sum.mean) + "  " + number(sum.max) + "  "
                + number(sum.last) + "\n";
        }
    }
    return out;
}

std::string scrapeCsvHeader()
{
    return "run_id,endpoint,url,series,kind,at_unix_ms,t_s,value\n";
}

std::string scrapeCsvRows(int64_t runId, int64_t measureStartUnixMs, const ScrapeRecord& record)
{
    std::string out;
    char buf[64];
    for (const ScrapeSeries& s : record.series) {
        if (s.endpoint >= record.endpoints.size()) continue;
        const ScrapeEndpointStats& e = record.endpoints[s.endpoint];
        const std::string prefix = std::to_string(runId) + "," + csvField(e.name) + "," + csvField(e.url) + ","
            + csvField(s.name) + "," + seriesKindName(s.kind) + ",";
        for (const ScrapePoint& p : s.points) {
            std::snprintf(
                buf, sizeof buf, "%.3f,%.17g", static_cast<double>(p.atUnixMs - measureStartUnixMs) / 1000.0, p.value);
            out += prefix + std::to_string(p.atUnixMs) + "," + buf + "\n";
        }
    }
    return out;
}

} // namespace wb
