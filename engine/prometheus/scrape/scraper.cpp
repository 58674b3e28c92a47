#include "prometheus/scrape/scraper.h"

#include "prometheus/exposition/presets.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <curl/curl.h>
#include <mutex>
#include <optional>
#include <set>
#include <utility>

namespace wb {

namespace {

int64_t unixNowMs()
{
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

void initCurl()
{
    // curl_global_init is not thread-safe in every libcurl; every user here goes through this.
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

// Both formats, the text format first: every exporter prints it, and its counters are named as
// users know them from PromQL (OpenMetrics is read as well: `# EOF`, _total, _created).
constexpr const char* ACCEPT = "Accept: text/plain;version=0.0.4;q=1,application/openmetrics-text;version=1.0.0;q=0.9,"
                               "*/*;q=0.1";

struct Fetch
{
    std::string body;
    std::string error; ///< "" when the endpoint answered 200 with at most maxBytes
    int64_t atUnixMs = 0; ///< when the answer began: closest to the moment the endpoint read its counters
    size_t maxBytes = 0;
    bool tooLarge = false;
};

size_t onBody(char* data, size_t size, size_t count, void* user)
{
    auto* f = static_cast<Fetch*>(user);
    const size_t n = size * count;
    if (f->body.size() + n > f->maxBytes) {
        f->tooLarge = true;
        return 0; // aborts the transfer
    }
    f->body.append(data, n);
    return n;
}

/// Fetches every URL at once; each ends within timeoutMs.
std::vector<Fetch> fetchAll(const std::vector<std::string>& urls, uint64_t timeoutMs, size_t maxBytes)
{
    initCurl();
    std::vector<Fetch> out(urls.size());
    std::unique_ptr<CURLM, decltype(&curl_multi_cleanup)> multi { curl_multi_init(), curl_multi_cleanup };
    std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> headers { curl_slist_append(nullptr, ACCEPT),
        curl_slist_free_all };
    std::vector<std::unique_ptr<CURL, decltype(&curl_easy_cleanup)>> easies;
    std::vector<int64_t> startedMs(urls.size(), 0);
    for (size_t i = 0; i < urls.size(); ++i) {
        out[i].maxBytes = maxBytes;
        CURL* e = curl_easy_init();
        easies.emplace_back(e, curl_easy_cleanup);
        if (!multi || !e) {
            out[i].error = "could not start a transfer";
            continue;
        }
        curl_easy_setopt(e, CURLOPT_URL, urls[i].c_str());
        curl_easy_setopt(e, CURLOPT_HTTPHEADER, headers.get());
        curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, ""); // gzip when offered: Envoy's and node_exporter's are large
        curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, static_cast<long>(timeoutMs));
        curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(timeoutMs));
        curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, onBody);
        curl_easy_setopt(e, CURLOPT_WRITEDATA, &out[i]);
        curl_easy_setopt(e, CURLOPT_PRIVATE, reinterpret_cast<char*>(static_cast<uintptr_t>(i)));
        curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
        curl_easy_setopt(e, CURLOPT_USERAGENT, "wrkbench-scrape");
        startedMs[i] = unixNowMs();
        curl_multi_add_handle(multi.get(), e);
    }
    int running = 0;
    do {
        if (curl_multi_perform(multi.get(), &running) != CURLM_OK) break;
        if (running) curl_multi_poll(multi.get(), nullptr, 0, 100, nullptr);
    } while (running);
    int left = 0;
    while (CURLMsg* msg = curl_multi_info_read(multi.get(), &left)) {
        if (msg->msg != CURLMSG_DONE) continue;
        char* privateData = nullptr;
        curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, &privateData);
        const size_t i = static_cast<size_t>(reinterpret_cast<uintptr_t>(privateData));
        if (i >= out.size()) continue;
        Fetch& f = out[i];
        curl_off_t firstByteUs = 0;
        curl_easy_getinfo(msg->easy_handle, CURLINFO_STARTTRANSFER_TIME_T, &firstByteUs);
        f.atUnixMs = startedMs[i] + firstByteUs / 1000;
        long status = 0;
        curl_easy_getinfo(msg->easy_handle, CURLINFO_RESPONSE_CODE, &status);
        if (f.tooLarge)
            f.error = "the answer is larger than " + std::to_string(maxBytes >> 20) + " MB";
        else if (msg->data.result == CURLE_OPERATION_TIMEDOUT)
            f.error = "no answer within " + std::to_string(timeoutMs) + " ms";
        else if (msg->data.result != CURLE_OK)
            f.error = curl_easy_strerror(msg->data.result);
        else if (status != 200)
            f.error = "HTTP status " + std::to_string(status);
        if (!f.error.empty()) f.body.clear();
    }
    for (auto& e : easies)
        if (e && multi) curl_multi_remove_handle(multi.get(), e.get());
    for (Fetch& f : out)
        if (f.error.empty() && f.atUnixMs == 0) f.error = "the transfer did not finish";
    return out;
}

