// --requests as users run it: a mix file against a real nginx, the per-entry table
// and JSON, the stored run, and every bad file refused in one line before any load.

#include "nginx.h"
#include "requirenginx.h"
#include "store/sessionstore.h"
#include "testsupport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace wb;

namespace {

class MixCli : public test::NginxTest
{
protected:
    static void SetUpTestSuite() { startNginx(); }
    static void TearDownTestSuite() { stopNginx(); }
    void SetUp() override
    {
        NginxTest::SetUp();
        if (IsSkipped() || HasFatalFailure()) return;
        m_origin = "http://127.0.0.1:" + std::to_string(nginx().port());
    }
    std::string mixFile(const std::string& name, const std::string& text)
    {
        const std::string path = m_dir.file(name);
        test::writeFile(path, text);
        return path;
    }
    // One line on stderr naming the problem, exit 2, nothing run.
    static void expectRefused(const test::ProcessResult& r, const std::string& message)
    {
        EXPECT_EQ(r.exitCode, 2) << r.err;
        EXPECT_EQ(r.err, "wrkbench-cli: error: " + message + "\n");
        EXPECT_EQ(r.out, "");
    }

    test::TempDir m_dir;
    std::string m_origin;
};

} // namespace

TEST_F(MixCli, JsonLinesMixIsReportedEntryByEntryAndStored)
{
    const std::string mix = mixFile("mix.jsonl",
        "{\"url\": \"" + m_origin + "/mix/a\", \"weight\": 2}\n{\"method\": \"POST\", \"url\": \"" + m_origin
            + "/mix/b\", \"body\": \"{}\", \"headers\": {\"Content-Type\": \"application/json\"}}\n{\"url\": \""
            + m_origin + "/status/500\"}\n");
    const std::string db = m_dir.file("s.wrkbench");
    const auto r = test::runCli({ "-t1", "-c3", "-d1s", "-n", "300", "--requests", mix, "--mix-order", "weighted",
        "--seed", "5", "--json", "-", "--db", db, "--target", "api" });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.err.find("Running 1s test @ " + mix + " (" + m_origin + "/)"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("  Ends after 300 responses, or at 1s\n"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("  Request mix " + mix + ": 3 entries, weighted\n"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("      2  POST /mix/b "), std::string::npos) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["entries"].size(), 3u);
    uint64_t sum = 0;
    for (const auto& e : j["entries"])
        sum += e["requests"].get<uint64_t>();
    EXPECT_EQ(sum, j["summary"]["requests"].get<uint64_t>());
    EXPECT_EQ(j["entries"][2]["non2xx"], j["entries"][2]["requests"]);
    EXPECT_EQ(j["entries"][1]["method"], "POST");
    EXPECT_EQ(j["mix"]["seed"], 5);

    // The session keeps the mix (in the run's configuration) and what each entry got.
    auto store = SessionStore::open(db);
    ASSERT_TRUE(store.ok()) << store.error();
    auto runs = (*store)->runs().list();
    ASSERT_TRUE(runs.ok() && runs->size() == 1u);
    auto data = (*store)->runs().load(runs->front().id);
    ASSERT_TRUE(data.ok()) << data.error();
    ASSERT_EQ(data->run.config.mix.entries.size(), 3u);
    EXPECT_EQ(data->run.config.mix.entries[1].request.body, "{}");
    EXPECT_EQ(data->run.config.mix.order, MixOrder::Weighted);
    ASSERT_EQ(data->entries.size(), 3u);
    for (size_t i = 0; i < 3; ++i) {
        EXPECT_EQ(data->entries[i].requests, j["entries"][i]["requests"].get<uint64_t>());
        ASSERT_TRUE(data->entries[i].latency);
        EXPECT_EQ(data->entries[i].latency->count(), data->entries[i].requests);
    }
}

TEST_F(MixCli, BadMixesAreRefusedInOneLine)
{
    const std::string o = m_origin;
    expectRefused(test::runCli({ "--requests", m_dir.file("none.txt") }),
        "cannot read request mix " + m_dir.file("none.txt") + ": No such file or directory");
    const std::string typo = mixFile("typo.txt", "GET " + o + "/a\n\nGTE " + o + "/b\n");
    expectRefused(test::runCli({ "--requests", typo }),
        typo + ":3: unknown method 'GTE' (use GET, HEAD, POST, PUT, DELETE, PATCH, OPTIONS or TRACE)");
    const std::string two = mixFile("two.txt", "GET " + o + "/a\n\nGET http://127.0.0.2:9/b\n");
    const auto r = test::runCli({ "--requests", two });
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(r.err.rfind("wrkbench-cli: error: " + two + ":3: http://127.0.0.2:9", 0), 0u) << r.err;
    EXPECT_EQ(test::splitLines(r.err).size(), 1u);
    const std::string empty = mixFile("empty.txt", "# nothing\n\n");
    expectRefused(test::runCli({ "--requests", empty }), empty + ": no requests in the mix");
    const std::string ok = mixFile("ok.txt", "GET " + o + "/mix/a\n");
    expectRefused(test::runCli({ "--requests", ok, o + "/" }),
        "give either a URL or --requests FILE (its entries carry their URLs), not both");
    expectRefused(test::runCli({ "--requests", ok, "-X", "POST" }),
        "-X, --body and --body-file do not combine with --requests: each entry of the mix has its own");
    expectRefused(test::runCli({ "--requests", ok, "--mix-order", "shuffled" }),
        "unknown request order 'shuffled' (use round-robin, random or weighted)");
    expectRefused(test::runCli({ "-d1s" }), "a URL is required (or --requests FILE)");
}
