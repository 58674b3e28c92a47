#include "wire/loaderstream.h"

#include "run/runfold.h"
#include "wire/intervalcodec.h"
#include "wire/runendcodec.h"

#include <cerrno>
#include <unistd.h>

namespace wb {

namespace {

uint64_t intervalRequestsOf(const RunResult& result)
{
    uint64_t requests = 0;
    for (const IntervalRecord& i : result.intervals)
        requests += i.requests;
    return requests;
}

} // namespace

WireJson loaderIdentityToJson(const LoaderIdentity& id)
{
    WireJson j { { "index", id.index }, { "count", id.count }, { "host", id.host }, { "clock", id.clock },
        { "requested_start_unix_us", id.requestedStartUnixUs } };
    // Our own configuration text (runConfigToJson), so parsing it back cannot fail.
    j["config"] = id.wholeConfigJson.empty() ? WireJson::object() : parseWireJson(id.wholeConfigJson);
    return j;
}

WireJson loaderSectionJson(const RunResult& share, const LoaderIdentity& identity)
{
    WireJson loader = loaderIdentityToJson(identity);
    loader["end"] = runEndToJson(runEndOf(share), intervalRequestsOf(share));
    return loader;
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
    writeLine(dumpWireJson(WireJson { { "event", "ready" }, { "loader", loaderIdentityToJson(m_identity) } }));
}

void LoaderStreamWriter::onStarted(const RunConfig& share)
{
    m_share = share;
    writeLine(dumpWireJson(WireJson { { "event", "started" }, { "loader", m_identity.index },
        { "requested_start_unix_us", m_identity.requestedStartUnixUs } }));
}

void LoaderStreamWriter::onInterval(const IntervalRecord& interval)
{
    // The interval's JSON is written as the codec writes it, wrapped without re-parsing.
    writeLine(R"({"event":"interval","loader":)" + std::to_string(m_identity.index) + R"(,"interval":)"
        + formatIntervalJson(interval, m_share) + "}");
}

void LoaderStreamWriter::onFinished(const RunResult& result)
{
    writeLine(dumpWireJson(WireJson { { "event", "finished" }, { "loader", m_identity.index },
        { "end", runEndToJson(runEndOf(result), intervalRequestsOf(result)) } }));
}

void LoaderStreamWriter::failed(const std::string& error)
{
    writeLine(dumpWireJson(WireJson { { "event", "failed" }, { "loader", m_identity.index }, { "error", error } }));
}

} // namespace wb
