#include "fleet/loaderread.h"

#include "stats/hdrcodec.h"

#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace wb {

namespace {

using Json = nlohmann::json;

// The largest loader file read: a day-long run's document with every interval's histograms.
constexpr std::streamoff MAX_LOADER_FILE_BYTES = 512LL * 1024 * 1024;

struct Bad
{
    std::string what;
};

const Json& member(const Json& j, const char* key)
{
    if (!j.is_object() || !j.contains(key)) throw Bad { fmt::format("'{}' is missing", key) };
    return j.at(key);
}

uint64_t count(const Json& j, const char* key)
{
    const Json& v = member(j, key);
    if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<int64_t>() >= 0))
        throw Bad { fmt::format("'{}' must be a whole number", key) };
    return v.get<uint64_t>();
}

uint64_t countOr(const Json& j, const char* key, uint64_t otherwise)
{
    return j.is_object() && j.contains(key) ? count(j, key) : otherwise;
}

double number(const Json& j, const char* key, double otherwise = 0)
{
    if (!j.is_object() || !j.contains(key) || j.at(key).is_null()) return otherwise;
    if (!j.at(key).is_number()) throw Bad { fmt::format("'{}' must be a number", key) };
    return j.at(key).get<double>();
}

std::string text(const Json& j, const char* key)
{
    if (!j.is_object() || !j.contains(key) || j.at(key).is_null()) return {};
    if (!j.at(key).is_string()) throw Bad { fmt::format("'{}' must be a string", key) };
    return j.at(key).get<std::string>();
}

// One histogram of "histograms", with its exact totals from "histogram_totals".
LatencyHistogram histogram(const Json& holder, const char* key)
{
    if (!holder.contains("histograms")) throw Bad { "'histograms' is missing (a loader of an older wrkbench?)" };
    const Json& all = holder.at("histograms");
    if (!all.is_object() || !all.contains(key)) return {};
    if (!all.at(key).is_string()) throw Bad { fmt::format("histograms.{} must be a string", key) };
    auto h = decodeHdrBase64(all.at(key).get<std::string>());
    if (!h) throw Bad { fmt::format("histograms.{}: {}", key, h.error()) };
    const Json totals = holder.contains("histogram_totals") ? holder.at("histogram_totals") : Json::object();
    if (totals.is_object() && totals.contains(key)) {
        const Json& t = totals.at(key);
        if (count(t, "count") != h->count())
            throw Bad { fmt::format(
                "histogram_totals.{}.count is {} but the histogram holds {}", key, count(t, "count"), h->count()) };
        if (!h->setExactTotals(count(t, "min_us"), count(t, "max_us"), count(t, "sum_us")))
            throw Bad { fmt::format("histogram_totals.{} does not fit its histogram", key) };
    }
    return std::move(*h);
}

ErrorCounts errorsOf(const Json& j)
{
    ErrorCounts e;
    e.connect = count(j, "connect");
    e.read = count(j, "read");
    e.write = count(j, "write");
    e.timeout = count(j, "timeout");
    e.tls = count(j, "tls");
    e.parse = count(j, "parse");
    e.stream = countOr(j, "stream", 0);
    e.status = count(j, "status");
    return e;
}

StatusCounts statusOf(const Json& j)
{
    if (!j.is_object()) throw Bad { "'status_codes' must be an object" };
    StatusCounts s;
    for (const auto& [code, n] : j.items()) {
        int c = 0;
        try {
            c = std::stoi(code);
        } catch (...) {
            throw Bad { fmt::format("status code '{}' is not a number", code) };
        }
        if (c < 0 || c > StatusCounts::MAX_CODE) throw Bad { fmt::format("status code {} is out of range", c) };
        if (!n.is_number_unsigned() && !n.is_number_integer()) throw Bad { "a status count must be a number" };
        s.byCode[static_cast<size_t>(c)] += n.get<uint64_t>();
    }
    return s;
}