ExpositionLimits limitsFor(size_t maxBytes)
{
    ExpositionLimits limits;
    limits.maxBytes = maxBytes;
    return limits;
}

} // namespace

struct Scraper::Endpoint
{
    std::optional<ScrapeSnapshot> previous; ///< the last scrape that answered
    std::set<std::string> warned; ///< warnings already said (the same bad line every interval is said once)
    bool warnedSeriesCap = false;
};

Scraper::Scraper(ScrapeSpec spec, ScraperOptions options)
    : m_spec(std::move(spec))
    , m_options(std::move(options))
    , m_selection(std::make_unique<MetricSelection>(m_spec.metricRegex))
{
    m_record.metricRegex = m_spec.metricRegex;
    for (const ScrapeEndpoint& e : m_spec.endpoints) {
        m_record.endpoints.push_back({ e.name, e.url, 0, 0, {} });
        m_endpoints.push_back(std::make_unique<Endpoint>());
    }
}

Scraper::~Scraper()
{
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_all();
    if (m_thread.joinable()) m_thread.join();
}

uint64_t Scraper::timeoutMsFor(uint64_t intervalUs)
{
    // Within the interval, with room for the derivation; never below what a loopback answer
    // needs, never above what a person waits for.
    return std::clamp<uint64_t>(intervalUs * 8 / 10 / 1000, 50, 10'000);
}

void Scraper::warn(unsigned endpoint, const std::string& text)
{
    Endpoint& e = *m_endpoints[endpoint];
    if (!e.warned.insert(text).second) return;
    const std::string line = "scrape '" + m_spec.endpoints[endpoint].name + "': " + text;
    std::lock_guard lock(m_mutex);
    ScrapeEndpointStats& stats = m_record.endpoints[endpoint];
    if (stats.warnings.size() < MAX_SCRAPE_WARNINGS) {
        stats.warnings.push_back(line);
        m_warnings.push_back(line);
    }
}

void Scraper::scrapeAll(uint64_t timeoutMs)
{
    std::vector<std::string> urls;
    for (const ScrapeEndpoint& e : m_spec.endpoints)
        urls.push_back(e.url);
    std::vector<Fetch> fetched = fetchAll(urls, timeoutMs, m_options.maxBytes);
    const MetricSelection& select = *m_selection;
    for (unsigned i = 0; i < fetched.size(); ++i) {
        Fetch& f = fetched[i];
        Endpoint& endpoint = *m_endpoints[i];
        {
            std::lock_guard lock(m_mutex);
            ++m_record.endpoints[i].scrapes;
            if (!f.error.empty()) ++m_record.endpoints[i].failures;
        }
        if (!f.error.empty()) {
            warn(i, f.error);
            continue;
        }
        Exposition parsed = parseExposition(
            f.body, [&select](std::string_view family, std::string_view name) { return select.keeps(family, name); },
            limitsFor(m_options.maxBytes));
        for (const std::string& w : parsed.warnings)
            warn(i, w);
        // An answer in the same millisecond as the last one (the scrape after the run can follow the
        // last interval's at once) is the same reading at the points' resolution: it adds no second
        // point at one time and no window of zero length; the next window starts from the last one.
        if (endpoint.previous && f.atUnixMs <= endpoint.previous->atUnixMs) continue;
        ScrapeSnapshot now = ScrapeSnapshot::of(f.atUnixMs, std::move(parsed));
        ScrapeTick tick { i, f.atUnixMs, select.derive(endpoint.previous ? &*endpoint.previous : nullptr, now) };
        bool capped = false;
        {
            std::lock_guard lock(m_mutex);
            for (const DerivedValue& v : tick.values)
                capped = !m_record.addPoint(i, v.name, v.kind, { f.atUnixMs, v.value }, m_options.maxSeriesPerEndpoint)
                    || capped;
        }
        if (capped && !endpoint.warnedSeriesCap) {
            endpoint.warnedSeriesCap = true;
            warn(i,
                "more than " + std::to_string(m_options.maxSeriesPerEndpoint)
                    + " series; the rest are not kept (narrow --scrape-metric)");
        }
        endpoint.previous = std::move(now);
        if (m_options.onTick) m_options.onTick(tick);
    }
}

std::vector<std::string> Scraper::start()
{
    if (m_spec.endpoints.empty()) return {};
    // The first scrape may meet a cold endpoint (a new connection, a first collection): give it
    // more than an interval's share.
    scrapeAll(std::max<uint64_t>(timeoutMsFor(m_options.intervalUs), 2000));
    m_thread = std::thread([this] { loop(); });
    return takeWarnings();
}

void Scraper::loop()
{
    using Clock = std::chrono::steady_clock;
    const auto interval = std::chrono::microseconds(std::max<uint64_t>(m_options.intervalUs, 100'000));
    auto next = Clock::now() + interval;
    std::unique_lock lock(m_mutex);
    for (;;) {
        if (m_wake.wait_until(lock, next, [this] { return m_stopping; })) return;
        lock.unlock();
        scrapeAll(timeoutMsFor(m_options.intervalUs));
        lock.lock();
        next += interval;
        // A scrape longer than an interval (a slow endpoint) skips the ticks it overran rather than
        // scraping back to back.
        if (const auto now = Clock::now(); next <= now) next = now + interval;
    }
}

ScrapeRecord Scraper::finish()
{
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_all();
    if (m_thread.joinable()) m_thread.join();
    if (!m_spec.endpoints.empty()) scrapeAll(std::max<uint64_t>(timeoutMsFor(m_options.intervalUs), 2000));
    std::lock_guard lock(m_mutex);
    return m_record;
}

ScrapeRecord Scraper::snapshot() const
{
    std::lock_guard lock(m_mutex);
    return m_record;
}

std::vector<std::string> Scraper::takeWarnings()
{
    std::lock_guard lock(m_mutex);
    return std::exchange(m_warnings, {});
}

std::vector<ScrapeCheck> Scraper::check(const ScrapeSpec& spec, uint64_t timeoutMs)
{
    if (auto st = spec.validate(); !st) return { ScrapeCheck { "", st.error(), 0, {}, {} } };
    std::vector<std::string> urls;
    for (const ScrapeEndpoint& e : spec.endpoints)
        urls.push_back(e.url);
    const std::vector<Fetch> fetched = fetchAll(urls, timeoutMs, ScraperOptions {}.maxBytes);
    MetricSelection select(spec.metricRegex);
    std::vector<ScrapeCheck> out;
    for (size_t i = 0; i < fetched.size(); ++i) {
        ScrapeCheck c;
        c.endpoint = spec.endpoints[i].name;
        c.error = fetched[i].error;
        if (c.error.empty()) {
            Exposition parsed = parseExposition(fetched[i].body,
                [&select](std::string_view family, std::string_view name) { return select.keeps(family, name); });
            c.samplesSeen = parsed.samplesSeen;
            c.warnings = parsed.warnings;
            std::set<std::string> names;
            for (const MetricSample& s : parsed.samples) {
                if (select.shows(s)) names.insert(s.family);
                if (const char* preset = select.presetOf(s)) names.insert(std::string("preset ") + preset);
            }
            c.kept.assign(names.begin(), names.end());
        }
        out.push_back(std::move(c));
    }
    return out;
}

} // namespace wb
