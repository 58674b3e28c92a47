#include "agent/client/agentexecutor.h"

#include "common/clock.h"
#include "common/jsontext.h"
#include "fleet/controlfiles.h"

#include <cerrno>
#include <fcntl.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <sys/socket.h>
#include <unistd.h>

namespace wb {

namespace {

constexpr uint64_t CALL_TIMEOUT_US = 10'000'000;

/// "1764653400.250000" (controlfiles.h) -> microseconds.
int64_t unixUsOf(const std::string& text)
{
    const size_t dot = text.find('.');
    int64_t us = std::strtoll(text.substr(0, dot).c_str(), nullptr, 10) * 1'000'000;
    if (dot != std::string::npos) {
        std::string fraction = text.substr(dot + 1, 6);
        fraction.resize(6, '0');
        us += std::strtoll(fraction.c_str(), nullptr, 10);
    }
    return us;
}

} // namespace

AgentExecutor::AgentExecutor(std::vector<AgentEndpoint> agents, uint64_t reattachUs)
    : m_agents(std::move(agents))
    , m_reattachUs(reattachUs)
{ }

AgentExecutor::~AgentExecutor()
{
    cleanup();
}

Status AgentExecutor::launch(const std::string& configJson, unsigned count, const std::atomic<bool>& stop)
{
    if (m_agents.empty())
        return Error { "this run's loaders are remote agents, and no address or credentials came with it (the CLI's "
                       "--agent-token-file and --agent-fingerprint, the GUI's File > Loaders...)" };
    if (count != m_agents.size())
        return Error { fmt::format("{} loaders on {} agents: one loader per agent", count, m_agents.size()) };
    auto config = parseJsonText<nlohmann::json>(configJson);
    if (!config) return Error { "the run's configuration: " + config.error() };
    for (unsigned i = 0; i < count && !stop.load(); ++i) {
        auto remote = std::make_unique<Remote>();
        remote->client = std::make_unique<AgentClient>(m_agents[i]);
        const std::string body
            = jsonText(nlohmann::json { { "config", *config }, { "shard", { { "index", i }, { "count", count } } } });
        auto reply = remote->client->call("POST", "/v1/runs", body, CALL_TIMEOUT_US);
        if (!reply) return Error { reply.error() };
        if (reply->status != 201)
            return Error { fmt::format("agent {} refused the run: {}", m_agents[i].name, reply->errorText()) };
        // The agent's answer is from the network: bounded like every other.
        const auto answer = parseJsonTextOrDiscarded<nlohmann::json>(reply->body);
        const auto run = answer.is_object() ? answer.find("run") : answer.end();
        if (run == answer.end() || !run->is_string())
            return Error { fmt::format("agent {} answered without a run id", m_agents[i].name) };
        remote->runId = run->get<std::string>();
        int fds[2];
        if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
            return Error { std::string("socketpair: ") + std::strerror(errno) };
        remote->readFd = fds[0];
        remote->writeFd = fds[1];
        ::fcntl(remote->readFd, F_SETFL, ::fcntl(remote->readFd, F_GETFL) | O_NONBLOCK);
        Remote& r = *remote;
        m_remotes.push_back(std::move(remote));
        r.pump = std::thread([this, &r] { pump(r); });
    }
    return {};
}

void AgentExecutor::pump(Remote& r)
{
    uint64_t offset = 0;
    uint64_t lostSinceUs = 0;
    std::string reason;
    for (;;) {
        std::string detail;
        bool wrote = false;
        const auto end = r.client->stream(
            fmt::format("/v1/runs/{}/stream?offset={}", r.runId, offset), m_stop,
            [&](std::string_view bytes) {
                wrote = true;
                offset += bytes.size();
                while (!bytes.empty()) {
                    const ssize_t n = ::send(r.writeFd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
                    if (n <= 0) {
                        if (errno == EINTR) continue;
                        return; // the coordinator is gone
                    }
                    bytes.remove_prefix(static_cast<size_t>(n));
                }
            },
            detail);
        if (end == AgentClient::StreamEnd::Complete) {
            std::lock_guard lock(m_mutex);
            r.complete = true;
            break;
        }
        if (end == AgentClient::StreamEnd::Stopped) break;
        if (end == AgentClient::StreamEnd::Refused) {
            reason = fmt::format("agent {} ended the stream: {}", r.client->endpoint().name, detail);
            break;
        }
        // The link dropped: the loader goes on over there; re-attach from `offset`.
        const uint64_t now = monotonicNowUs();
        if (wrote || lostSinceUs == 0) lostSinceUs = now;
        if (now - lostSinceUs >= m_reattachUs) {
            reason = fmt::format("lost agent {} ({}); gave up re-attaching after {} s", r.client->endpoint().name,
                detail, m_reattachUs / 1'000'000);
            break;
        }
        for (int i = 0; i < 10 && !m_stop.load(); ++i)
            ::usleep(100'000);
        if (m_stop.load()) break;
    }
    {
        std::lock_guard lock(m_mutex);
        r.endReason = reason;
    }
    ::shutdown(r.writeFd, SHUT_WR); // end of file for the coordinator
    r.pumpDone.store(true);
}

int AgentExecutor::streamFd(unsigned loader) const
{
    return loader < m_remotes.size() ? m_remotes[loader]->readFd : -1;
}

Status AgentExecutor::tellAll(const std::string& name, const std::string& content)
{
    std::string path;
    std::string body;
    if (name == START_FILE) {
        path = "start";
        body = jsonText(nlohmann::json { { "start_at_unix_us", unixUsOf(content) } });
    } else if (name == STOP_FILE) {
        path = "stop";
    } else {
        return Error { fmt::format("agents are not told '{}'", name) };
    }
    // All at once: a common start must reach every agent within tellAllowanceUs.
    std::vector<std::string> errors(m_remotes.size());
    std::vector<std::thread> calls;
    for (size_t i = 0; i < m_remotes.size(); ++i)
        calls.emplace_back([&, i] {
            Remote& r = *m_remotes[i];
            auto reply = r.client->call("POST", fmt::format("/v1/runs/{}/{}", r.runId, path), body, CALL_TIMEOUT_US);
            if (!reply)
                errors[i] = reply.error();
            else if (reply->status != 204 && !(name == STOP_FILE && reply->status == 409)) // 409: already ended
                errors[i] = fmt::format("agent {}: {}", r.client->endpoint().name, reply->errorText());
        });
    for (std::thread& t : calls)
        t.join();
    for (const std::string& e : errors)
        if (!e.empty()) return Error { e };
    return {};
}

std::string AgentExecutor::endReason(unsigned loader)
{
    if (loader >= m_remotes.size()) return "never started";
    Remote& r = *m_remotes[loader];
    if (r.pump.joinable()) r.pump.join(); // its stream ended: the pump has ended or is ending
    std::lock_guard lock(m_mutex);
    if (!r.endReason.empty()) return r.endReason;
    return fmt::format("agent {}: the loader's stream ended without its result", r.client->endpoint().name);
}

std::string AgentExecutor::where(unsigned loader) const
{
    return loader < m_agents.size() ? m_agents[loader].address : std::string();
}

void AgentExecutor::cleanup()
{
    // The coordinator may be done as soon as it read the result line; the stream's end follows
    // at once (the loader exits). Reading it to its end tells the agent the run was fetched.
    const uint64_t deadline = monotonicNowUs() + 5'000'000;
    for (auto& r : m_remotes)
        while (!r->pumpDone.load() && monotonicNowUs() < deadline)
            ::usleep(10'000);
    m_stop.store(true);
    for (auto& r : m_remotes) {
        if (r->pump.joinable()) r->pump.join();
        bool complete;
        {
            std::lock_guard lock(m_mutex);
            complete = r->complete;
        }
        // A loader left running (the coordinator gave up early): stop it, best effort.
        if (!complete && !r->runId.empty())
            r->client->call("POST", fmt::format("/v1/runs/{}/stop", r->runId), {}, 2'000'000);
        if (r->readFd >= 0) ::close(r->readFd);
        if (r->writeFd >= 0) ::close(r->writeFd);
        r->readFd = r->writeFd = -1;
        r->runId.clear();
    }
    m_remotes.clear();
}

} // namespace wb
