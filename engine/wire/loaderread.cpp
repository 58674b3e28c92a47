#include "wire/loaderread.h"

#include "wire/configcodec.h"
#include "wire/intervalcodec.h"
#include "wire/runendcodec.h"

#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <sstream>

namespace wb {

namespace {

using Json = WireJson;

// The largest loader file read: a day-long run's document with every interval's histograms.
constexpr std::streamoff MAX_LOADER_FILE_BYTES = 512LL * 1024 * 1024;

LoaderIdentity identityOf(const Json& j)
{
    LoaderIdentity id;
    id.index = static_cast<unsigned>(wireCount(j, "index"));
    id.count = static_cast<unsigned>(wireCount(j, "count"));
    if (id.count == 0 || id.index >= id.count)
        throw WireError { fmt::format("loader {} of {} is out of range", id.index, id.count) };
    id.host = wireText(j, "host");
    id.clock = wireText(j, "clock");
    id.requestedStartUnixUs = wireInt(j, "requested_start_unix_us");
    const Json& config = wireMember(j, "config");
    if (!config.is_object()) throw WireError { "'loader.config' must be an object" };
    // Read and written again: what the merge compares is the configuration as this build reads it.
    auto whole = runConfigFromJson(dumpWireJson(config));
    if (!whole) throw WireError { "'loader.config': " + whole.error() };
    id.wholeConfigJson = runConfigToJson(*whole);
    return id;
}

// A loader's --json document: the report's intervals (the interval codec wrote them) and the
// loader section's end record.
LoaderDocument documentOf(const Json& doc)
{
    if (!doc.is_object() || wireText(doc, "tool") != "wrkbench")
        throw WireError { "this is not a wrkbench --json result" };
    if (!doc.contains("loader"))
        throw WireError { "this result is not a loader's: run each loader with --shard I/N (and --start-at)" };
    const Json& loader = doc.at("loader");
    if (!loader.contains("end")) throw WireError { "'loader.end' is missing (a loader of an older wrkbench?)" };
    LoaderDocument d;
    d.identity = identityOf(loader);
    const Json& intervals = wireMember(doc, "intervals");
    if (!intervals.is_array()) throw WireError { "'intervals' must be an array" };
    for (const Json& i : intervals)
        d.intervals.push_back(intervalFromJson(i));
    uint64_t said = 0;
    d.end = runEndFromJson(loader.at("end"), &said);
    // Exactness check: the intervals must add up to what the loader said they hold.
    uint64_t requests = 0;
    for (const IntervalRecord& i : d.intervals)
        requests += i.requests;
    if (said != UINT64_MAX && requests != said)
        throw WireError { fmt::format("its intervals hold {} requests but its end says {}", requests, said) };
    d.complete = true;
    return d;
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
    return wireGuarded(
        [&] {
            const Json j = parseWireJson(line);
            const std::string kind = wireText(j, "event");
            if (kind.empty()) {
                event.text = std::string(line);
                return event;
            }
            if (kind == "ready") {
                event.kind = LoaderEvent::Kind::Ready;
                event.identity = identityOf(wireMember(j, "loader"));
                event.loader = event.identity.index;
                return event;
            }
            event.loader = static_cast<unsigned>(wireCount(j, "loader"));
            if (kind == "started") {
                event.kind = LoaderEvent::Kind::Started;
                event.identity.requestedStartUnixUs = wireInt(j, "requested_start_unix_us");
            } else if (kind == "interval") {
                event.kind = LoaderEvent::Kind::Interval;
                event.interval = intervalFromJson(wireMember(j, "interval"));
            } else if (kind == "finished") {
                event.kind = LoaderEvent::Kind::Finished;
                if (!j.contains("end")) throw WireError { "'end' is missing (a loader of an older wrkbench?)" };
                event.end = runEndFromJson(j.at("end"), &event.intervalRequests);
            } else if (kind == "failed") {
                event.kind = LoaderEvent::Kind::Failed;
                event.text = wireText(j, "error");
            } else {
                throw WireError { fmt::format("unknown event '{}'", kind) };
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
        return wireGuarded([&] { return documentOf(parseWireJson(content)); }, where);

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
            d.end = std::move(event->end);
            d.complete = true;
            if (event->intervalRequests != UINT64_MAX) {
                uint64_t requests = 0;
                for (const IntervalRecord& i : d.intervals)
                    requests += i.requests;
                if (requests != event->intervalRequests)
                    return Error { fmt::format("{}line {}: the stream's intervals hold {} requests but its end says {}",
                        where, lineNo, requests, event->intervalRequests) };
            }
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
