#include "agent/server/agentserver.h"

#include "agent/channel/agentanswer.h"
#include "agent/channel/agenthttp.h"
#include "agent/channel/tlschannel.h"
#include "common/clock.h"
#include "common/jsondepth.h"
#include "common/jsonint.h"
#include "common/jsontext.h"
#include "common/text.h"
#include "fleet/controlfiles.h"
#include "http/requestcheck.h"
#include "probe/probe.h"
#include "run/clocknote.h"
#include "run/runcontroller.h"
#include "run/shard.h"
#include "wire/configcodec.h"

#include <arpa/inet.h>
#include <cerrno>
#include <cstdint>
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

/// The address alone, for the per-address cap: every port of one host is one client.
std::string peerAddress(const sockaddr_storage& addr)
{
    char host[INET6_ADDRSTRLEN] = "?";
    if (addr.ss_family == AF_INET)
        ::inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(&addr)->sin_addr, host, sizeof host);
    else
        ::inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(&addr)->sin6_addr, host, sizeof host);
    return host;
}

/// Parses a JSON body from the network: refused before the parser when it nests deeper than
/// any request of the API does (nlohmann parses and frees recursively: 70,000 '[' overflowed
/// the stack).
Result<nlohmann::json> parseBody(const std::string& body)
{
    if (!jsonDepthWithin(body, AGENT_MAX_JSON_DEPTH))
        return Error { fmt::format("the body nests deeper than {} levels", AGENT_MAX_JSON_DEPTH) };
    auto parsed = parseJsonText<nlohmann::json>(body, AGENT_MAX_JSON_DEPTH);
    if (!parsed) return Error { "the body is not JSON: " + parsed.error() };
    return parsed;
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

/// The common start as the control file takes it, from {"start_at_unix_us": N}, at most
/// limits.maxStartAheadUs from now.
Result<std::string> startAtText(const std::string& body, const AgentLimits& limits)
{
    auto j = parseBody(body);
    if (!j) return Error { j.error() };
    const auto it = j->is_object() ? j->find("start_at_unix_us") : j->end();
    const auto us = it == j->end() ? std::nullopt : jsonInt64(*it);
    if (!us) return Error { "the body must be {\"start_at_unix_us\": N} with N a whole number of microseconds" };
    if (auto st = checkStartAt(*us, wallClockNowMs() * 1000, limits); !st) return Error { st.error() };
    return startTimeText(*us);
}

} // namespace

AgentServer::AgentServer(AgentServerOptions options, AgentCredentials credentials)
    : m_options(std::move(options))
    , m_credentials(std::move(credentials))
    , m_runs(AgentRunsOptions { m_options.stateDir + "/runs", m_options.loaderBinary, m_options.limits.maxDurationUs,
          24ull * 3600 * 1'000'000, 10ull * 60 * 1'000'000, m_options.metricsListen })
{
    // A logged line quotes the network (a request's path): the journal or a terminal reads it.
    if (!m_options.log)
        m_options.log = [](const std::string& line) { std::fprintf(stderr, "%s\n", terminalText(line).c_str()); };
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
        std::string address = peerAddress(peer);
        if (m_connections.load() >= m_options.maxConnections) {
            logRefusal(fmt::format("{} {} refused: {} connections open", isoNow(), who, m_connections.load()));
            ::close(fd);
            continue;
        }
        {
            std::lock_guard lock(m_peersMutex);
            unsigned& open = m_perAddress[address];
            if (open >= m_options.maxConnectionsPerAddress) {
                ::close(fd);
                logRefusal(fmt::format("{} {} refused: {} connections open from {}", isoNow(), who, open, address));
                continue;
            }
            ++open;
        }
        ++m_connections;
        std::thread([this, fd, who = std::move(who), address = std::move(address)]() mutable {
            serveConnection(fd, std::move(who));
            {
                std::lock_guard lock(m_peersMutex);
                if (auto it = m_perAddress.find(address); it != m_perAddress.end() && --it->second == 0)
                    m_perAddress.erase(it);
            }
            --m_connections;
        }).detach();
    }
    m_runs.shutdown();
}

void AgentServer::logRefusal(const std::string& line)
{
    std::lock_guard lock(m_refusalMutex);
    const uint64_t now = monotonicNowUs();
    if (m_options.refusalLogIntervalUs > 0 && m_lastRefusalLogUs != 0
        && now - m_lastRefusalLogUs < m_options.refusalLogIntervalUs) {
        ++m_refusalsNotLogged; // a flood of refusals must not become a flood of journal lines
        return;
    }
    if (m_refusalsNotLogged > 0)
        m_options.log(fmt::format("{} ({} more refusals not logged)", line, m_refusalsNotLogged));
    else
        m_options.log(line);
    m_refusalsNotLogged = 0;
    m_lastRefusalLogUs = now;
}

