#pragma once
// --metrics-listen ADDR:PORT: serves LiveMetrics on GET /metrics from a thread of its own, never
// on a worker's thread: one poll loop over non-blocking sockets, every connection served side by
// side and bounded in size and time, so no peer that connects and stays silent delays a scrape.
//
//   MetricsServer server(labels);
//   if (auto st = server.listen("127.0.0.1:9464"); !st) { ... }   // before the run
//   run.addObserver(&server.metrics());
//   ... run ...
//   server.lingerUntilScraped(10'000'000);  // the final figures scraped once, or 10 s passed

#include "common/result.h"
#include "prometheus/serve/livemetrics.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace wb {

class MetricsServer
{
public:
    explicit MetricsServer(MetricsLabels labels);
    ~MetricsServer();
    MetricsServer(const MetricsServer&) = delete;
    MetricsServer& operator=(const MetricsServer&) = delete;

    /// Binds ADDR:PORT ("127.0.0.1:9464", "[::1]:9464", "0.0.0.0:9464"; port 0 takes a free one)
    /// and starts serving. The error is one sentence naming the address.
    Status listen(const std::string& address);
    /// The port it listens on (after listen()).
    uint16_t port() const { return m_port; }
    /// The observer to add to the run.
    LiveMetrics& metrics() { return m_metrics; }

    /// After the run: waits until a scrape has read the finished run's figures, or maxUs passed,
    /// so a scraper whose last scrape came before the end still gets the totals. True if scraped.
    bool lingerUntilScraped(uint64_t maxUs);
    /// Scrapes served so far.
    uint64_t scrapes() const { return m_scrapes.load(); }

private:
    struct Peer;
    void serve();
    void accept(std::vector<Peer>& peers);
    void progress(Peer& peer);
    void answer(Peer& peer);

    LiveMetrics m_metrics;
    int m_listenFd = -1;
    int m_wakeFd = -1;
    uint16_t m_port = 0;
    std::thread m_thread;
    std::atomic<uint64_t> m_scrapes { 0 };
    std::mutex m_mutex;
    std::condition_variable m_scrapedFinished;
    bool m_finishedScraped = false;
};

} // namespace wb
