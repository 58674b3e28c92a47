#include "fleet/loaderstream.h"

#include "report/jsonreport.h"

#include <cerrno>
#include <nlohmann/json.hpp>
#include <unistd.h>

namespace wb {

namespace {

using Json = nlohmann::ordered_json;

Json identityJson(const LoaderIdentity& id)
{
    Json j { { "index", id.index }, { "count", id.count }, { "host", id.host }, { "clock", id.clock },
        { "requested_start_unix_us", id.requestedStartUnixUs } };
    j["config"] = id.wholeConfigJson.empty() ? Json::object() : Json::parse(id.wholeConfigJson);
    return j;
}

std::string dump(const Json& j)
{
    return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

} // namespace

std::string formatLoaderDocument(const RunResult& share, const LoaderIdentity& identity)
{
    Json doc = Json::parse(formatJsonReport(share));
    Json loader = identityJson(identity);
    // wrk's Thread Stats pool every thread's 100 ms samples: kept whole so the merged run's
    // Req/Sec row is exactly that of all the loaders' threads together.
    loader["thread_rps_samples"] = share.threadRates.perThreadRequestsPerS;
    doc["loader"] = std::move(loader);
    return doc.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

LoaderStreamWriter::LoaderStreamWriter(int fd, LoaderIdentity identity)
    : m_fd(fd)
    , m_identity(std::move(identity))
{ }

void LoaderStreamWriter::writeLine(const std::string& line)
{
    std::lock_guard lock(m_mutex);
    std::string out = line;
    out += '\n';
    size_t done = 0;
    while (done < out.size()) {
        const ssize_t n = ::write(m_fd, out.data() + done, out.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return; // the coordinator is gone: the run goes on, its result is printed anyway
        done += static_cast<size_t>(n);
    }
}

void LoaderStreamWriter::ready()
{
    writeLine(dump(Json { { "event", "ready" }, { "loader", identityJson(m_identity) } }));
}

void LoaderStreamWriter::onStarted(const RunConfig& share)
{
    m_share = share;
    writeLine(dump(Json { { "event", "started" }, { "loader", m_identity.index },
        { "requested_start_unix_us", m_identity.requestedStartUnixUs } }));
}

void LoaderStreamWriter::onInterval(const IntervalRecord& interval)
{
    // The interval's JSON is written as the report writes it, wrapped without re-parsing.
    writeLine(R"({"event":"interval","loader":)" + std::to_string(m_identity.index) + R"(,"interval":)"
        + formatIntervalJson(interval, m_share) + "}");
}

void LoaderStreamWriter::onFinished(const RunResult& result)
{
    Json line { { "event", "finished" }, { "loader", m_identity.index } };
    line["result"] = Json::parse(formatLoaderDocument(result, m_identity));
    writeLine(dump(line));
}

void LoaderStreamWriter::failed(const std::string& error)
{
    writeLine(dump(Json { { "event", "failed" }, { "loader", m_identity.index }, { "error", error } }));
}

} // namespace wb