bool AgentServer::authorized(const ServerRequest& request) const
{
    const std::string authorization = request.header("authorization");
    const std::string bearer = "Bearer ";
    return authorization.compare(0, bearer.size(), bearer) == 0
        && constantTimeEquals(authorization.substr(bearer.size()), m_credentials.token);
}

void AgentServer::serveConnection(int fd, std::string peer)
{
    const uint64_t acceptedUs = monotonicNowUs();
    const uint64_t headDeadline = acceptedUs + m_options.headDeadlineUs;
    auto channel
        = TlsChannel::accept(m_tls.get(), fd, std::min(headDeadline, acceptedUs + m_options.handshakeDeadlineUs));
    if (!channel) {
        logRefusal(fmt::format("{} {} {}", isoNow(), peer, channel.error()));
        return;
    }
    ServerRequestParser parser;
    char buffer[16384];
    uint64_t deadline = headDeadline;
    bool tokenChecked = false;
    while (parser.state() == ServerRequestParser::State::NeedMore && !m_stop.load()) {
        if (parser.headDone() && !tokenChecked) {
            // The token is checked as soon as the head is in: a stranger never gets the body
            // deadline, and a slot is never held 30 s for a body nobody will read.
            if (!authorized(parser.request())) break;
            tokenChecked = true;
            deadline = monotonicNowUs() + m_options.bodyDeadlineUs;
        }
        const long n = (*channel)->read(buffer, sizeof buffer, std::min(deadline, monotonicNowUs() + 500'000));
        if (n == TlsChannel::TIMED_OUT && monotonicNowUs() < deadline) continue;
        if (n == TlsChannel::TIMED_OUT) {
            const std::string what = parser.headDone() ? "body" : "request head";
            (*channel)->writeAll(agentResponse(408, agentErrorBody("the " + what + " did not arrive in time")),
                monotonicNowUs() + 1'000'000);
            logRefusal(fmt::format("{} {} - - 408 the {} did not arrive in time", isoNow(), peer, what));
            return;
        }
        if (n <= 0) return; // closed, or broken: nothing to answer
        parser.feed(std::string_view(buffer, static_cast<size_t>(n)));
    }
    if (parser.state() == ServerRequestParser::State::Bad) {
        (*channel)->writeAll(
            agentResponse(parser.status(), agentErrorBody(parser.error())), monotonicNowUs() + 1'000'000);
        logRefusal(fmt::format("{} {} - - {} {}", isoNow(), peer, parser.status(), parser.error()));
        return;
    }
    if (!parser.headDone()) return; // stopping
    const ServerRequest& request = parser.request();
    if (!authorized(request)) {
        (*channel)->writeAll(agentResponse(401, {}), monotonicNowUs() + 1'000'000);
        logRefusal(fmt::format("{} {} {} {} 401", isoNow(), peer, request.method, request.path));
        return;
    }
    if (parser.state() != ServerRequestParser::State::Done) return;
    // Logged before it is handled: a request that brings the agent down is still on record.
    m_options.log(fmt::format(
        "{} {} {} {} received ({} bytes)", isoNow(), peer, request.method, request.path, request.body.size()));
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
    AgentHealth h;
    h.version = engineVersion();
    h.host = m_options.hostName;
    h.busy = m_runs.busy();
    h.allow = m_options.allow.entries();
    h.maxDurationS = m_options.limits.maxDurationUs / 1'000'000;
    h.maxConnections = m_options.limits.maxConnections;
    h.maxThreads = m_options.limits.maxThreads;
    h.maxRatePerS = m_options.limits.maxRatePerS;
    h.clock = systemClockNote();
    return agentHealthJson(h);
}

AgentServer::Answer AgentServer::handle(const ServerRequest& request)
{
    if (!authorized(request)) return answer(401);
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
        return answer(200, jsonText(Json { { "runs", runs } }));
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
            auto text = startAtText(request.body, m_options.limits);
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

AgentServer::Answer AgentServer::startRun(const ServerRequest& request)
{
    auto parsed = parseBody(request.body);
    if (!parsed) return refuse(400, parsed.error());
    const Json& body = *parsed;
    if (!body.is_object() || !body.contains("config") || !body["config"].is_object())
        return refuse(400, "the body must be {\"config\":{...},\"shard\":{\"index\":I,\"count\":N}}");
    unsigned index = 0, count = 1;
    if (body.contains("shard")) {
        const Json& shard = body["shard"];
        auto whole = [&](const char* key) {
            return shard.is_object() && shard.contains(key) && shard[key].is_number_unsigned()
                && shard[key].get<uint64_t>() <= 10'000;
        };
        if (!whole("index") || !whole("count"))
            return refuse(400, "shard must be {\"index\":I,\"count\":N} with whole numbers");
        index = shard["index"].get<unsigned>();
        count = shard["count"].get<unsigned>();
    }
    if (count == 0 || count > 10'000 || index >= count)
        return refuse(
            400, fmt::format("shard {}/{} is not a share: index below count, count 1 to 10000", index, count));
    if (auto st = checkConfigNumbers(body["config"]); !st) return refuse(400, "the configuration: " + st.error());
    // The depth is bounded above, so this copy of the text is too.
    auto config = runConfigFromJson(jsonText(body["config"]));
    if (!config) return refuse(400, "the configuration does not read: " + config.error());
    if (auto st = checkRunLimits(*config, m_options.limits); !st) return refuse(403, st.error());
    if (!config->script.empty() && !m_options.allowScripts)
        return refuse(403, "this agent does not run scripts; start it with --allow-scripts");
    RunConfig whole = config->normalized();
    if (auto st = whole.validate(); !st) return refuse(400, st.error());
    if (!whole.tls.caFile.empty())
        return refuse(400,
            "the configuration names a CA file of the workstation (--cacert): the agent takes no "
            "file paths from the network");
    // What the loader will send is held to the CLI's own rules (no header or method that
    // smuggles a second request to the target).
    for (const RequestSpec& r : whole.requests())
        if (auto st = checkRequestSpec(r); !st) return refuse(400, "the configuration: " + st.error());
    auto share = shareOf(whole, Shard { index, count });
    if (!share) return refuse(400, share.error());
    if (auto st = checkShareLimits(*share, m_options.limits); !st) return refuse(403, st.error());
    // Resolved once, here: the loader connects to exactly these (validate() holds every request
    // of a mix to one origin, so one host).
    auto pinned = m_options.allow.pin(whole.request.url.host);
    if (!pinned) return refuse(403, pinned.error());
    for (const RequestSpec& r : whole.requests())
        if (r.url.host != whole.request.url.host) return refuse(400, "every request must go to one host");
    AgentRuns::StartError why = AgentRuns::StartError::None;
    auto id = m_runs.start(runConfigToJson(whole), index, count,
        { "--resolve", fmt::format("{}={}", whole.request.url.host, fmt::join(*pinned, ",")) }, why);
    if (!id) return refuse(why == AgentRuns::StartError::Busy ? 409 : 500, id.error());
    return answer(201, jsonText(Json { { "run", *id } }));
}

AgentServer::Answer AgentServer::probeTarget(const ServerRequest& request)
{
    ProbeOptions options;
    auto parsed = parseBody(request.body);
    if (!parsed) return refuse(400, parsed.error());
    const Json& body = *parsed;
    const std::string shape = "the body must be {\"url\":\"...\"} with optional method, headers, body, insecure, http2";
    try {
        auto url = parseUrl(body.at("url").get<std::string>());
        if (!url) return refuse(400, url.error());
        options.request.url = *url;
        if (body.contains("method")) options.request.method = body["method"].get<std::string>();
        if (body.contains("headers")) {
            if (!body["headers"].is_array()) return refuse(400, shape);
            for (const Json& h : body["headers"]) {
                auto header = parseHeader(h.get<std::string>());
                if (!header) return refuse(400, header.error());
                options.request.headers.push_back(*header);
            }
        }
        if (body.contains("body")) options.request.body = body["body"].get<std::string>();
        if (body.contains("insecure")) options.tls.verifyPeer = !body["insecure"].get<bool>();
        if (body.contains("http2")) options.allowHttp2 = body["http2"].get<bool>();
    } catch (const std::exception&) {
        return refuse(400, shape);
    }
    if (auto st = checkRequestSpec(options.request); !st) return refuse(400, st.error());
    auto pinned = m_options.allow.pin(options.request.url.host);
    if (!pinned) return refuse(403, pinned.error());
    options.pinnedAddresses = *pinned; // curl connects there and nowhere else
    auto result = probe(options);
    if (!result) return refuse(502, result.error());
    return answer(200, result->toJsonText());
}

} // namespace wb
