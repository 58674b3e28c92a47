// A run's target metrics (--scrape): the endpoints it read and the derived series' points
// (schema version 14). Written once when the run ends (SessionRecorder), read by the reports,
// export and the GUI.

#include "common/jsontext.h"
#include "prometheus/exposition/scraperecord.h"
#include "store/sessionstore.h"
#include "store/sqldatabase.h"

#include <cstdint>
#include <nlohmann/json.hpp>

namespace wb {

Status RunRepository::saveScrape(int64_t runId, const ScrapeRecord& record)
{
    if (record.empty()) return {};
    return m_store.transaction([&]() -> Status {
        SqlStatement& exists = m_store.m_db->prepare("SELECT 1 FROM runs WHERE id = ?");
        exists.bind(runId);
        if (!exists.step()) return Error { "no run with id " + std::to_string(runId) };
        exists.reset();
        // Written whole: a second save replaces the first.
        m_store.m_db->prepare("DELETE FROM scrape_samples WHERE run_id = ?").bind(runId).run();
        m_store.m_db->prepare("DELETE FROM scrape_endpoints WHERE run_id = ?").bind(runId).run();
        SqlStatement& e
            = m_store.m_db->prepare("INSERT INTO scrape_endpoints (run_id, idx, name, url, scrapes, failures, "
                                    "warnings, metric) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
        for (size_t i = 0; i < record.endpoints.size(); ++i) {
            const ScrapeEndpointStats& s = record.endpoints[i];
            e.reset();
            e.bind(runId)
                .bind(static_cast<int64_t>(i))
                .bind(s.name)
                .bind(s.url)
                .bind(s.scrapes)
                .bind(s.failures)
                .bind(jsonText(nlohmann::json(s.warnings)))
                .bind(record.metricRegex);
            e.run();
        }
        SqlStatement& p = m_store.m_db->prepare(
            "INSERT INTO scrape_samples (run_id, endpoint, series, kind, at_unix_ms, value) VALUES (?, ?, ?, ?, ?, ?)");
        for (const ScrapeSeries& s : record.series) {
            for (const ScrapePoint& point : s.points) {
                p.reset();
                p.bind(runId)
                    .bind(s.endpoint)
                    .bind(s.name)
                    .bind(seriesKindName(s.kind))
                    .bind(point.atUnixMs)
                    .bind(point.value);
                p.run();
            }
        }
        return {};
    });
}

Result<ScrapeRecord> RunRepository::scrapeOf(int64_t runId)
{
    ScrapeRecord record;
    const Status st = m_store.guarded([&] {
        SqlStatement& e
            = m_store.m_db->prepare("SELECT name, url, scrapes, failures, warnings, metric FROM scrape_endpoints "
                                    "WHERE run_id = ? ORDER BY idx");
        e.bind(runId);
        while (e.step()) {
            ScrapeEndpointStats s;
            s.name = e.text(0);
            s.url = e.text(1);
            s.scrapes = static_cast<unsigned>(e.int64(2));
            s.failures = static_cast<unsigned>(e.int64(3));
            const auto warnings = parseJsonTextOrDiscarded<nlohmann::json>(e.text(4));
            if (warnings.is_array())
                for (const nlohmann::json& w : warnings)
                    if (w.is_string()) s.warnings.push_back(w.get<std::string>());
            record.metricRegex = e.text(5);
            record.endpoints.push_back(std::move(s));
        }
        SqlStatement& p = m_store.m_db->prepare("SELECT endpoint, series, kind, at_unix_ms, value FROM scrape_samples "
                                                "WHERE run_id = ? ORDER BY rowid");
        p.bind(runId);
        while (p.step()) {
            const auto kind = seriesKindNamed(p.text(2));
            const auto endpoint = static_cast<unsigned>(p.int64(0));
            if (!kind || endpoint >= record.endpoints.size()) continue; // not ours (the CHECK keeps kinds known)
            record.addPoint(endpoint, p.text(1), *kind, { p.int64(3), p.real(4) }, SIZE_MAX);
        }
    });
    if (!st) return Error { st.error() };
    return record;
}

} // namespace wb
