#include "agent/agentserver.h"

#include "agent/agenthttp.h"
#include "agent/tlschannel.h"
#include "common/clock.h"
#include "fleet/controlfiles.h"
#include "probe/probe.h"
#include "run/clocknote.h"
#include "run/runcontroller.h"
#include "wire/configcodec.h"

#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <fmt/format.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <nlohmann/json.hpp>
#include <poll.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

namespace wb {

namespace {

using Json = nlohmann::json;

std::string isoNow()
{
    const std::time_t now = std::time(nullptr);
    std::tm tm {};
    ::gmtime_r(&now, &tm);
    char out[32];
    std::strftime(out, sizeof out, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return out;
}

std::string peerText(const sockaddr_storage& addr)
{
    char host[INET6_ADDRSTRLEN] = "?";
    uint16_t port = 0;
    if (addr.ss_family == AF_INET) {
        const auto* sin = reinterpret_cast<const sockaddr_in*>(&addr);
        ::inet_ntop(AF_INET, &sin->sin_addr, host, sizeof host);
        port = ntohs(sin->sin_port);
        return fmt::format("{}:{}", host, port);
    }
    const auto* sin6 = reinterpret_cast<const sockaddr_in6*>(&addr);
    ::inet_ntop(AF_INET6, &sin6->sin6_addr, host, sizeof host);
    return fmt::format("[{}]:{}", host, ntohs(sin6->sin6_port));
}

/// Splits "ADDR:PORT" / "[v6]:PORT".
Result<std::pair<std::string, uint16_t>> splitListen(const std::string& text)
{
    const size_t colon = text.rfind(':');
    if (colon == std::string::npos) return Error { fmt::format("--listen '{}' must be ADDR:PORT", text) };
    std::string host = text.substr(0, colon);
    if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
    const std::string portText = text.substr(colon + 1);
    char* end = nullptr;
    const unsigned long port = std::strtoul(portText.c_str(), &end, 10);
    if (portText.empty() || *end != '\0' || port > 65535)
        return Error { fmt::format("--listen '{}': '{}' is not a port", text, portText) };
    return std::pair { host, static_cast<uint16_t>(port) };
}

AgentServer::Answer answer(int status, const std::string& body = {})
{
    return AgentServer::Answer { agentResponse(status, body), status, {}, 0 };
}

AgentServer::Answer refuse(int status, const std::string& error)
{
    return answer(status, agentErrorBody(error));
}

/// "/v1/runs/ID/what" -> {ID, what}; what is "" for "/v1/runs/ID".
std::optional<std::pair<std::string, std::string>> runPath(const std::string& path)
{
    const std::string prefix = "/v1/runs/";
    if (path.compare(0, prefix.size(), prefix) != 0) return std::nullopt;
    const std::string rest = path.substr(prefix.size());
    const size_t slash = rest.find('/');
    std::string id = rest.substr(0, slash);
    std::string what = slash == std::string::npos ? std::string() : rest.substr(slash + 1);
    if (id.empty() || id.size() > 64) return std::nullopt;
    return std::pair { id, what };
}

/// The common start as the control file takes it, from {"start_at_unix_us": N}.
Result<std::string> startAtText(const std::string& body)
{
    try {
        const Json j = Json::parse(body);
        const int64_t us = j.at("start_at_unix_us").get<int64_t>();
        if (us <= 0) return Error { "start_at_unix_us must be positive" };
        return startTimeText(us);
    } catch (const std::exception&) {
        return Error { "the body must be {\"start_at_unix_us\": N}" };
    }
}

} // namespace

AgentServer::AgentServer(AgentServerOptions options, AgentCredentials credentials)
    : m_options(std::move(options))
    , m_credentials(std::move(credentials))
    , m_runs(AgentRunsOptions { m_options.stateDir + "/runs", m_options.loaderBinary, m_options.maxDurationUs })
{
    if (!m_options.log) m_options.log = [](const std::string& line) { std::fprintf(stderr, "%s\n", line.c_str()); };
}

AgentServer::~AgentServer()
{
    m_stop.store(true);
    m_runs.shutdown();
    // Connection threads notice the stop within a second (their reads and waits are short).
    while (m_connections.load() > 0)
        ::usleep(10'000);
    if (m_listenFd >= 0) ::close(m_listenFd);
}

Status AgentServer::listen()
{
    auto tls = makeAgentServerContext(m_credentials);
    if (!tls) return Error { tls.error() };
    m_tls = *tls;
    auto hostPort = splitListen(m_options.listen);
    if (!hostPort) return Error { hostPort.error() };
    const auto& [host, port] = *hostPort;
    sockaddr_storage addr {};
    socklen_t length = 0;
    auto* sin = reinterpret_cast<sockaddr_in*>(&addr);
    auto* sin6 = reinterpret_cast<sockaddr_in6*>(&addr);
    if (::inet_pton(AF_INET, host.c_str(), &sin->sin_addr) == 1) {
        sin->sin_family = AF_INET;
        sin->sin_port = htons(port);
        length = sizeof *sin;
    } else if (::inet_pton(AF_INET6, host.c_str(), &sin6->sin6_addr) == 1) {
        sin6->sin6_family = AF_INET6;
        sin6->sin6_port = htons(port);
        length = sizeof *sin6;
    } else {
        return Error { fmt::format("--listen '{}': '{}' is not an IP address", m_options.listen, host) };
    }
    m_listenFd = ::socket(addr.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int on = 1;
    ::setsockopt(m_listenFd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    if (::bind(m_listenFd, reinterpret_cast<sockaddr*>(&addr), length) != 0 || ::listen(m_listenFd, 128) != 0)
        return Error { fmt::format("cannot listen on {}: {}", m_options.listen, std::strerror(errno)) };
    sockaddr_storage bound {};
    socklen_t boundLength = sizeof bound;
    ::getsockname(m_listenFd, reinterpret_cast<sockaddr*>(&bound), &boundLength);
    m_port = ntohs(bound.ss_family == AF_INET ? reinterpret_cast<sockaddr_in*>(&bound)->sin_port
                                              : reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port);
    m_address = peerText(bound);
    return {};
}

void AgentServer::serve()
{
    uint64_t lastSweepUs = 0;
    while (!m_stop.load()) {
        pollfd p { m_listenFd, POLLIN, 0 };
        const int n = ::poll(&p, 1, 200);
        if (monotonicNowUs() - lastSweepUs > 60'000'000) {
            m_runs.sweep();
            lastSweepUs = monotonicNowUs();
        }
        if (n <= 0) continue;
        sockaddr_storage peer {};
        socklen_t peerLength = sizeof peer;
        const int fd = ::accept4(m_listenFd, reinterpret_cast<sockaddr*>(&peer), &peerLength, SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno == EMFILE || errno == ENFILE) ::usleep(50'000);
            continue;
        }
        std::string who = peerText(peer);
        if (m_connections.load() >= m_options.maxConnections) {
            m_options.log(fmt::format("{} {} refused: {} connections open", isoNow(), who, m_connections.load()));
            ::close(fd);
            continue;
        }
        ++m_connections;
        std::thread([this, fd, who = std::move(who)]() mutable {
            serveConnection(fd, std::move(who));
            --m_connections;
        }).detach();
    }
    m_runs.shutdown();
}

void AgentServer::serveConnection(int fd, std::string peer)
{
    const uint64_t headDeadline = monotonicNowUs() + m_options.headDeadlineUs;
    auto channel = TlsChannel::accept(m_tls.get(), fd, headDeadline);
    if (!channel) {
        m_options.log(fmt::format("{} {} {}", isoNow(), peer, channel.error()));
        return;
    }
    AgentRequestParser parser;
    char buffer[16384];
    uint64_t deadline = headDeadline;
    while (parser.state() == AgentRequestParser::State::NeedMore && !m_stop.load()) {
        if (parser.headDone() && deadline == headDeadline) deadline = monotonicNowUs() + m_options.bodyDeadlineUs;
        const long n = (*channel)->read(buffer, sizeof buffer, std::min(deadline, monotonicNowUs() + 500'000));
        if (n == TlsChannel::TIMED_OUT && monotonicNowUs() < deadline) continue;
        if (n == TlsChannel::TIMED_OUT) {
            const std::string what = parser.headDone() ? "body" : "request head";
            (*channel)->writeAll(agentResponse(408, agentErrorBody("the " + what + " did not arrive in time")),
                monotonicNowUs() + 1'000'000);
            m_options.log(fmt::format("{} {} - - 408 the {} did not arrive in time", isoNow(), peer, what));
            return;
        }
        if (n <= 0) return; // closed, or broken: nothing to answer
        parser.feed(std::string_view(buffer, static_cast<size_t>(n)));
    }
    if (parser.state() == AgentRequestParser::State::Bad) {
        (*channel)->writeAll(
            agentResponse(parser.status(), agentErrorBody(parser.error())), monotonicNowUs() + 1'000'000);
        m_options.log(fmt::format("{} {} - - {} {}", isoNow(), peer, parser.status(), parser.error()));
        return;
    }
    if (parser.state() != AgentRequestParser::State::Done) return;
    const AgentRequest& request = parser.request();
    Answer reply = handle(request);
    m_options.log(fmt::format("{} {} {} {} {}", isoNow(), peer, request.method, request.path, reply.status));
    if (!(*channel)->writeAll(reply.bytes, monotonicNowUs() + m_options.bodyDeadlineUs)) return;
    if (!reply.streamRun.empty()) streamRun(**channel, reply.streamRun, reply.streamOffset);
}

void AgentServer::streamRun(TlsChannel& channel, const std::string& id, uint64_t offset)
{
    while (!m_stop.load()) {
        auto piece = m_runs.read(id, offset, 500'000);
        if (!piece) return; // the run went away (swept): the stream just ends
        if (!piece->bytes.empty()) {
            if (!channel.writeAll(agentChunk(piece->bytes), monotonicNowUs() + m_options.bodyDeadlineUs)) return;
            offset += piece->bytes.size();
        }
        if (piece->over) {
            if (channel.writeAll(agentChunk(""), monotonicNowUs() + m_options.bodyDeadlineUs)) m_runs.markFetched(id);
            return;
        }
    }
}

std::string AgentServer::healthJson()
{
    Json allow = Json::array();
    for (const std::string& e : m_options.allow.entries())
        allow.push_back(e);
    return Json {
        { "agent", "wrkbench" }, { "version", engineVersion() }, { "host", m_options.hostName },
        { "busy", m_runs.busy() }, { "allow", allow }, { "max_duration_s", m_options.maxDurationUs / 1'000'000 },
        { "clock", systemClockNote() }
    }.dump(-1, ' ', false, Json::error_handler_t::replace);
}

AgentServer::Answer AgentServer::handle(const AgentRequest& request)
{
    const std::string authorization = request.header("authorization");
    const std::string bearer = "Bearer ";
    if (authorization.compare(0, bearer.size(), bearer) != 0
        || !constantTimeEquals(authorization.substr(bearer.size()), m_credentials.token))
        return answer(401);
    const std::string& method = request.method;
    const std::string& path = request.path;
    if (path == "/v1/health") {
        if (method != "GET") return refuse(405, "GET only");
        return answer(200, healthJson());
    }
    if (path == "/v1/runs") {
        if (method == "POST") return startRun(request);
        if (method != "GET") return refuse(405, "GET or POST only");
        Json runs = Json::array();
        for (const auto& r : m_runs.list())
            runs.push_back(Json { { "run", r.id },
                { "state", r.ended ? (r.hasResult ? "finished" : "ended") : "running" }, { "bytes", r.bytes } });
        return answer(200, Json { { "runs", runs } }.dump());
    }
    if (path == "/v1/probe") {
        if (method != "POST") return refuse(405, "POST only");
        return probeTarget(request);
    }
    auto run = runPath(path);
    if (!run) return refuse(404, "no such path (docs/AGENT.md lists the API)");
    const auto& [id, what] = *run;
    auto snapshot = m_runs.find(id);
    if (!snapshot) return refuse(404, fmt::format("no run {} on this agent", id));
    if (what == "stream") {
        if (method != "GET") return refuse(405, "GET only");
        uint64_t offset = 0;
        if (auto it = request.query.find("offset"); it != request.query.end()) {
            char* end = nullptr;
            offset = std::strtoull(it->second.c_str(), &end, 10);
            if (it->second.empty() || *end != '\0') return refuse(400, "offset must be a number of bytes");
        }
        if (offset > snapshot->bytes)
            return refuse(400, fmt::format("offset {} is past the stream's {} bytes", offset, snapshot->bytes));
        return Answer { agentChunkedHead(200, "application/x-ndjson"), 200, id, offset };
    }
    if (what == "start" || what == "stop") {
        if (method != "POST") return refuse(405, "POST only");
        std::string content = "stopped by the workstation";
        if (what == "start") {
            auto text = startAtText(request.body);
            if (!text) return refuse(400, text.error());
            content = *text;
        }
        if (auto st = m_runs.tell(id, what == "start" ? START_FILE : STOP_FILE, content); !st)
            return refuse(409, st.error());
        return answer(204);
    }
    if (what == "result") {
        if (method != "GET") return refuse(405, "GET only");
        auto result = m_runs.result(id);
        if (!result) return refuse(result.error() == "running" ? 409 : 410, result.error());
        m_runs.markFetched(id);
        return answer(200, *result);
    }
    return refuse(404, "no such path (docs/AGENT.md lists the API)");
}

AgentServer::Answer AgentServer::startRun(const AgentRequest& request)
{
    Json body;
    try {
        body = Json::parse(request.body);
    } catch (const std::exception& e) {
        return refuse(400, std::string("the body is not JSON: ") + e.what());
    }
    if (!body.is_object() || !body.contains("config") || !body["config"].is_object())
        return refuse(400, "the body must be {\"config\":{...},\"shard\":{\"index\":I,\"count\":N}}");
    unsigned index = 0, count = 1;
    try {
        if (body.contains("shard")) {
            const Json& shard = body.at("shard");
            index = shard.at("index").get<unsigned>();
            count = shard.at("count").get<unsigned>();
        }
    } catch (const std::exception&) {
        return refuse(400, "shard must be {\"index\":I,\"count\":N} with whole numbers");
    }
    if (count == 0 || count > 10'000 || index >= count)
        return refuse(
            400, fmt::format("shard {}/{} is not a share: index below count, count 1 to 10000", index, count));
    auto config = runConfigFromJson(body["config"].dump());
    if (!config) return refuse(400, "the configuration does not read: " + config.error());
    RunConfig whole = config->normalized();
    if (auto st = whole.validate(); !st) return refuse(400, st.error());
    if (!whole.tls.caFile.empty())
        return refuse(400,
            "the configuration names a CA file of the workstation (--cacert): the agent takes no "
            "file paths from the network");
    for (const RequestSpec& r : whole.requests())
        if (std::string why = m_options.allow.refusal(r.url.host); !why.empty()) return refuse(403, why);
    if (whole.warmupUs + whole.durationUs > m_options.maxDurationUs)
        return refuse(403,
            fmt::format("a run of {} s is longer than this agent's --max-duration of {} s",
                (whole.warmupUs + whole.durationUs) / 1'000'000, m_options.maxDurationUs / 1'000'000));
    AgentRuns::StartError why = AgentRuns::StartError::None;
    auto id = m_runs.start(runConfigToJson(whole), index, count, why);
    if (!id) return refuse(why == AgentRuns::StartError::Busy ? 409 : 500, id.error());
    return answer(201, Json { { "run", *id } }.dump());
}

AgentServer::Answer AgentServer::probeTarget(const AgentRequest& request)
{
    ProbeOptions options;
    try {
        const Json body = Json::parse(request.body);
        auto url = parseUrl(body.at("url").get<std::string>());
        if (!url) return refuse(400, url.error());
        options.request.url = *url;
        if (body.contains("method")) options.request.method = body["method"].get<std::string>();
        if (body.contains("headers"))
            for (const Json& h : body["headers"]) {
                auto header = parseHeader(h.get<std::string>());
                if (!header) return refuse(400, header.error());
                options.request.headers.push_back(*header);
            }
        if (body.contains("body")) options.request.body = body["body"].get<std::string>();
        if (body.contains("insecure")) options.tls.verifyPeer = !body["insecure"].get<bool>();
        if (body.contains("http2")) options.allowHttp2 = body["http2"].get<bool>();
    } catch (const std::exception&) {
        return refuse(400, "the body must be {\"url\":\"...\"} with optional method, headers, body, insecure, http2");
    }
    if (std::string why = m_options.allow.refusal(options.request.url.host); !why.empty()) return refuse(403, why);
    auto result = probe(options);
    if (!result) return refuse(502, result.error());
    return answer(200, result->toJsonText());
}

} // namespace wb
