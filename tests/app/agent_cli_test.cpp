// The remote-loader agent (docs/AGENT.md) as users run it: a real `wrkbench-cli
// agent` on loopback with the certificate and token it made itself, driven by
// `run --on agents` against nginx. The stored run must be exactly what the agent
// measured; two agents on 127.0.0.2 and 127.0.0.3 merge into one run; and the
// agent survives what a hostile or broken network sends it: wrong and missing
// tokens, a certificate that is not the pinned one, targets outside --allow,
// malformed and oversized bodies, a slowloris client, 100 bogus connections, its
// own death mid-run (the run is partial, its intervals kept) and a cut link (the
// workstation re-attaches and gets the whole result).

#include "agent/channel/agentcredentials.h"
#include "agent/channel/tlschannel.h"
#include "agent/client/agentclient.h"
#include "common/clock.h"
#include "requirenginx.h"
#include "testagent.h"
#include "testsupport.h"

#include <arpa/inet.h>
#include <atomic>
#include <csignal>
#include <filesystem>
#include <gtest/gtest.h>
#include <mutex>
#include <netinet/in.h>
#include <nlohmann/json.hpp>
#include <openssl/ssl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace wb;
using Json = nlohmann::json;
namespace fs = std::filesystem;
using test::Agent;

namespace {

/// A relay on loopback whose connections can all be cut at once: a link that drops.
class CuttableProxy
{
public:
    explicit CuttableProxy(uint16_t upstream)
        : m_upstream(upstream)
    {
        m_listen = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in addr {};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        ::bind(m_listen, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
        ::listen(m_listen, 64);
        socklen_t len = sizeof addr;
        ::getsockname(m_listen, reinterpret_cast<sockaddr*>(&addr), &len);
        m_port = ntohs(addr.sin_port);
        m_accept = std::thread([this] { acceptLoop(); });
    }
    ~CuttableProxy()
    {
        m_stop = true;
        cutAll();
        m_accept.join();
        for (std::thread& t : m_relays)
            t.join();
        ::close(m_listen);
    }
    uint16_t port() const { return m_port; }
    /// Cuts every open connection (both ways); new ones are relayed as before.
    unsigned cutAll()
    {
        std::lock_guard lock(m_mutex);
        for (int fd : m_open)
            ::shutdown(fd, SHUT_RDWR);
        ++m_cuts;
        return static_cast<unsigned>(m_open.size());
    }
    unsigned accepted() const { return m_accepted.load(); }

private:
    void acceptLoop()
    {
        while (!m_stop) {
            pollfd p { m_listen, POLLIN, 0 };
            if (::poll(&p, 1, 100) <= 0) continue;
            const int client = ::accept4(m_listen, nullptr, nullptr, SOCK_CLOEXEC);
            if (client < 0) continue;
            const int server = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
            sockaddr_in addr {};
            addr.sin_family = AF_INET;
            addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
            addr.sin_port = htons(m_upstream);
            if (::connect(server, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
                ::close(client);
                ::close(server);
                continue;
            }
            ++m_accepted;
            std::lock_guard lock(m_mutex);
            m_open.push_back(client);
            m_open.push_back(server);
            m_relays.emplace_back([this, client, server] { relay(client, server); });
        }
    }
    void relay(int a, int b)
    {
        char buffer[16384];
        while (!m_stop) {
            pollfd p[2] = { { a, POLLIN, 0 }, { b, POLLIN, 0 } };
            if (::poll(p, 2, 100) <= 0) continue;
            bool closed = false;
            for (int i = 0; i < 2 && !closed; ++i) {
                if (!(p[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
                const ssize_t n = ::read(p[i].fd, buffer, sizeof buffer);
                if (n <= 0 || ::write(p[1 - i].fd, buffer, static_cast<size_t>(n)) != n) closed = true;
            }
            if (closed) break;
        }
        std::lock_guard lock(m_mutex);
        std::erase(m_open, a);
        std::erase(m_open, b);
        ::close(a);
        ::close(b);
    }

    uint16_t m_upstream;
    int m_listen = -1;
    uint16_t m_port = 0;
    std::atomic<bool> m_stop { false };
    std::atomic<unsigned> m_accepted { 0 };
    unsigned m_cuts = 0;
    std::mutex m_mutex;
    std::vector<int> m_open;
    std::thread m_accept;
    std::vector<std::thread> m_relays;
};

/// One raw request over TLS (no client logic in the way): the status and body.
std::pair<int, std::string> rawRequest(const Agent& agent, const std::string& request)
{
    return test::rawAgentRequest(agent.port(), request);
}

class AgentCli : public test::NginxTest
{
protected:
    static void SetUpTestSuite() { startNginx(); }
    static void TearDownTestSuite() { stopNginx(); }
    static std::string url(const std::string& host = "127.0.0.1")
    {
        return "http://" + host + ":" + std::to_string(nginx().port()) + "/";
    }
    static std::vector<std::string> onAgent(const Agent& agent, const std::string& address = {})
    {
        return { "--on", "agents", address.empty() ? agent.address() : address, "--agent-token-file", agent.tokenFile(),
            "--agent-fingerprint", displayFingerprint(agent.fingerprint()) };
    }
    static std::vector<std::string> concat(std::vector<std::string> a, const std::vector<std::string>& b)
    {
        a.insert(a.end(), b.begin(), b.end());
        return a;
    }
};

uint64_t requestsOf(const Json& doc)
{
    return doc["summary"]["requests"].get<uint64_t>();
}

} // namespace

TEST_F(AgentCli, TheStoredRunIsExactlyWhatTheAgentMeasured)
{
    test::TempDir dir;
    Agent agent(dir, "a");
    ASSERT_FALSE(agent.address().empty()) << agent.log();
    const auto r = test::runCli(
        concat(onAgent(agent),
            { "-t2", "-c4", "-n", "300", "--db", dir.file("s.wrkbench"), "--json", dir.file("r.json"), url() }),
        90'000);
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err << agent.log();
    EXPECT_NE(r.out.find("Stored as run 1"), std::string::npos) << r.out;
    const Json runs = agent.runs();
    ASSERT_EQ(runs.size(), 1u) << runs;
    const Json measured = agent.result(runs[0]["run"].get<std::string>());
    const Json stored = Json::parse(test::readFile(dir.file("r.json")));
    ASSERT_GT(requestsOf(measured), 0u);
    EXPECT_EQ(requestsOf(measured), 300u); // -n: exactly the count asked for
    EXPECT_EQ(requestsOf(stored), requestsOf(measured));
    EXPECT_EQ(stored["summary"]["bytes"], measured["summary"]["bytes"]);
    EXPECT_EQ(stored["summary"]["status_codes"], measured["summary"]["status_codes"]);
    EXPECT_EQ(stored["summary"]["errors"], measured["summary"]["errors"]);
    for (const char* key : { "latency", "connect", "ttfb" }) {
        EXPECT_EQ(stored["summary"]["histograms"][key], measured["summary"]["histograms"][key]) << key;
        EXPECT_EQ(stored["summary"]["histogram_totals"][key], measured["summary"]["histogram_totals"][key]) << key;
    }
    EXPECT_EQ(stored["summary"]["latency_us"], measured["summary"]["latency_us"]);
    // The session has the run and its one loader; the agent logged every request.
    const auto loaders = test::runCli({ "runs", "--db", dir.file("s.wrkbench"), "--loaders", "1" });
    ASSERT_EQ(loaders.exitCode, 0) << loaders.err;
    EXPECT_NE(loaders.out.find(std::to_string(requestsOf(measured))), std::string::npos) << loaders.out;
    EXPECT_NE(agent.log().find("POST /v1/runs 201"), std::string::npos) << agent.log();
}

TEST_F(AgentCli, TwoAgentsOnTwoLoopbackAddressesMergeIntoOneRun)
{
    test::TempDir dir;
    Agent a(dir, "a", "127.0.0.2", "127.0.0.0/8");
    Agent b(dir, "b", "127.0.0.3", "127.0.0.0/8");
    ASSERT_FALSE(a.address().empty()) << a.log();
    ASSERT_FALSE(b.address().empty()) << b.log();
    test::writeFile(dir.file("tokens"), a.address() + " " + a.token() + "\n" + b.address() + " " + b.token() + "\n");
    ::chmod(dir.file("tokens").c_str(), 0600);
    const auto r = test::runCli({ "--on", "agents", a.address() + "," + b.address(), "--agent-token-file",
                                    dir.file("tokens"), "--agent-fingerprint", a.fingerprint() + "," + b.fingerprint(),
                                    "-t2", "-c6", "-n", "300", "--json", dir.file("r.json"), url() },
        90'000);
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("2 loaders:"), std::string::npos) << r.out;
    const Json merged = Json::parse(test::readFile(dir.file("r.json")));
    const Json ra = a.result(a.runs()[0]["run"].get<std::string>());
    const Json rb = b.result(b.runs()[0]["run"].get<std::string>());
    EXPECT_EQ(ra["config"]["connections"], 3); // 6 over two agents: 3 + 3
    EXPECT_EQ(rb["config"]["connections"], 3);
    EXPECT_EQ(requestsOf(merged), requestsOf(ra) + requestsOf(rb));
    EXPECT_EQ(requestsOf(merged), 300u); // -n: each agent counted its share, 150
    EXPECT_EQ(requestsOf(ra), 150u);
    ASSERT_EQ(merged["loaders"].size(), 2u);
    EXPECT_EQ(merged["loaders"][0]["requests"], requestsOf(ra));
    EXPECT_EQ(merged["loaders"][1]["requests"], requestsOf(rb));
}

TEST_F(AgentCli, RefusesWrongTokensCertificatesAndTargets)
{
    test::TempDir dir;
    Agent agent(dir, "a");
    ASSERT_FALSE(agent.address().empty()) << agent.log();
    test::writeFile(dir.file("wrong"), "not-the-token\n");
    ::chmod(dir.file("wrong").c_str(), 0600);
    const std::vector<std::string> load = { "-c2", "-n", "100", url() };

    const auto wrongToken = test::runCli(concat({ "--on", "agents", agent.address(), "--agent-token-file",
                                                    dir.file("wrong"), "--agent-fingerprint", agent.fingerprint() },
        load));
    EXPECT_NE(wrongToken.exitCode, 0);
    EXPECT_NE(wrongToken.err.find("refused the token (401)"), std::string::npos) << wrongToken.err;
    // A missing token: 401 and no detail at all.
    const auto [missing, missingBody] = rawRequest(agent, "GET /v1/health HTTP/1.1\r\nHost: a\r\n\r\n");
    EXPECT_EQ(missing, 401);
    EXPECT_EQ(missingBody, "");

    std::string otherPin = agent.fingerprint();
    otherPin[0] = otherPin[0] == 'a' ? 'b' : 'a';
    const auto wrongCert = test::runCli(concat(
        { "--on", "agents", agent.address(), "--agent-token-file", agent.tokenFile(), "--agent-fingerprint", otherPin },
        load));
    EXPECT_NE(wrongCert.exitCode, 0);
    EXPECT_NE(wrongCert.err.find("not the pinned"), std::string::npos) << wrongCert.err;
    // A CA that did not sign the agent's certificate: refused in the handshake.
    test::TempDir other;
    ASSERT_TRUE(loadOrCreateCredentials(other.file("x"), "x"));
    const auto wrongCa = test::runCli(concat({ "--on", "agents", agent.address(), "--agent-token-file",
                                                 agent.tokenFile(), "--agent-cacert", other.file("x/cert.pem") },
        load));
    EXPECT_NE(wrongCa.exitCode, 0);
    EXPECT_NE(wrongCa.err.find("not trusted"), std::string::npos) << wrongCa.err;
    const auto unpinned
        = test::runCli(concat({ "--on", "agents", agent.address(), "--agent-token-file", agent.tokenFile() }, load));
    EXPECT_EQ(unpinned.exitCode, 2);
    EXPECT_NE(unpinned.err.find("never trusted silently"), std::string::npos) << unpinned.err;

    const auto outside = test::runCli(concat(onAgent(agent), { "-c2", "-n", "100", url("127.0.0.9") }));
    EXPECT_NE(outside.exitCode, 0);
    EXPECT_NE(outside.err.find("target 127.0.0.9 is not allowed"), std::string::npos) << outside.err;
    EXPECT_EQ(agent.runs().size(), 0u); // nothing started, nothing sent
    EXPECT_NE(agent.log().find("POST /v1/runs 403"), std::string::npos) << agent.log();
    // With the agent's own certificate as the CA, the same run goes through.
    const auto viaCa = test::runCli(concat({ "--on", "agents", agent.address(), "--agent-token-file", agent.tokenFile(),
                                               "--agent-cacert", dir.file("a/cert.pem") },
        load));
    EXPECT_EQ(viaCa.exitCode, 0) << viaCa.err;
}

TEST_F(AgentCli, SurvivesBadBodiesSlowClientsAndAHundredBogusConnections)
{
    test::TempDir dir;
    Agent agent(dir, "a");
    ASSERT_FALSE(agent.address().empty()) << agent.log();
    const std::string auth = "Authorization: Bearer " + agent.token() + "\r\n";
    auto post = [&](const std::string& body) {
        return rawRequest(agent,
            "POST /v1/runs HTTP/1.1\r\nHost: a\r\n" + auth + "Content-Length: " + std::to_string(body.size())
                + "\r\n\r\n" + body);
    };
    EXPECT_EQ(post("{not json").first, 400);
    EXPECT_NE(post("{not json").second.find("not JSON"), std::string::npos);
    EXPECT_EQ(post("{\"config\":{\"threads\":\"two\"}}").first, 400);
    EXPECT_EQ(post("[1,2]").first, 400);
    // Over 1 MiB: refused on its Content-Length, before the body is read.
    const auto [oversized, why]
        = rawRequest(agent, "POST /v1/runs HTTP/1.1\r\nHost: a\r\n" + auth + "Content-Length: 1048577\r\n\r\n");
    EXPECT_EQ(oversized, 413);
    EXPECT_NE(why.find("over the limit"), std::string::npos) << why;

    // 100 bogus connections at once from another address: raw TCP that never speaks TLS, and
    // TLS that never sends a request. The agent still answers others, then cuts them at its
    // head timeout (2 s here), or at once past its cap per address.
    std::vector<int> bogus;
    for (int i = 0; i < 100; ++i) {
        const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in from {};
        from.sin_family = AF_INET;
        from.sin_addr.s_addr = htonl(0x7f000007); // 127.0.0.7
        ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&from), sizeof from), 0);
        sockaddr_in addr {};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        addr.sin_port = htons(agent.port());
        ASSERT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
        if (i % 2) ::write(fd, "\x16\x03\x01", 3); // the start of a ClientHello, and nothing more
        bogus.push_back(fd);
    }
    AgentClient client(agent.endpoint());
    auto health = client.call("GET", "/v1/health", {}, 20'000'000);
    ASSERT_TRUE(health) << health.error();
    EXPECT_EQ(health->status, 200);
    EXPECT_EQ(Json::parse(health->body)["allow"], Json::array({ "127.0.0.1" }));
    // A slowloris client: TLS done, then the request head a byte at a time, too slowly.
    auto ctx = makeAgentClientContext("");
    auto slow = TlsChannel::connect(ctx->get(), "127.0.0.1", agent.port(), monotonicNowUs() + 10'000'000);
    ASSERT_TRUE(slow) << slow.error();
    std::string answer;
    const std::string head = "GET /v1/health HTTP/1.1\r\nHost: a\r\n" + auth + "\r\n";
    char buffer[4096];
    for (size_t i = 0; i < head.size() && answer.empty(); ++i) {
        if (!(*slow)->writeAll(head.substr(i, 1), monotonicNowUs() + 5'000'000)) break;
        const long n = (*slow)->read(buffer, sizeof buffer, monotonicNowUs() + 300'000);
        if (n > 0) answer.append(buffer, static_cast<size_t>(n));
        if (n == 0) break;
    }
    EXPECT_NE(answer.find(" 408 "), std::string::npos) << answer; // cut before the head was complete
    // Every bogus connection is closed by the agent.
    for (int fd : bogus) {
        pollfd p { fd, POLLIN, 0 };
        EXPECT_EQ(::poll(&p, 1, 20'000), 1);
        char c[64];
        while (::read(fd, c, sizeof c) > 0) { }
        ::close(fd);
    }
    auto after = client.call("GET", "/v1/health", {}, 20'000'000);
    ASSERT_TRUE(after) << after.error();
    EXPECT_EQ(after->status, 200);
    EXPECT_EQ(::kill(agent.process().pid(), 0), 0); // still alive
}

TEST_F(AgentCli, OneRunAtATime)
{
    test::TempDir dir;
    Agent agent(dir, "a");
    ASSERT_FALSE(agent.address().empty()) << agent.log();
    AgentClient client(agent.endpoint());
    const std::string config
        = "{\"config\":{\"url\":\"" + url() + "\",\"connections\":1,\"threads\":1,\"duration_us\":1000000}}";
    auto first = client.call("POST", "/v1/runs", config, 10'000'000);
    ASSERT_TRUE(first) << first.error();
    ASSERT_EQ(first->status, 201) << first->body;
    auto second = client.call("POST", "/v1/runs", config, 10'000'000);
    ASSERT_TRUE(second);
    EXPECT_EQ(second->status, 409);
    EXPECT_NE(second->errorText().find("one run at a time"), std::string::npos) << second->body;
    const std::string id = Json::parse(first->body)["run"];
    auto stop = client.call("POST", "/v1/runs/" + id + "/stop", {}, 10'000'000);
    ASSERT_TRUE(stop);
    EXPECT_EQ(stop->status, 204);
    auto unknown = client.call("GET", "/v1/runs/r-nope/result", {}, 10'000'000);
    ASSERT_TRUE(unknown);
    EXPECT_EQ(unknown->status, 404);
}

TEST_F(AgentCli, AnAgentKilledMidRunLeavesAPartialRunWithItsIntervals)
{
    test::TempDir dir;
    Agent agent(dir, "a");
    ASSERT_FALSE(agent.address().empty()) << agent.log();
    test::ProcessResult r;
    std::thread run([&] {
        r = test::runCli(concat(onAgent(agent),
                             { "--agent-reattach", "2s", "-t1", "-c2", "-d30s", "--db", dir.file("s.wrkbench"),
                                 "--json", dir.file("r.json"), url() }),
            120'000);
    });
    // The agent forwards a line as soon as it is in its stream file, but a kill right after the
    // first interval can beat that forward on a busy machine; the second comes an interval later.
    const bool streaming = agent.waitForInterval(2);
    agent.process().signalAndWait(SIGKILL, 10'000);
    run.join();
    ASSERT_TRUE(streaming) << agent.log();
    // Reported and stored, but not a success: the run's only loader is gone.
    ASSERT_EQ(r.exitCode, 1) << r.out << r.err;
    EXPECT_NE(r.err.find("only loader ended early"), std::string::npos) << r.err;
    const Json j = Json::parse(test::readFile(dir.file("r.json")));
    EXPECT_EQ(j["summary"]["stopped_early"], true);
    ASSERT_EQ(j["loaders"].size(), 1u);
    EXPECT_NE(j["loaders"][0]["state"].get<std::string>().find("lost agent"), std::string::npos) << j["loaders"][0];
    EXPECT_GT(j["loaders"][0]["requests"].get<uint64_t>(), 0u); // the intervals it sent are kept
    EXPECT_GE(j["intervals"].size(), 1u);
    EXPECT_NE(r.out.find("Stored as run 1"), std::string::npos) << r.out;
}

TEST_F(AgentCli, ACutLinkIsReattachedAndTheWholeResultArrives)
{
    test::TempDir dir;
    Agent agent(dir, "a");
    ASSERT_FALSE(agent.address().empty()) << agent.log();
    CuttableProxy proxy(agent.port());
    const std::string viaProxy = "127.0.0.1:" + std::to_string(proxy.port());
    test::ProcessResult r;
    std::thread run([&] {
        r = test::runCli(
            concat(onAgent(agent, viaProxy), { "-t1", "-c2", "-d4s", "--json", dir.file("r.json"), url() }), 120'000);
    });
    const bool streaming = agent.waitForInterval();
    const unsigned cut = proxy.cutAll();
    run.join();
    ASSERT_TRUE(streaming) << agent.log();
    EXPECT_GE(cut, 2u); // the stream's connection was open
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    const Json stored = Json::parse(test::readFile(dir.file("r.json")));
    const Json measured = agent.result(agent.runs()[0]["run"].get<std::string>());
    EXPECT_EQ(stored["summary"]["stopped_early"], false);
    EXPECT_EQ(requestsOf(stored), requestsOf(measured));
    EXPECT_EQ(stored["summary"]["histograms"]["latency"], measured["summary"]["histograms"]["latency"]);
    EXPECT_NE(agent.log().find("/stream 200"), std::string::npos);
    EXPECT_GE(proxy.accepted(), 4u); // run, stream, start, and the stream again after the cut
}
