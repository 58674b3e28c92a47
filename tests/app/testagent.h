#pragma once
// A real `wrkbench-cli agent` as a child process for the app tests (agent_cli_test,
// agent_attack_test): its own state directory, the address, token and fingerprint
// it made, and its log.

#include "agent/channel/agentcredentials.h"
#include "agent/channel/tlschannel.h"
#include "agent/client/agentclient.h"
#include "common/clock.h"
#include "testsupport.h"

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace wb::test {

/// A real agent as a child process, with its own state directory.
class Agent
{
public:
    /// extraArgs go after the defaults.
    explicit Agent(const TempDir& dir, const std::string& name, const std::string& host = "127.0.0.1",
        const std::string& allow = "127.0.0.1", const std::vector<std::string>& extraArgs = {})
        : m_state(dir.file(name))
        , m_log(dir.file(name + ".log"))
        , m_tokenFile(dir.file(name + ".token"))
    {
        std::vector<std::string> argv { cliPath(), "agent", "--listen", host + ":0", "--allow", allow, "--state-dir",
            m_state };
        // A short head timeout keeps the slow-client tests short, unless the test sets its own.
        if (std::find(extraArgs.begin(), extraArgs.end(), "--head-timeout") == extraArgs.end())
            argv.insert(argv.end(), { "--head-timeout", "2s" });
        argv.insert(argv.end(), extraArgs.begin(), extraArgs.end());
        m_process.start(argv, m_log);
        // The banner ends with the max duration line: by then it listens.
        for (int i = 0; i < 3000 && readFile(m_log).find("max duration") == std::string::npos; ++i)
            ::usleep(10'000);
        const std::string banner = readFile(m_log);
        const size_t at = banner.find("listening on ");
        if (at != std::string::npos) m_address = banner.substr(at + 13, banner.find(' ', at + 13) - at - 13);
        m_token = readFile(m_state + "/token");
        while (!m_token.empty() && m_token.back() == '\n')
            m_token.pop_back();
        writeFile(m_tokenFile, m_token + "\n");
        ::chmod(m_tokenFile.c_str(), 0600);
        auto credentials = loadOrCreateCredentials(m_state, "");
        if (credentials) m_fingerprint = credentials->fingerprint;
    }
    const std::string& address() const { return m_address; }
    uint16_t port() const { return static_cast<uint16_t>(std::stoi(m_address.substr(m_address.rfind(':') + 1))); }
    const std::string& token() const { return m_token; }
    const std::string& tokenFile() const { return m_tokenFile; }
    const std::string& fingerprint() const { return m_fingerprint; }
    std::string log() const { return readFile(m_log); }
    const std::string& stateDir() const { return m_state; }
    bool alive() { return m_process.running() && ::kill(m_process.pid(), 0) == 0 && health() == 200; }
    /// GET /v1/health with the right token: its status, 0 when there was no answer.
    int health() const
    {
        AgentClient client(endpoint());
        auto reply = client.call("GET", "/v1/health", {}, 20'000'000);
        return reply ? reply->status : 0;
    }
    ChildProcess& process() { return m_process; }
    AgentEndpoint endpoint(const std::string& address = {}) const
    {
        return AgentEndpoint { "test", address.empty() ? m_address : address, m_token, m_fingerprint, {} };
    }
    /// Waits until the agent's current run has streamed at least atLeast intervals (into its stream file).
    bool waitForInterval(size_t atLeast = 1) const
    {
        for (int i = 0; i < 6000; ++i) {
            std::error_code ec;
            for (const auto& run : std::filesystem::directory_iterator(m_state + "/runs", ec)) {
                const std::string stream = readFile(run.path().string() + "/stream.jsonl");
                size_t found = 0;
                for (size_t at = stream.find("\"event\":\"interval\""); at != std::string::npos;
                     at = stream.find("\"event\":\"interval\"", at + 1))
                    ++found;
                if (found >= atLeast) return true;
            }
            ::usleep(10'000);
        }
        return false;
    }
    /// The agent's runs, as GET /v1/runs lists them.
    nlohmann::json runs() const
    {
        AgentClient client(endpoint());
        auto reply = client.call("GET", "/v1/runs", {}, 10'000'000);
        return reply && reply->status == 200 ? nlohmann::json::parse(reply->body)["runs"] : nlohmann::json::array();
    }
    nlohmann::json result(const std::string& id) const
    {
        AgentClient client(endpoint());
        auto reply = client.call("GET", "/v1/runs/" + id + "/result", {}, 10'000'000);
        EXPECT_TRUE(reply && reply->status == 200) << (reply ? reply->body : reply.error());
        return reply && reply->status == 200 ? nlohmann::json::parse(reply->body) : nlohmann::json();
    }

private:
    std::string m_state, m_log, m_tokenFile;
    ChildProcess m_process;
    std::string m_address, m_token, m_fingerprint;
};

/// One raw request over TLS to an agent on 127.0.0.1:port (no client logic in the way): the
/// status and body; status 0 when no answer came within 10 s.
inline std::pair<int, std::string> rawAgentRequest(uint16_t port, const std::string& request)
{
    auto ctx = makeAgentClientContext("");
    auto channel = TlsChannel::connect(ctx->get(), "127.0.0.1", port, monotonicNowUs() + 10'000'000);
    if (!channel) return { 0, channel.error() };
    (*channel)->writeAll(request, monotonicNowUs() + 10'000'000);
    std::string answer;
    char buffer[4096];
    for (long n; (n = (*channel)->read(buffer, sizeof buffer, monotonicNowUs() + 10'000'000)) > 0;)
        answer.append(buffer, static_cast<size_t>(n));
    if (answer.size() < 12) return { 0, answer };
    const size_t body = answer.find("\r\n\r\n");
    return { std::stoi(answer.substr(9, 3)), body == std::string::npos ? "" : answer.substr(body + 4) };
}

} // namespace wb::test
