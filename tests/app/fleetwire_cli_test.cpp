// What a distributed run sends and what it counts, checked against the target's own
// log: loaders started by --loaders, pods of the stand-in kubectl
// (tests/support/fake-kubectl) and a real agent must send the user's body byte for byte
// (not UTF-8 text), keep a request mix's entries, and count every request the target
// served (nginx's access log), apart from the requests still in flight when the run ended.

#include "nginx.h"
#include "store/sessionstore.h"
#include "testagent.h"
#include "testsupport.h"

#include <cstdlib>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/stat.h>
#include <unistd.h>

using namespace wb;
using Json = nlohmann::json;

namespace {

// The body of the report that found the bug: an overlong '/' and a UTF-16 surrogate.
const std::string NOT_UTF8 = std::string("\x61\xc0\xaf\x62\xed\xa0\x80\x63", 8);

std::string hex(const std::string& bytes)
{
    static constexpr char DIGITS[] = "0123456789abcdef";
    std::string out;
    for (const char c : bytes) {
        const auto b = static_cast<unsigned char>(c);
        out += { DIGITS[b >> 4], DIGITS[b & 15], ' ' };
    }
    return out;
}

class FleetWire : public ::testing::Test
{
protected:
    void SetUp() override
    {
        if (!test::Nginx::available()) {
            if (test::underCi()) FAIL() << "nginx is missing, and CI must run this test";
            GTEST_SKIP() << "nginx is not installed";
        }
        ::mkdir(m_dir.file("kube").c_str(), 0700);
        ::setenv("FAKE_KUBECTL_STATE", m_dir.file("kube").c_str(), 1);
        ::setenv("FAKE_KUBECTL_CLI", test::cliPath().c_str(), 1);
    }
    std::string fakeKubectl() const { return test::sourceDir() + "/tests/support/fake-kubectl"; }
    /// The flags that place the loaders: local children, pods of the stand-in kubectl, or the agent.
    std::vector<std::string> placement(const std::string& where)
    {
        if (where == "local") return { "--loaders", "2" };
        if (where == "kubernetes") return { "--loaders", "2", "--on", "kubernetes", "--kubectl", fakeKubectl() };
        if (!m_agent) m_agent = std::make_unique<test::Agent>(m_dir, "agent");
        EXPECT_FALSE(m_agent->address().empty()) << m_agent->log();
        return { "--on", "agents", m_agent->address(), "--agent-token-file", m_agent->tokenFile(),
            "--agent-fingerprint", m_agent->fingerprint() };
    }
    test::ProcessResult run(const std::string& where, std::vector<std::string> args)
    {
        std::vector<std::string> all = placement(where);
        all.insert(all.end(), args.begin(), args.end());
        all.insert(all.begin(), "run");
        return test::runCli(all, 120'000);
    }
    test::TempDir m_dir;
    std::unique_ptr<test::Agent> m_agent;
};

class EveryPlacement : public FleetWire, public ::testing::WithParamInterface<std::string>
{ };

} // namespace

// Bodies are bytes: every request the loaders sent carried the file's bytes exactly.
TEST_P(EveryPlacement, LoadersSendTheBodyBytesTheUserGave)
{
    test::Nginx nginx;
    test::NginxOptions options;
    options.bodyLog = true;
    ASSERT_TRUE(nginx.start(options)) << nginx.log();
    test::writeFile(m_dir.file("body.bin"), NOT_UTF8);
    const auto r = run(GetParam(),
        { "-t1", "-c2", "-n", "100", "-X", "POST", "--body-file", m_dir.file("body.bin"), "--db",
            m_dir.file("s.wrkbench"), "http://127.0.0.1:" + std::to_string(nginx.port()) + "/body" });
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    const std::vector<std::string> bodies = nginx.bodyLog();
    ASSERT_FALSE(bodies.empty()) << nginx.log();
    size_t same = 0;
    for (const std::string& b : bodies)
        same += b == NOT_UTF8;
    EXPECT_EQ(same, bodies.size()) << "a body nginx got: " << hex(bodies.front());
    // And the session keeps the bytes: the stored configuration reads back the same body.
    auto store = SessionStore::open(m_dir.file("s.wrkbench"));
    ASSERT_TRUE(store) << store.error();
    auto runs = (*store)->runs().list({});
    ASSERT_TRUE(runs && runs->size() == 1);
    EXPECT_EQ(hex(runs->front().config.request.body), hex(NOT_UTF8));
}

// Count what you send: nginx served exactly what the run counted, plus the warm-up it
// reported, plus at most the requests in flight when it ended (one per connection).
TEST_P(EveryPlacement, TheTargetServesWhatTheRunCounts)
{
    test::Nginx nginx;
    test::NginxOptions options;
    options.requestLog = true;
    ASSERT_TRUE(nginx.start(options)) << nginx.log();
    const unsigned connections = 4;
    const auto r = run(GetParam(),
        { "-t1", "-c" + std::to_string(connections), "-n", "400", "--json", "-",
            "http://127.0.0.1:" + std::to_string(nginx.port()) + "/" });
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    const Json j = Json::parse(r.out);
    const uint64_t counted = j["summary"]["requests"].get<uint64_t>();
    const uint64_t warmup = j["summary"]["warmup_requests"].get<uint64_t>();
    const uint64_t served = nginx.requestLines(counted + warmup).size();
    ASSERT_GT(counted, 0u);
    EXPECT_EQ(counted, 400u) << "-n: the loaders' shares add up to it";
    EXPECT_EQ(warmup, 0u) << "no --warmup was asked for";
    EXPECT_GE(served, counted + warmup);
    EXPECT_LE(served, counted + warmup + connections)
        << "nginx served " << served << ", the run counted " << counted << " and " << warmup << " warm-up";
}

// A warm-up is load too: counted apart and said, never silently added.
TEST_P(EveryPlacement, AWarmUpIsCountedAndReported)
{
    test::Nginx nginx;
    test::NginxOptions options;
    options.requestLog = true;
    ASSERT_TRUE(nginx.start(options)) << nginx.log();
    const unsigned connections = 2;
    const auto r = run(GetParam(),
        { "-t1", "-c" + std::to_string(connections), "-d1s", "--warmup", "1s", "--json", "-",
            "http://127.0.0.1:" + std::to_string(nginx.port()) + "/" });
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    const Json j = Json::parse(r.out);
    const uint64_t counted = j["summary"]["requests"].get<uint64_t>();
    const uint64_t warmup = j["summary"]["warmup_requests"].get<uint64_t>();
    const uint64_t served = nginx.requestLines(counted + warmup).size();
    EXPECT_GT(warmup, 0u);
    EXPECT_GE(served, counted + warmup);
    EXPECT_LE(served, counted + warmup + connections);
    EXPECT_NE(r.err.find("warm-up"), std::string::npos) << r.err;
}

INSTANTIATE_TEST_SUITE_P(Loaders, EveryPlacement, ::testing::Values("local", "kubernetes", "agent"));

// A mix over loaders keeps its entries: each entry's requests, status codes and latency,
// adding up to the run, as one process shows them.
TEST_F(FleetWire, AMixOverLoadersKeepsItsEntries)
{
    test::writeFile(
        m_dir.file("mix.jsonl"), "{\"url\": \"http://builtin/\"}\n{\"url\": \"http://builtin/status/404\"}\n");
    for (const std::string& loaders : { std::string("1"), std::string("2") }) {
        SCOPED_TRACE(loaders + " loaders");
        std::vector<std::string> args = { "run", "-t1", "-c4", "-n", "400", "--requests", m_dir.file("mix.jsonl"),
            "--json", "-", "--db", m_dir.file("s" + loaders + ".wrkbench") };
        if (loaders != "1") args.insert(args.end(), { "--loaders", loaders });
        const auto r = test::runCli(args, 60'000);
        ASSERT_EQ(r.exitCode, 0) << r.err;
        const Json j = Json::parse(r.out);
        ASSERT_EQ(j["entries"].size(), 2u);
        const Json& root = j["entries"][0];
        const Json& missing = j["entries"][1];
        EXPECT_GT(root["requests"].get<uint64_t>(), 0u);
        EXPECT_GT(missing["requests"].get<uint64_t>(), 0u);
        EXPECT_EQ(root["status_codes"]["200"], root["requests"]);
        EXPECT_EQ(missing["status_codes"]["404"], missing["requests"]);
        EXPECT_EQ(missing["non2xx"], missing["requests"]);
        EXPECT_TRUE(root.contains("latency_us"));
        EXPECT_EQ(root["requests"].get<uint64_t>() + missing["requests"].get<uint64_t>(),
            j["summary"]["requests"].get<uint64_t>());
        // Round-robin: the two entries take turns on every connection.
        const auto a = root["requests"].get<int64_t>(), b = missing["requests"].get<int64_t>();
        EXPECT_LE(std::abs(a - b), 4 * 2) << a << " and " << b;
    }
}

TEST_F(FleetWire, ZeroLoadersIsRefused)
{
    const auto r = test::runCli({ "run", "--loaders", "0", "-d1s", "http://builtin/" });
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("--loaders 0"), std::string::npos) << r.err;
    EXPECT_EQ(r.out.find("loaders"), std::string::npos) << r.out;
}
