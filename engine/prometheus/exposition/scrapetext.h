#pragma once
// A run's target metrics as text (the CLI's report after wrk's, the experiment report) and as
// CSV (`export --what scrape --csv`): one owner for both, beside the record's JSON.

#include "prometheus/exposition/scraperecord.h"

#include <cstdint>
#include <string>

namespace wb {

/// Min, mean, max and last of one series over the run (points at or after fromUnixMs; 0: all).
struct SeriesSummary
{
    size_t points = 0;
    double min = 0;
    double mean = 0;
    double max = 0;
    double last = 0;
};
SeriesSummary summarizeSeries(const ScrapeSeries& series, int64_t fromUnixMs = 0);

/// "Target metrics" and one block per endpoint: its scrapes and failures, then each series'
/// min, mean, max and last. "" for an empty record.
std::string formatScrapeText(const ScrapeRecord& record);

/// The CSV header of scrapeCsvRows.
std::string scrapeCsvHeader();
/// One row per point: run_id, endpoint, url, series, kind, at_unix_ms, t_s (seconds since
/// measureStartUnixMs; negative before the load), value.
std::string scrapeCsvRows(int64_t runId, int64_t measureStartUnixMs, const ScrapeRecord& record);

} // namespace wb