// Everything the merge needs from one interval of the --json format (histograms kept compact).
LoaderInterval intervalOf(const Json& j)
{
    IntervalSnapshot s;
    s.startS = number(j, "start_s");
    s.endS = number(j, "t_s");
    if (!(s.endS >= s.startS)) throw Bad { "an interval ends before it starts" };
    s.requests = count(j, "requests");
    s.bytes = count(j, "bytes");
    s.errors = errorsOf(member(j, "errors_by_kind"));
    s.status = statusOf(member(j, "status_codes"));
    s.connections = static_cast<uint32_t>(countOr(j, "connections", 0));
    s.targetRatePerS = number(j, "target_rps");
    s.lateRequests = countOr(j, "late_requests", 0);
    s.maxLagUs = countOr(j, "max_lag_us", 0);
    s.latency = histogram(j, "latency");
    s.serviceLatency = histogram(j, "service");
    s.sendLag = histogram(j, "send_lag");
    s.connectTime = histogram(j, "connect");
    s.tlsHandshake = histogram(j, "tls_handshake");
    s.firstByte = histogram(j, "ttfb");
    if (s.latency.count() > s.requests)
        throw Bad { fmt::format("an interval holds {} latencies for {} requests", s.latency.count(), s.requests) };
    return IntervalRecord::of(s, static_cast<int64_t>(number(j, "start_unix_ms")));
}

LoaderIdentity identityOf(const Json& j)
{
    LoaderIdentity id;
    id.index = static_cast<unsigned>(count(j, "index"));
    id.count = static_cast<unsigned>(count(j, "count"));
    if (id.count == 0 || id.index >= id.count)
        throw Bad { fmt::format("loader {} of {} is out of range", id.index, id.count) };
    id.host = text(j, "host");
    id.clock = text(j, "clock");
    id.requestedStartUnixUs = static_cast<int64_t>(number(j, "requested_start_unix_us"));
    const Json& config = member(j, "config");
    if (!config.is_object()) throw Bad { "'loader.config' must be an object" };
    id.wholeConfigJson = config.dump();
    return id;
}

// The final document: its intervals and what its summary adds to them.
LoaderDocument documentOf(const Json& doc)
{
    if (!doc.is_object() || text(doc, "tool") != "wrkbench") throw Bad { "this is not a wrkbench --json result" };
    if (!doc.contains("loader"))
        throw Bad { "this result is not a loader's: run each loader with --shard I/N (and --start-at)" };
    LoaderDocument d;
    d.identity = identityOf(doc.at("loader"));
    const Json& intervals = member(doc, "intervals");
    if (!intervals.is_array()) throw Bad { "'intervals' must be an array" };
    for (const Json& i : intervals)
        d.intervals.push_back(intervalOf(i));
    const Json& summary = member(doc, "summary");
    LoaderFinal& f = d.final;
    f.durationS = number(summary, "duration_s");
    f.targetRatePerS = number(summary, "requested_rps");
    f.measureStartUnixMs = static_cast<int64_t>(number(summary, "start_unix_ms"));
    f.stoppedEarly = summary.contains("stopped_early") && summary.at("stopped_early").is_boolean()
        && summary.at("stopped_early").get<bool>();
    f.protocol = text(doc, "protocol");
    f.engineVersion = text(doc, "version");
    f.reconnects = countOr(summary, "reconnects", 0);
    f.serverStreamLimit = static_cast<uint32_t>(countOr(summary, "server_stream_limit", 0));
    f.firstTlsError = text(doc, "first_tls_error");
    f.firstConnectError = text(doc, "first_connect_error");
    const Json& samples
        = doc.at("loader").contains("thread_rps_samples") ? doc.at("loader").at("thread_rps_samples") : Json::array();
    if (!samples.is_array()) throw Bad { "'loader.thread_rps_samples' must be an array" };
    for (const Json& v : samples) {
        if (!v.is_number()) throw Bad { "a thread Req/Sec sample must be a number" };
        f.threadRates.perThreadRequestsPerS.push_back(v.get<double>());
    }
    // Exactness check: the intervals must add up to the summary the loader printed.
    uint64_t requests = 0;
    for (const LoaderInterval& i : d.intervals)
        requests += i.requests;
    if (requests != count(summary, "requests"))
        throw Bad { fmt::format(
            "its intervals hold {} requests but its summary says {}", requests, count(summary, "requests")) };
    d.complete = true;
    return d;
}

