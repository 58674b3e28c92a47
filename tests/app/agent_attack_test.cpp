// The agent under attack: a real `wrkbench-cli agent` on loopback,
// attacked as someone else on the loader VM's network, or a token holder who
// wants more than the allowlist and the caps give, would. One case per way it
// once gave in: a body that crashed it, a CA-signed certificate for another host
// that received the token, configurations that smuggled requests to the target,
// slow connections that starved it, a name rebound after the allowlist passed it,
// limits that wrapped around, and the smaller leaks. Each ends with the agent
// still up and answering; nothing may reach a target it should not (nginx's own
// request log and a trap listener are the witnesses).

#include "agent/channel/agentcredentials.h"
#include "agent/channel/tlschannel.h"
#include "agent/client/agentclient.h"
#include "common/clock.h"
#include "requirenginx.h"
#include "testagent.h"
#include "testsupport.h"

#include <arpa/inet.h>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <gtest/gtest.h>
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
using test::Agent;
namespace fs = std::filesystem;

namespace {

/// A request with the agent's token and a body.
std::string post(const Agent& agent, const std::string& path, const std::string& body)
{
    return "POST " + path + " HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer " + agent.token()
        + "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

std::pair<int, std::string> send(const Agent& agent, const std::string& request)
{
    return test::rawAgentRequest(agent.port(), request);
}

/// A listener on host:port that only counts who connects: where load must never arrive.
class Trap
{
public:
    Trap(const std::string& host, uint16_t port)
    {
        m_fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        int on = 1;
        ::setsockopt(m_fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
        sockaddr_in addr {};
        addr.sin_family = AF_INET;
        addr.sin_port = htons(port);
        ::inet_pton(AF_INET, host.c_str(), &addr.sin_addr);
        m_ok = ::bind(m_fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 && ::listen(m_fd, 64) == 0;
        m_thread = std::thread([this] {
            while (!m_stop) {
                pollfd p { m_fd, POLLIN, 0 };
                if (::poll(&p, 1, 100) <= 0) continue;
                const int c = ::accept4(m_fd, nullptr, nullptr, SOCK_CLOEXEC);
                if (c >= 0) {
                    ++m_accepted;
                    ::close(c);
                }
            }
        });
    }
    ~Trap()
    {
        m_stop = true;
        m_thread.join();
        ::close(m_fd);
    }
    bool ok() const { return m_ok; }
    unsigned accepted() const { return m_accepted.load(); }

private:
    int m_fd = -1;
    bool m_ok = false;
    std::atomic<bool> m_stop { false };
    std::atomic<unsigned> m_accepted { 0 };
    std::thread m_thread;
};

/// A TCP connection from `from` (a loopback address) to the agent, optionally the start of
/// a ClientHello and nothing more; -1 when it could not connect.
int connectFrom(const std::string& from, uint16_t port, bool partialHello)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in local {};
    local.sin_family = AF_INET;
    ::inet_pton(AF_INET, from.c_str(), &local.sin_addr);
    sockaddr_in addr {};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::bind(fd, reinterpret_cast<sockaddr*>(&local), sizeof local) != 0
        || ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
        ::close(fd);
        return -1;
    }
    if (partialHello && ::write(fd, "\x16\x03\x01", 3) != 3) { }
    return fd;
}

/// A CA and a certificate it signed for `san` ("DNS:evil.example"), into dir: ca.pem, and
/// cert.pem + key.pem (an agent's state directory takes them as its own).
bool caSignedCertificate(const std::string& dir, const std::string& san, std::string& caPem)
{
    fs::create_directories(dir);
    caPem = dir + "/../ca-" + fs::path(dir).filename().string() + ".pem";
    const std::string caKey = caPem + ".key", csr = dir + "/leaf.csr", ext = dir + "/../san.ext";
    test::writeFile(ext, "subjectAltName=" + san + "\nbasicConstraints=CA:FALSE\n");
    auto ok = [](const std::vector<std::string>& argv) { return test::runProcess(argv, 30'000).exitCode == 0; };
    const bool made = ok({ "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                          "-nodes", "-keyout", caKey, "-out", caPem, "-days", "2", "-subj", "/CN=attack test CA" })
        && ok({ "openssl", "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout",
            dir + "/key.pem", "-out", csr, "-subj", "/CN=evil.example" })
        && ok({ "openssl", "x509", "-req", "-in", csr, "-CA", caPem, "-CAkey", caKey, "-CAcreateserial", "-out",
            dir + "/cert.pem", "-days", "2", "-extfile", ext });
    fs::remove(csr);
    return made;
}

class AgentAttack : public test::NginxTest
{
protected:
    static void SetUpTestSuite()
    {
        test::NginxOptions options;
        options.requestLog = true; // the target's own account of what reached it
        startNginx(options);
    }
    static void TearDownTestSuite() { stopNginx(); }
    static std::string url(const std::string& host = "127.0.0.1", const std::string& path = "/")
    {
        return "http://" + host + ":" + std::to_string(nginx().port()) + path;
    }
    /// A small valid configuration, with `extra` members added.
    static std::string config(const std::string& extra = {}, const std::string& target = url())
    {
        return "{\"config\":{\"url\":\"" + target + "\",\"connections\":1,\"threads\":1,\"duration_us\":1000000"
            + (extra.empty() ? "" : "," + extra) + "}}";
    }
};

} // namespace

// 1. ~70,000 nested arrays crashed the agent (stack overflow re-serialising them), before the
// request was even logged. Refused now before any parser sees it, in every body that is JSON.
TEST_F(AgentAttack, DeepNestingIsRefusedWithoutACrashAndLoggedFirst)
{
    test::TempDir dir;
    Agent agent(dir, "a");
    ASSERT_FALSE(agent.address().empty()) << agent.log();
    const std::string deep = std::string(70'000, '[') + std::string(70'000, ']');
    const auto [run, runBody] = send(agent, post(agent, "/v1/runs", config("\"x\":" + deep)));
    EXPECT_EQ(run, 400) << runBody;
    EXPECT_NE(runBody.find("nests deeper"), std::string::npos) << runBody;
    const auto [probe, probeBody]
        = send(agent, post(agent, "/v1/probe", "{\"url\":\"" + url() + "\",\"x\":" + deep + "}"));
    EXPECT_EQ(probe, 400) << probeBody;
    const auto [start, startBody] = send(agent, post(agent, "/v1/runs/r-1-1/start", deep));
    EXPECT_EQ(start, 404) << startBody; // no such run: refused before its body is read as JSON
    // Brackets inside a string are data, not nesting (this configuration fails on its threads).
    const auto [inString, inStringBody]
        = send(agent, post(agent, "/v1/runs", config("\"label\":\"" + std::string(1000, '[') + "\",\"threads\":0")));
    EXPECT_EQ(inString, 400) << inStringBody;
    EXPECT_EQ(inStringBody.find("nests deeper"), std::string::npos) << inStringBody;
    ASSERT_TRUE(agent.alive()) << agent.log();
    // The request was on record before it was handled.
    const std::string log = agent.log();
    EXPECT_NE(log.find("POST /v1/runs received"), std::string::npos) << log;
    EXPECT_NE(log.find("POST /v1/runs 400"), std::string::npos) << log;
}

// 2. With --agent-cacert, any certificate the CA signed was taken: a server with one for
// evil.example got the bearer token. The agent's name or address must be in it.
TEST_F(AgentAttack, ACaSignedCertificateForAnotherHostGetsNoToken)
{
    test::TempDir dir;
    std::string ca;
    ASSERT_TRUE(caSignedCertificate(dir.file("a"), "DNS:evil.example", ca));
    Agent agent(dir, "a"); // serves evil.example's certificate, signed by the CA
    ASSERT_FALSE(agent.address().empty()) << agent.log();
    const auto r = test::runCli({ "--on", "agents", agent.address(), "--agent-token-file", agent.tokenFile(),
                                    "--agent-cacert", ca, "-c1", "-t1", "-n", "100", url() },
        60'000);
    EXPECT_NE(r.exitCode, 0) << r.out;
    EXPECT_NE(r.err.find("not trusted"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("mismatch"), std::string::npos) << r.err;
    // Not a single request reached the agent: the handshake ended before the head was sent.
    EXPECT_EQ(agent.log().find("/v1/"), std::string::npos) << agent.log();
    AgentClient client(AgentEndpoint { "evil", agent.address(), agent.token(), {}, ca });
    auto health = client.call("GET", "/v1/health", {}, 10'000'000);
    EXPECT_FALSE(health) << health->status;
    EXPECT_TRUE(agent.alive());
}

// 3. Header names and values, a mix entry's method and a Content-Length that disagrees with
// the body came from the network unchecked, and the loader (or the probe) sent them as
// they were: a second request of the sender's choosing on the target.
TEST_F(AgentAttack, ConfigurationsThatSmuggleRequestsAreRefused)
{
    test::TempDir dir;
    Agent agent(dir, "a");
    ASSERT_FALSE(agent.address().empty()) << agent.log();
    const std::string smuggled = "GET /SMUGGLED HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n";
    const std::vector<std::string> configs = {
        config("\"headers\":[{\"name\":\"X-A\",\"value\":\"a\\r\\n\\r\\n" + smuggled + "\"}]"),
        config("\"headers\":[{\"name\":\"X-A: b\\r\\n\\r\\n" + smuggled + "X\",\"value\":\"c\"}]"),
        config("\"headers\":[{\"name\":\"X-A\",\"value\":\"a\\u0000b\"}]"),
        config("\"method\":\"POST\",\"headers\":[{\"name\":\"Content-Length\",\"value\":\"0\"}],\"body\":\"" + smuggled
            + "\""),
        config("\"method\":\"POST\",\"headers\":[{\"name\":\"Transfer-Encoding\",\"value\":\"chunked\"}],\"body\":\""
            + std::string("0\\r\\n\\r\\n") + smuggled + "\""),
        config("\"mix\":{\"entries\":[{\"method\":\"GET " + url("127.0.0.1", "/SMUGGLED")
            + " HTTP/1.1\\r\\nX-A:\",\"url\":\"" + url() + "\"}]}"),
        config("\"mix\":{\"entries\":[{\"method\":\"GET\",\"url\":\"" + url()
            + "\",\"headers\":[{\"name\":\"X-B\",\"value\":\"b\\r\\n" + smuggled + "\"}]}]}"),
    };
    for (const std::string& body : configs) {
        const auto [status, answer] = send(agent, post(agent, "/v1/runs", body));
        EXPECT_EQ(status, 400) << body << " -> " << answer;
    }
    const auto [probe, probeBody] = send(agent,
        post(agent, "/v1/probe",
            "{\"url\":\"" + url() + "\",\"method\":\"GET /SMUGGLED HTTP/1.1\\r\\nX-A: b\",\"headers\":[]}"));
    EXPECT_EQ(probe, 400) << probeBody;
    const auto [probeHeader, probeHeaderBody] = send(agent,
        post(agent, "/v1/probe",
            "{\"url\":\"" + url() + "\",\"method\":\"POST\",\"headers\":[\"Content-Length: 0\"],\"body\":\"" + smuggled
                + "\"}"));
    EXPECT_EQ(probeHeader, 400) << probeHeaderBody;
    EXPECT_EQ(agent.runs().size(), 0u); // nothing started
    // A loader given such a configuration by any coordinator (a pod's ConfigMap) refuses it too.
    const std::string first = configs.front();
    test::writeFile(dir.file("smuggling.json"), first.substr(10, first.size() - 11)); // the "config" object
    fs::create_directories(dir.file("control"));
    const auto loader = test::runCli(
        { "loader", "--config", dir.file("smuggling.json"), "--shard", "0/1", "--control-dir", dir.file("control") });
    EXPECT_EQ(loader.exitCode, 2) << loader.out << loader.err;
    EXPECT_NE(loader.out.find("\"failed\""), std::string::npos) << loader.out;
    EXPECT_NE(loader.err.find("CR, LF or NUL"), std::string::npos) << loader.err;
    EXPECT_EQ(nginx().requestLog().find("SMUGGLED"), std::string::npos) << nginx().requestLog();
    EXPECT_TRUE(agent.alive());
}

// 4. 200 connections that never finish their handshake held all 128 slots (10 s each), the
// token was only checked after the whole body, and every refusal was a log line.
TEST_F(AgentAttack, SlowConnectionsFromOneAddressDoNotStarveTheAgent)
{
    test::TempDir dir;
    Agent agent(dir, "a", "127.0.0.1", "127.0.0.1", { "--head-timeout", "5s" }); // the default deadlines
    ASSERT_FALSE(agent.address().empty()) << agent.log();
    std::vector<int> slow;
    for (int i = 0; i < 200; ++i)
        if (const int fd = connectFrom("127.0.0.5", agent.port(), i % 2 == 1); fd >= 0) slow.push_back(fd);
    ASSERT_GE(slow.size(), 150u);
    // Everyone else is still served while they hang on.
    EXPECT_EQ(agent.health(), 200) << agent.log();
    // A wrong token is refused at the head: not after a 100 KB body that never comes.
    const auto [wrong, wrongBody] = send(agent,
        "POST /v1/runs HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer not-the-token\r\nContent-Length: 100000\r\n\r\n");
    EXPECT_EQ(wrong, 401) << wrongBody;
    EXPECT_EQ(agent.health(), 200);
    for (int fd : slow)
        ::close(fd);
    // Over 190 refused connections, but not a line for each.
    size_t refusedLines = 0;
    for (const std::string& line : test::splitLines(agent.log()))
        refusedLines += line.find(" refused: ") != std::string::npos;
    EXPECT_GE(refusedLines, 1u);
    EXPECT_LT(refusedLines, 40u) << agent.log();
    EXPECT_TRUE(agent.alive());
}

// 5. A name passed --allow when it resolved inside it; the loader and the probe resolved it
// again later. A resolver that answers 127.0.0.1 first and 127.0.0.2 after (LD_PRELOAD into
// the agent and its loaders, tests/support/rebindresolver.cpp) must not move the load.
TEST_F(AgentAttack, ARebindingNameCannotTakeTheLoadOutsideTheAllowlist)
{
    test::TempDir dir;
    Trap trap("127.0.0.2", nginx().port());
    ASSERT_TRUE(trap.ok());
    const std::string lookups = dir.file("lookups");
    const std::string asan = std::getenv("ASAN_OPTIONS") ? std::getenv("ASAN_OPTIONS") : "";
    ::setenv("LD_PRELOAD", WB_REBIND_RESOLVER, 1);
    ::setenv("ASAN_OPTIONS", (asan.empty() ? std::string() : asan + ":").append("verify_asan_link_order=0").c_str(), 1);
    ::setenv("WB_REBIND_NAME", "rebind.test", 1);
    ::setenv("WB_REBIND_FIRST", "127.0.0.1", 1);
    ::setenv("WB_REBIND_THEN", "127.0.0.2", 1);
    ::setenv("WB_REBIND_COUNTER", lookups.c_str(), 1);
    Agent agent(dir, "a", "127.0.0.1", "127.0.0.1");
    for (const char* name :
        { "LD_PRELOAD", "WB_REBIND_NAME", "WB_REBIND_FIRST", "WB_REBIND_THEN", "WB_REBIND_COUNTER" })
        ::unsetenv(name);
    if (asan.empty())
        ::unsetenv("ASAN_OPTIONS");
    else
        ::setenv("ASAN_OPTIONS", asan.c_str(), 1);
    ASSERT_FALSE(agent.address().empty()) << agent.log();

    // A run, driven as the workstation does: start, wait for ready, a common start, the end.
    AgentClient client(agent.endpoint());
    auto started = client.call("POST", "/v1/runs", config("\"responses\":100", url("rebind.test")), 10'000'000);
    ASSERT_TRUE(started) << started.error();
    ASSERT_EQ(started->status, 201) << started->body;
    const std::string id = Json::parse(started->body)["run"];
    const std::string stream = agent.stateDir() + "/runs/" + id + "/stream.jsonl";
    for (int i = 0; i < test::scaledMs(30'000) / 20 && test::readFile(stream).find("\"ready\"") == std::string::npos;
         ++i)
        ::usleep(20'000);
    ASSERT_NE(test::readFile(stream).find("\"ready\""), std::string::npos) << test::readFile(stream) << agent.log();
    auto go = client.call("POST", "/v1/runs/" + id + "/start",
        "{\"start_at_unix_us\":" + std::to_string(wallClockNowMs() * 1000 + 200'000) + "}", 10'000'000);
    ASSERT_TRUE(go);
    ASSERT_EQ(go->status, 204) << go->body;
    Json runs;
    for (int i = 0; i < test::scaledMs(60'000) / 50; ++i) {
        runs = agent.runs();
        if (runs.size() == 1 && runs[0]["state"] != "running") break;
        ::usleep(50'000);
    }
    ASSERT_EQ(runs.size(), 1u);
    ASSERT_EQ(runs[0]["state"], "finished") << runs << test::readFile(stream);
    EXPECT_GT(agent.result(id)["summary"]["requests"].get<uint64_t>(), 0u);
    EXPECT_EQ(test::readFile(lookups).size(), 1u); // the agent's one lookup; the loader asked nobody
    EXPECT_EQ(trap.accepted(), 0u);

    // The probe: curl is handed the pinned address and refuses any other.
    fs::resize_file(lookups, 0);
    auto probe = client.call("POST", "/v1/probe", "{\"url\":\"" + url("rebind.test") + "\"}", 30'000'000);
    ASSERT_TRUE(probe) << probe.error();
    EXPECT_EQ(probe->status, 200) << probe->body;
    EXPECT_EQ(test::readFile(lookups).size(), 1u);
    EXPECT_EQ(trap.accepted(), 0u);
    EXPECT_TRUE(agent.alive());
}

// 6. Numbers that wrapped or were never capped: warm-up + duration past 2^64, a billion
// connections, a start in the year 2286.
TEST_F(AgentAttack, LimitsHoldWithoutWrappingAndOperatorCapsApply)
{
    test::TempDir dir;
    Agent agent(dir, "a", "127.0.0.1", "127.0.0.1",
        { "--max-duration", "2s", "--max-connections", "100", "--max-threads", "4", "--max-rate", "1000",
            "--max-start-ahead", "1m" });
    ASSERT_FALSE(agent.address().empty()) << agent.log();
    const std::string u = url();
    auto raw = [&](const std::string& members) {
        return send(agent, post(agent, "/v1/runs", "{\"config\":{\"url\":\"" + u + "\"," + members + "}}"));
    };
    // 18446744073709551000 + 1000616 is 1,000,000 modulo 2^64: "1 s" to a wrapping sum.
    const auto [wrap, wrapBody] = raw("\"threads\":1,\"connections\":1,\"warmup_us\":18446744073709551000,"
                                      "\"duration_us\":1000616");
    EXPECT_EQ(wrap, 400) << wrapBody;
    const auto [near, nearBody] = raw("\"threads\":1,\"connections\":1,\"warmup_us\":9223372036854775000,"
                                      "\"duration_us\":9223372036854775000");
    EXPECT_EQ(near, 403) << nearBody;
    const auto [stages, stagesBody] = raw("\"threads\":1,\"connections\":1,\"stages\":[{\"duration_us\":"
                                          "9223372036854775000,\"target\":1},{\"duration_us\":9223372036854775000,"
                                          "\"target\":1}]");
    EXPECT_EQ(stages, 403) << stagesBody;
    const auto [floatCount, floatBody] = raw("\"threads\":1,\"connections\":1e9,\"duration_us\":1000000");
    EXPECT_EQ(floatCount, 400) << floatBody;
    const auto [negative, negativeBody] = raw("\"threads\":1,\"connections\":-1,\"duration_us\":1000000");
    EXPECT_EQ(negative, 400) << negativeBody;
    const auto [billion, billionBody] = raw("\"threads\":1,\"connections\":1000000000,\"duration_us\":1000000");
    EXPECT_EQ(billion, 403) << billionBody;
    EXPECT_NE(billionBody.find("--max-connections"), std::string::npos) << billionBody;
    const auto [truncated, truncatedBody] = raw("\"threads\":1,\"connections\":4294967297,\"duration_us\":1000000");
    EXPECT_EQ(truncated, 400) << truncatedBody; // not read as 1 connection
    const auto [threads, threadsBody] = raw("\"threads\":16,\"connections\":16,\"duration_us\":1000000");
    EXPECT_EQ(threads, 403) << threadsBody;
    const auto [rate, rateBody] = raw("\"threads\":1,\"connections\":1,\"duration_us\":1000000,\"rate_per_s\":1e6");
    EXPECT_EQ(rate, 403) << rateBody;
    const auto [infinite, infiniteBody]
        = raw("\"threads\":1,\"connections\":1,\"duration_us\":1000000,\"rate_per_s\":1e999");
    EXPECT_EQ(infinite, 400) << infiniteBody;
    EXPECT_EQ(agent.runs().size(), 0u);

    // A run within the caps starts; a start in 2286, or an hour ahead, is refused.
    AgentClient client(agent.endpoint());
    auto ok = client.call("POST", "/v1/runs", config(), 10'000'000);
    ASSERT_TRUE(ok);
    ASSERT_EQ(ok->status, 201) << ok->body;
    const std::string id = Json::parse(ok->body)["run"];
    for (const std::string& at :
        { std::string("9999999999000000"), std::to_string(wallClockNowMs() * 1000 + 3'600'000'000),
            std::string("18446744073709551615"), std::string("-5"), std::string("1e300") }) {
        auto start = client.call("POST", "/v1/runs/" + id + "/start", "{\"start_at_unix_us\":" + at + "}", 10'000'000);
        ASSERT_TRUE(start);
        EXPECT_EQ(start->status, 400) << at << ": " << start->body;
    }
    auto stop = client.call("POST", "/v1/runs/" + id + "/stop", {}, 10'000'000);
    ASSERT_TRUE(stop);
    EXPECT_EQ(stop->status, 204);
    EXPECT_TRUE(agent.alive());
}

// 7. The token printed at first start (into the journal), CBC suites in TLS 1.2, files of the
// state directory readable by others. (A workstation whose only loader died exits 1:
// AgentCli.AnAgentKilledMidRunLeavesAPartialRunWithItsIntervals.)
TEST_F(AgentAttack, NoTokenInTheLogNoCbcAndPrivateFiles)
{
    test::TempDir dir;
    Agent agent(dir, "a");
    ASSERT_FALSE(agent.address().empty()) << agent.log();
    ASSERT_FALSE(agent.token().empty());
    EXPECT_EQ(agent.log().find(agent.token()), std::string::npos) << agent.log();
    EXPECT_NE(agent.log().find(agent.stateDir() + "/token"), std::string::npos) << agent.log();

    auto handshake = [&](const char* ciphers) {
        SSL_CTX* ctx = SSL_CTX_new(TLS_client_method());
        SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
        SSL_CTX_set_max_proto_version(ctx, TLS1_2_VERSION);
        SSL_CTX_set_cipher_list(ctx, ciphers);
        SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, nullptr);
        bool ok = false;
        {
            auto channel = TlsChannel::connect(ctx, "127.0.0.1", agent.port(), monotonicNowUs() + 10'000'000);
            ok = static_cast<bool>(channel);
        }
        SSL_CTX_free(ctx);
        return ok;
    };
    EXPECT_FALSE(handshake("ECDHE-ECDSA-AES128-SHA:ECDHE-ECDSA-AES256-SHA:ECDHE-ECDSA-AES128-SHA256"));
    EXPECT_TRUE(handshake("ECDHE-ECDSA-AES128-GCM-SHA256"));
    EXPECT_TRUE(handshake("ECDHE-ECDSA-CHACHA20-POLY1305"));

    // A run leaves its files (config, stream, result) in the state directory: none of them,
    // nor anything else there, is readable by group or others.
    const auto r = test::runCli({ "--on", "agents", agent.address(), "--agent-token-file", agent.tokenFile(),
                                    "--agent-fingerprint", agent.fingerprint(), "-c1", "-t1", "-n", "100", url() },
        60'000);
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    size_t files = 0;
    for (const auto& entry : fs::recursive_directory_iterator(agent.stateDir())) {
        struct stat info
        { };
        ASSERT_EQ(::stat(entry.path().c_str(), &info), 0);
        EXPECT_EQ(info.st_mode & 077, 0u) << entry.path() << " mode " << std::oct << (info.st_mode & 0777);
        files += entry.is_regular_file();
    }
    EXPECT_GE(files, 6u); // cert, key, token, a run's config, stream and result
    EXPECT_TRUE(agent.alive());
}

// A Lua script can run any command on the loader's machine: a run that carries one is refused
// unless the agent's operator started it with --allow-scripts.
TEST_F(AgentAttack, RunsWithAScriptAreRefusedByDefault)
{
    test::TempDir dir;
    Agent agent(dir, "a");
    ASSERT_FALSE(agent.address().empty()) << agent.log();
    const auto [status, body] = send(agent,
        post(agent, "/v1/runs",
            "{\"config\":{\"url\":\"" + url()
                + "\",\"threads\":1,\"connections\":1,\"duration_us\":1000000,\"script\":{\"name\":\"x.lua\","
                  "\"text\":\"os.execute('touch /tmp/pwned')\",\"args\":[]}}}"));
    EXPECT_EQ(status, 403) << body;
    EXPECT_NE(body.find("this agent does not run scripts; start it with --allow-scripts"), std::string::npos) << body;
    EXPECT_EQ(agent.runs().size(), 0u);
}
