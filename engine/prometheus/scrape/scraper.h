#pragma once
// Reads a run's --scrape endpoints: once before the load, at every interval while it runs, once
// after, on a thread of its own (never a worker's), every endpoint at once through libcurl's
// multi interface. A scrape times out within the interval; an endpoint that fails or prints
// something odd is a warning naming it, never a failed run.
//
//   Scraper scraper(spec, { .intervalUs = config.intervalUs });
//   scraper.start();                 // the "before" scrape, then the thread
//   ... the run ...
//   ScrapeRecord record = scraper.finish();   // the "after" scrape; the series
//
// The endpoints' URLs are used as given (the built-in host is resolved by the caller).

#include "prometheus/exposition/derive.h"
#include "prometheus/exposition/scraperecord.h"

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace wb {

class MetricSelection;

/// One endpoint's values of one scrape, as they arrive (the GUI's live view).
struct ScrapeTick
{
    unsigned endpoint = 0;
    int64_t atUnixMs = 0;
    std::vector<DerivedValue> values;
};

struct ScraperOptions
{
    uint64_t intervalUs = 1'000'000; ///< the run's interval
    size_t maxSeriesPerEndpoint = 1000; ///< derived series kept per endpoint (a wide --scrape-metric)
    size_t maxBytes = 16u << 20; ///< of one answer, after decompression
    /// On the scraper's thread (the first scrape: the caller's), after each endpoint's scrape.
    std::function<void(const ScrapeTick&)> onTick;
};

/// What one scrape of an endpoint found: the target editor's check.
struct ScrapeCheck
{
    std::string endpoint;
    std::string error; ///< "" when it answered
    size_t samplesSeen = 0; ///< well-formed samples in the answer
    std::vector<std::string> kept; ///< the names of the series the run would keep (sorted, unique)
    std::vector<std::string> warnings;
};

class Scraper
{
public:
    /// spec must be valid (ScrapeSpec::validate).
    Scraper(ScrapeSpec spec, ScraperOptions options);
    ~Scraper(); ///< stops the thread if finish() was not called
    Scraper(const Scraper&) = delete;
    Scraper& operator=(const Scraper&) = delete;

    /// The "before" scrape on the calling thread (at most a couple of seconds), then the thread.
    /// Returns the warnings of that first scrape (an endpoint that does not answer).
    std::vector<std::string> start();
    /// Stops the thread, makes the "after" scrape and returns everything. Call once.
    ScrapeRecord finish();
    /// A copy of what was derived so far.
    ScrapeRecord snapshot() const;
    /// Warnings not returned yet by start() or takeWarnings() (each names its endpoint).
    std::vector<std::string> takeWarnings();

    /// Reads each endpoint once, keeps nothing: what a run would find there.
    static std::vector<ScrapeCheck> check(const ScrapeSpec& spec, uint64_t timeoutMs = 3000);

    /// The time a scrape may take within an interval.
    static uint64_t timeoutMsFor(uint64_t intervalUs);

private:
    struct Endpoint;
    void scrapeAll(uint64_t timeoutMs);
    void loop();
    void warn(unsigned endpoint, const std::string& text);

    ScrapeSpec m_spec;
    ScraperOptions m_options;
    std::unique_ptr<MetricSelection> m_selection; ///< used by one thread at a time
    std::vector<std::unique_ptr<Endpoint>> m_endpoints;
    mutable std::mutex m_mutex; ///< guards m_record and m_warnings (the GUI reads them while it runs)
    ScrapeRecord m_record;
    std::vector<std::string> m_warnings;
    std::condition_variable m_wake;
    bool m_stopping = false;
    std::thread m_thread;
};

} // namespace wb