template<typename F> auto guarded(F&& f, const std::string& where) -> Result<decltype(f())>
{
    try {
        return f();
    } catch (const Bad& bad) {
        return Error { where + bad.what };
    } catch (const Json::exception& e) {
        return Error { where + "malformed JSON (" + std::string(e.what()) + ")" };
    } catch (const std::exception& e) {
        return Error { where + e.what() };
    }
}

} // namespace

Result<LoaderEvent> parseLoaderLine(std::string_view line)
{
    while (!line.empty() && (line.back() == '\r' || line.back() == '\n' || line.back() == ' '))
        line.remove_suffix(1);
    LoaderEvent event;
    if (line.empty() || line.front() != '{') {
        event.text = std::string(line);
        return event;
    }
    return guarded(
        [&] {
            const Json j = Json::parse(line);
            const std::string kind = text(j, "event");
            if (kind.empty()) {
                event.text = std::string(line);
                return event;
            }
            if (kind == "ready") {
                event.kind = LoaderEvent::Kind::Ready;
                event.identity = identityOf(member(j, "loader"));
                event.loader = event.identity.index;
                return event;
            }
            event.loader = static_cast<unsigned>(count(j, "loader"));
            if (kind == "started") {
                event.kind = LoaderEvent::Kind::Started;
                event.identity.requestedStartUnixUs = static_cast<int64_t>(number(j, "requested_start_unix_us"));
            } else if (kind == "interval") {
                event.kind = LoaderEvent::Kind::Interval;
                event.interval = intervalOf(member(j, "interval"));
            } else if (kind == "finished") {
                event.kind = LoaderEvent::Kind::Finished;
                event.final = documentOf(member(j, "result")).final;
            } else if (kind == "failed") {
                event.kind = LoaderEvent::Kind::Failed;
                event.text = text(j, "error");
            } else {
                throw Bad { fmt::format("unknown event '{}'", kind) };
            }
            return event;
        },
        "loader stream: ");
}

Result<LoaderDocument> parseLoaderDocument(std::string_view content, const std::string& source)
{
    const std::string where = source + ": ";
    // A --json document starts with '{' and spans lines; a stream has one event per line.
    size_t first = content.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) return Error { where + "the file is empty" };
    const size_t eol = content.find('\n', first);
    const std::string_view firstLine
        = content.substr(first, eol == std::string_view::npos ? content.size() - first : eol - first);
    if (firstLine.find("\"event\"") == std::string_view::npos)
        return guarded([&] { return documentOf(Json::parse(content)); }, where);

    LoaderDocument d;
    bool started = false;
    size_t lineNo = 0;
    for (size_t at = 0; at < content.size();) {
        const size_t end = std::min(content.find('\n', at), content.size());
        const std::string_view line = content.substr(at, end - at);
        at = end + 1;
        ++lineNo;
        auto event = parseLoaderLine(line);
        if (!event) return Error { fmt::format("{}line {}: {}", where, lineNo, event.error()) };
        switch (event->kind) {
        case LoaderEvent::Kind::Ready:
            d.identity = event->identity;
            started = true;
            break;
        case LoaderEvent::Kind::Started:
            d.identity.requestedStartUnixUs = event->identity.requestedStartUnixUs;
            break;
        case LoaderEvent::Kind::Interval:
            d.intervals.push_back(event->interval);
            break;
        case LoaderEvent::Kind::Finished:
            d.final = event->final;
            d.complete = true;
            break;
        case LoaderEvent::Kind::Failed:
            d.failure = event->text;
            break;
        case LoaderEvent::Kind::Text:
            break;
        }
    }
    if (!started) return Error { where + "the stream has no 'ready' line (who the loader is)" };
    return d;
}

Result<LoaderDocument> readLoaderFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error { "cannot read '" + path + "'" };
    in.seekg(0, std::ios::end);
    const std::streamoff size = in.tellg();
    if (size > MAX_LOADER_FILE_BYTES)
        return Error { fmt::format(
            "'{}' is {} MB; a loader's result is at most {} MB", path, size >> 20, MAX_LOADER_FILE_BYTES >> 20) };
    in.seekg(0);
    std::ostringstream content;
    content << in.rdbuf();
    return parseLoaderDocument(content.str(), "'" + path + "'");
}

} // namespace wb
