// `wrkbench-cli capacity` against targets whose capacity is known in advance and decided by
// nothing of ours on the client side: nginx's own limit_req on loopback, and the built-in server's
// --capacity (503 beyond the rate for an errors SLO, a queue for a latency SLO). Two targets of
// known capacities compared, and a loader starved on purpose, which must never yield a capacity.
// Trials are short (0.5 s, final 1 s); nothing asserts a time. A search whose answer is off on a
// machine that paused the test (a hypervisor's steal: tests/support/pausemeter.h) or whose loader the
// search itself found late is made again once, and then skipped with the figures, its output checked
// for honesty (no capacity claimed on a loader that could not make the rate).

#include "nginx.h"
#include "pausemeter.h"
#include "requirenginx.h"
#include "serve/targetserver.h"
#include "store/sessionstore.h"
#include "testagent.h"
#include "testsupport.h"

#include <chrono>
#include <cmath>
#include <csignal>
#include <filesystem>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <regex>
#include <thread>

using namespace wb;

namespace {

constexpr int SEARCH_TIMEOUT_MS = 240'000; // a bound on a broken search, not a measurement

std::vector<std::string> quickSearch(std::vector<std::string> args)
{
    std::vector<std::string> all { "capacity", "--trial", "500ms", "--final", "1s", "--repeat", "2" };
    all.insert(all.end(), args.begin(), args.end());
    return all;
}

class KnownCapacity
{
public:
    explicit KnownCapacity(double ratePerS, bool queue = false)
    {
        TargetServerOptions o;
        o.capacityPerS = ratePerS;
        o.capacityQueue = queue;
        m_server = std::make_unique<TargetServer>(o);
        m_ok = m_server->start().ok();
    }
    bool ok() const { return m_ok; }
    std::string url() const { return "http://127.0.0.1:" + std::to_string(m_server->port()) + "/"; }

private:
    std::unique_ptr<TargetServer> m_server;
    bool m_ok = false;
};

/// The capacity found is near the expected one and decided by the target (expectCapacityNear's gist).
bool capacityIsNear(const nlohmann::json& capacity, double expected)
{
    return capacity["rate_per_s"].is_number() && capacity["limited_by"] == "target"
        && std::abs(capacity["rate_per_s"].get<double>() - expected) <= expected * 0.05;
}

/// A search's output, parsed, and what disturbed the machine meanwhile.
struct Search
{
    test::ProcessResult r;
    nlohmann::json doc;
    test::Pauses pauses;
    bool good = false; ///< the answer the test expects
    /// The machine paused the test, or the search itself found its loader late or stalled in a
    /// trial (a loader-limited trial: the CLI's own measurement of its sends, which sees a stall of
    /// the CLI's process that the test's pause meter, in another process, may not).
    bool disturbed = false;
};

bool anyTrialLoaderLimited(const nlohmann::json& doc)
{
    if (doc.is_discarded()) return false;
    for (const auto& c : doc.contains("targets") ? doc["targets"] : nlohmann::json::array({ doc }))
        if (c.contains("capacity") && c["capacity"].contains("trials"))
            for (const auto& t : c["capacity"]["trials"])
                if (t.value("loader_limited", false)) return true;
    return false;
}

/// Runs a search, and once more when its answer is not good(doc) and the machine disturbed it.
/// (A resumed search is run once, with its own options: a second try would find it ended.)
template<class Good> Search runSearch(const std::vector<std::string>& args, const Good& good, bool resumed = false)
{
    const auto parsed = [](const test::ProcessResult& p) {
        return nlohmann::json::parse(p.out, nullptr, false); // discarded (not an exception) when not JSON
    };
    const auto disturbed = [&](const test::ProcessResult& p, const test::Pauses& pauses) {
        return pauses.material() || anyTrialLoaderLimited(parsed(p));
    };
    auto [r, pauses] = test::untilUndisturbed(
        [&] { return test::runCli(resumed ? args : quickSearch(args), SEARCH_TIMEOUT_MS); },
        [&](const test::ProcessResult& p) { return p.exitCode == 0 && good(parsed(p)); }, disturbed, resumed ? 1 : 2);
    Search s { std::move(r), {}, pauses, false, false };
    s.doc = parsed(s.r);
    s.good = s.r.exitCode == 0 && good(s.doc);
    s.disturbed = disturbed(s.r, s.pauses);
    return s;
}

/// A search the machine disturbed into another answer still claims nothing it did not measure: it
/// ends with a capacity (exit 0) or limited by the loader (exit 5) and no capacity. True: skip it.
bool pausedAway(const Search& s)
{
    if (s.good || !s.disturbed) return false;
    EXPECT_TRUE(s.r.exitCode == 0 || s.r.exitCode == 5) << s.r.out << s.r.err;
    EXPECT_FALSE(s.doc.is_discarded()) << s.r.out;
    for (const auto& c : s.doc.contains("targets") ? s.doc["targets"] : nlohmann::json::array({ s.doc }))
        if (c["capacity"]["limited_by"] == "loader") {
            EXPECT_TRUE(c["capacity"]["rate_per_s"].is_null()) << s.r.out;
        }
    return true;
}

/// The capacity found is the configured rate within a few percent, decided by the target.
void expectCapacityNear(const nlohmann::json& capacity, double expected, const std::string& slo)
{
    ASSERT_TRUE(capacity["rate_per_s"].is_number()) << capacity.dump(2);
    const double rate = capacity["rate_per_s"].get<double>();
    EXPECT_NEAR(rate, expected, expected * 0.05) << capacity.dump(2);
    EXPECT_EQ(capacity["limited_by"], "target");
    EXPECT_EQ(capacity["first_failed_slo"], slo);
    EXPECT_EQ(capacity["lower_rps"].get<double>(), rate);
    // Within the precision asked (2%) and on the right side of the answer.
    const double upper = capacity["upper_rps"].get<double>();
    EXPECT_LE(upper / rate - 1, 0.02 + 1e-9);
    // Every trial is in the list with its verdicts; the bracket's ends are among them.
    bool lowerPassed = false, upperFailed = false;
    for (const auto& t : capacity["trials"]) {
        ASSERT_TRUE(t.contains("duration_s") && t.contains("run_id") && t["slo"].is_array());
        lowerPassed |= t["rate"] == rate && t["passed"] == true && t["duration_s"] == 1.0;
        upperFailed |= t["rate"] == upper && t["passed"] == false;
    }
    EXPECT_TRUE(lowerPassed && upperFailed) << capacity.dump(2);
}

} // namespace

TEST(CapacityCli, FindsTheBuiltInServersRateWithAnErrorsSlo)
{
    KnownCapacity target(2000);
    ASSERT_TRUE(target.ok());
    const Search s = runSearch({ "-t1", "-c20", "--slo", "non2xx<0.1%", "--from", "500", "--json", "-", target.url() },
        [](const nlohmann::json& j) { return capacityIsNear(j["capacity"], 2000); });
    if (pausedAway(s)) GTEST_SKIP() << s.pauses.text() << "\n" << s.r.err;
    const auto& r = s.r;
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    expectCapacityNear(s.doc["capacity"], 2000, "non2xx<0.1%");
    // The text (on stderr with --json -) names the capacity and what broke above it.
    EXPECT_NE(r.err.find("capacity 2"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("above it non2xx<0.1% failed first"), std::string::npos) << r.err;
}

// The built-in host's /capacity/N (the demo session's front door of known capacity): no server to
// start, the same answer.
TEST(CapacityCli, TheBuiltInCapacityRouteIsFound)
{
    const Search s = runSearch({ "-t1", "-c10", "--slo", "non2xx<0.1%", "--from", "400", "--precision", "5%", "--json",
                                   "-", "http://builtin/capacity/1000" },
        [](const nlohmann::json& j) { return capacityIsNear(j["capacity"], 1000); });
    if (pausedAway(s)) GTEST_SKIP() << s.pauses.text() << "\n" << s.r.err;
    ASSERT_EQ(s.r.exitCode, 0) << s.r.out << s.r.err;
    EXPECT_TRUE(capacityIsNear(s.doc["capacity"], 1000)) << s.doc.dump(2);
}

TEST(CapacityCli, AQueuedExcessBreaksALatencySlo)
{
    KnownCapacity target(2000, true);
    ASSERT_TRUE(target.ok());
    const Search s = runSearch(
        { "-t1", "-c64", "--slo", "p99<20ms", "--slo", "non2xx<0.1%", "--from", "500", "--json", "-", target.url() },
        [](const nlohmann::json& j) { return capacityIsNear(j["capacity"], 2000); });
    if (pausedAway(s)) GTEST_SKIP() << s.pauses.text() << "\n" << s.r.err;
    ASSERT_EQ(s.r.exitCode, 0) << s.r.out << s.r.err;
    const auto& capacity = s.doc["capacity"];
    // Nothing is refused: the queue makes the latency, not the errors, break.
    expectCapacityNear(capacity, 2000, "p99<20ms");
}

class CapacityNginx : public test::NginxTest
{
protected:
    static void SetUpTestSuite()
    {
        test::NginxOptions o;
        o.limitedRates = { 1500 };
        startNginx(o);
    }
    static void TearDownTestSuite() { stopNginx(); }
};

TEST_F(CapacityNginx, FindsNginxsOwnLimitReqRate)
{
    const std::string url = "http://127.0.0.1:" + std::to_string(nginx().port()) + "/limited/1500";
    const Search s = runSearch({ "-t1", "-c20", "--slo", "non2xx<0.1%", "--from", "400", "--json", "-", url },
        [](const nlohmann::json& j) { return capacityIsNear(j["capacity"], 1500); });
    if (pausedAway(s)) GTEST_SKIP() << s.pauses.text() << "\n" << s.r.err;
    ASSERT_EQ(s.r.exitCode, 0) << s.r.out << s.r.err;
    expectCapacityNear(s.doc["capacity"], 1500, "non2xx<0.1%");
}

TEST(CapacityCli, TwoTargetsComparedWithAnIntervalFromTheirBrackets)
{
    KnownCapacity a(2000), b(1000);
    ASSERT_TRUE(a.ok() && b.ok());
    const Search s
        = runSearch({ "-t1", "-c20", "--slo", "non2xx<0.1%", "--from", "400", "--json", "-", a.url(), b.url() },
            [](const nlohmann::json& j) {
                return j.contains("targets") && j["targets"].size() == 2
                    && capacityIsNear(j["targets"][0]["capacity"], 2000)
                    && capacityIsNear(j["targets"][1]["capacity"], 1000);
            });
    if (pausedAway(s)) GTEST_SKIP() << s.pauses.text() << "\n" << s.r.err;
    const auto& r = s.r;
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    const auto& j = s.doc;
    ASSERT_EQ(j["targets"].size(), 2u);
    EXPECT_EQ(j["targets"][0]["url"], a.url());
    expectCapacityNear(j["targets"][0]["capacity"], 2000, "non2xx<0.1%");
    expectCapacityNear(j["targets"][1]["capacity"], 1000, "non2xx<0.1%");
    // The interval is every ratio the two brackets allow, and holds the configured one.
    const auto& ca = j["targets"][0]["capacity"];
    const auto& cb = j["targets"][1]["capacity"];
    const double low = cb["lower_rps"].get<double>() / ca["upper_rps"].get<double>();
    const double high = cb["upper_rps"].get<double>() / ca["lower_rps"].get<double>();
    EXPECT_DOUBLE_EQ(j["ratio_low"].get<double>(), low);
    EXPECT_DOUBLE_EQ(j["ratio_high"].get<double>(), high);
    EXPECT_DOUBLE_EQ(j["ratio"].get<double>(), cb["rate_per_s"].get<double>() / ca["rate_per_s"].get<double>());
    EXPECT_NEAR(j["ratio"].get<double>(), 0.5, 0.5 * 0.05);
    EXPECT_LT(low, high);
    EXPECT_NE(r.err.find("B carries 0."), std::string::npos) << r.err;
    // The trials alternate: the first trial lines are A, B, A, B.
    const auto lines = test::splitLines(r.err);
    std::string order;
    for (const auto& line : lines)
        if (line.find(" req/s for ") != std::string::npos && order.size() < 4)
            order += line.find(" A ") != std::string::npos ? 'A' : line.find(" B ") != std::string::npos ? 'B' : '?';
    EXPECT_EQ(order, "ABAB") << r.err;
}

// Each trial a distributed run (--loaders 2: two child processes, each with half the rate and the
// connections, merged into one run): the same capacity, and every stored trial made by two loaders.
TEST(CapacityCli, TrialsOverSeveralLoadersFindTheSameCapacity)
{
    KnownCapacity target(1000);
    ASSERT_TRUE(target.ok());
    test::TempDir dir;
    const std::string db = dir.file("loaders.wrkbench");
    const Search s = runSearch({ "-t1", "-c10", "--loaders", "2", "--slo", "non2xx<0.1%", "--from", "400",
                                   "--precision", "5%", "--db", db, "--json", "-", target.url() },
        [](const nlohmann::json& j) { return capacityIsNear(j["capacity"], 1000); });
    if (pausedAway(s)) GTEST_SKIP() << s.pauses.text() << "\n" << s.r.err;
    ASSERT_EQ(s.r.exitCode, 0) << s.r.out << s.r.err;
    // Within 5% (the precision asked: fewer trials, each made by a fleet), decided by the target.
    EXPECT_TRUE(capacityIsNear(s.doc["capacity"], 1000)) << s.doc.dump(2);
    for (const auto& trial : s.doc["capacity"]["trials"]) {
        const auto loaders
            = test::runCli({ "runs", "--db", db, "--loaders", std::to_string(trial["run_id"].get<int64_t>()) });
        ASSERT_EQ(loaders.exitCode, 0) << loaders.err;
        // A header and one line per loader.
        EXPECT_EQ(test::splitLines(loaders.out).size(), 3u) << loaders.out;
    }
}

// Each trial on a remote loader (a real `wrkbench-cli agent` on loopback, pinned by its
// fingerprint): the same capacity, every trial made there.
TEST(CapacityCli, TrialsOnARemoteAgentFindTheSameCapacity)
{
    KnownCapacity target(1000);
    ASSERT_TRUE(target.ok());
    test::TempDir dir;
    test::Agent agent(dir, "a");
    ASSERT_FALSE(agent.address().empty()) << agent.log();
    const std::string db = dir.file("agents.wrkbench");
    const Search s
        = runSearch({ "-t1", "-c10", "--on", "agents", agent.address(), "--agent-token-file", agent.tokenFile(),
                        "--agent-fingerprint", displayFingerprint(agent.fingerprint()), "--slo", "non2xx<0.1%",
                        "--from", "400", "--precision", "5%", "--db", db, "--json", "-", target.url() },
            [](const nlohmann::json& j) { return capacityIsNear(j["capacity"], 1000); });
    if (pausedAway(s)) GTEST_SKIP() << s.pauses.text() << "\n" << s.r.err;
    ASSERT_EQ(s.r.exitCode, 0) << s.r.out << s.r.err << agent.log();
    // Within 5% (the precision asked: fewer trials, each made by a fleet), decided by the target.
    EXPECT_TRUE(capacityIsNear(s.doc["capacity"], 1000)) << s.doc.dump(2);
    for (const auto& trial : s.doc["capacity"]["trials"]) {
        const auto loaders
            = test::runCli({ "runs", "--db", db, "--loaders", std::to_string(trial["run_id"].get<int64_t>()) });
        ASSERT_EQ(loaders.exitCode, 0) << loaders.err;
        const auto lines = test::splitLines(loaders.out);
        ASSERT_EQ(lines.size(), 2u) << loaders.out; // a header and the agent's loader
        EXPECT_NE(lines[1].find("completed"), std::string::npos) << loaders.out;
    }
}

// A wrk script in every trial (-s, as under run): the search is the same, and each stored trial
// keeps what the script's done() printed about that trial.
TEST(CapacityCli, EveryTrialRunsTheScriptAndKeepsWhatItPrinted)
{
    KnownCapacity target(1000);
    ASSERT_TRUE(target.ok());
    test::TempDir dir;
    const std::string script = dir.file("done.lua");
    test::writeFile(script,
        "wrk.headers['X-Search'] = 'capacity'\n"
        "done = function(summary, latency, requests)\n"
        "  io.write(string.format('done: %d requests\\n', summary.requests))\n"
        "end\n");
    const std::string db = dir.file("script.wrkbench");
    const Search s = runSearch({ "-t1", "-c10", "-s", script, "--slo", "non2xx<0.1%", "--from", "400", "--db", db,
                                   "--json", "-", target.url() },
        [](const nlohmann::json& j) { return capacityIsNear(j["capacity"], 1000); });
    if (pausedAway(s)) GTEST_SKIP() << s.pauses.text() << "\n" << s.r.err;
    ASSERT_EQ(s.r.exitCode, 0) << s.r.out << s.r.err;
    expectCapacityNear(s.doc["capacity"], 1000, "non2xx<0.1%");
    EXPECT_EQ(s.r.out.find("done: "), std::string::npos) << "kept with the trials, not printed: " << s.r.out;
    auto store = SessionStore::open(db);
    ASSERT_TRUE(store.ok()) << store.error();
    for (const auto& trial : s.doc["capacity"]["trials"]) {
        auto run = (*store)->runs().record(trial["run_id"].get<int64_t>());
        ASSERT_TRUE(run.ok()) << run.error();
        EXPECT_EQ(run->config.script.name, script);
        EXPECT_EQ(run->scriptOutput, "done: " + std::to_string(run->totals.requests) + " requests\n");
    }
}

// A plan with "search" (two targets in a group, their load in the plan): `experiment` makes the
// same search, stored as a capacity search named after the plan, each trial a run of its named
// target; `capacity --resume` shows the ended search's result.
TEST(CapacityCli, APlansSearchSectionFindsEachTargetsCapacity)
{
    KnownCapacity slow(500), fast(1000);
    ASSERT_TRUE(slow.ok() && fast.ok());
    test::TempDir dir;
    const std::string plan = dir.file("search.json");
    test::writeFile(plan,
        "{\"name\": \"doors\", \"targets\": [{\"name\": \"slow\", \"url\": \"" + slow.url()
            + "\", \"group\": \"small\"}, {\"name\": \"fast\", \"url\": \"" + fast.url()
            + "\", \"group\": \"small\"}], \"load\": {\"threads\": 1, \"connections\": 10}, \"search\": {\"slo\": "
              "[\"non2xx<0.1%\"], \"from\": 200, \"trial\": \"500ms\", \"final\": \"1s\", \"repeat\": 1, "
              "\"precision\": \"5%\"}}");
    const std::string db = dir.file("plan.wrkbench");
    auto [r, pauses] = test::untilUnpaused(
        [&] {
            std::filesystem::remove(db);
            return test::runCli({ "experiment", "-q", "--db", db, plan }, SEARCH_TIMEOUT_MS);
        },
        [&](const test::ProcessResult& p) {
            if (p.exitCode != 0) return false;
            const auto shown = test::runCli({ "capacity", "--db", db, "--resume", "1", "--json", "-" });
            const auto j = nlohmann::json::parse(shown.out, nullptr, false);
            return !j.is_discarded() && capacityIsNear(j["targets"][0]["capacity"], 500)
                && capacityIsNear(j["targets"][1]["capacity"], 1000);
        },
        2);
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    const auto shown = test::runCli({ "capacity", "--db", db, "--resume", "1", "--json", "-" });
    ASSERT_EQ(shown.exitCode, 0) << shown.err;
    const auto j = nlohmann::json::parse(shown.out);
    const bool near
        = capacityIsNear(j["targets"][0]["capacity"], 500) && capacityIsNear(j["targets"][1]["capacity"], 1000);
    if (!near && pauses.material()) GTEST_SKIP() << pauses.text() << "\n" << shown.out;
    EXPECT_TRUE(near) << shown.out;
    const auto listed = test::runCli({ "experiments", "--db", db });
    EXPECT_NE(listed.out.find("capacity  completed"), std::string::npos) << listed.out;
    EXPECT_NE(listed.out.find("doors"), std::string::npos) << listed.out;
    // Each trial a run of the plan's named target.
    const auto runs = test::runCli({ "runs", "--db", db, "--csv" });
    size_t ofSlow = 0, ofFast = 0;
    for (const std::string& line : test::splitLines(runs.out)) {
        ofSlow += line.find(",slow,") != std::string::npos;
        ofFast += line.find(",fast,") != std::string::npos;
    }
    EXPECT_EQ(ofSlow, j["targets"][0]["capacity"]["trials"].size()) << runs.out;
    EXPECT_EQ(ofFast, j["targets"][1]["capacity"]["trials"].size()) << runs.out;
}

TEST(CapacityCli, AStarvedLoaderIsNeverMistakenForTheTarget)
{
    // No limit on the target; the loader has one thread and one connection, so the rate it can
    // make is bounded by one request's round trip at a time, far below what the server answers.
    KnownCapacity unlimited(0);
    ASSERT_TRUE(unlimited.ok());
    const auto r = test::runCli(quickSearch({ "-t1", "-c1", "--slo", "non2xx<0.1%", "--slo", "p99<1s", "--from", "2000",
                                    "--json", "-", unlimited.url() }),
        SEARCH_TIMEOUT_MS);
    EXPECT_EQ(r.exitCode, 5) << r.out << r.err;
    const auto capacity = nlohmann::json::parse(r.out)["capacity"];
    EXPECT_EQ(capacity["limited_by"], "loader") << capacity.dump(2);
    EXPECT_TRUE(capacity["rate_per_s"].is_null());
    EXPECT_TRUE(capacity["upper_rps"].is_null());
    EXPECT_NE(r.err.find("limited by the loader at "), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find(": capacity "), std::string::npos) << r.err;
}

TEST(CapacityCli, CtrlCKeepsTheSearchAndResumeGoesOnFromIt)
{
    KnownCapacity target(2000);
    ASSERT_TRUE(target.ok());
    test::TempDir dir;
    const std::string db = dir.file("lab.wrkbench"), log = dir.file("first.log");
    test::ChildProcess child;
    std::vector<std::string> argv { test::cliPath() };
    for (const std::string& arg : quickSearch(
             { "-t1", "-c20", "--slo", "non2xx<0.1%", "--from", "500", "--db", db, "--tag", "cap", target.url() }))
        argv.push_back(arg);
    ASSERT_TRUE(child.start(argv, log));
    // Three trials made (and stored): Ctrl-C during the fourth or the settling before it.
    const auto trialsStored = [&db]() -> size_t {
        SessionOpenOptions o;
        o.readOnly = true;
        o.create = false; // the search creates it
        auto store = SessionStore::open(db, o);
        if (!store) return 0;
        auto trials = (*store)->experiments().capacityTrials(1);
        return trials ? trials->size() : 0;
    };
    for (int waited = 0; trialsStored() < 3 && waited < SEARCH_TIMEOUT_MS; waited += 50)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    ASSERT_GE(trialsStored(), 3u) << test::readFile(log);
    EXPECT_EQ(child.signalAndWait(SIGINT, 60'000), 130) << test::readFile(log);
    const std::string first = test::readFile(log);
    EXPECT_NE(first.find("go on with: wrkbench-cli capacity --db " + db + " --resume 1"), std::string::npos) << first;
    size_t made = 0;
    {
        SessionOpenOptions o;
        o.readOnly = true;
        auto store = SessionStore::open(db, o);
        ASSERT_TRUE(store.ok()) << store.error();
        auto e = (*store)->experiments().get(1);
        ASSERT_TRUE(e.ok()) << e.error();
        EXPECT_EQ(e->kind, ExperimentKind::Capacity);
        EXPECT_EQ(e->status, ExperimentStatus::Stopped);
        made = (*store)->experiments().capacityTrials(1)->size();
        // Every trial is a run linked to the search, in order; a trial cut short is kept as a run too.
        auto runs = (*store)->experiments().runs(1);
        ASSERT_TRUE(runs.ok());
        EXPECT_GE(runs->size(), made);
        for (size_t i = 0; i < made; ++i)
            EXPECT_EQ((*store)->experiments().capacityTrials(1)->at(i).runId, runs->at(i).id);
    }
    const auto list = test::runCli({ "experiments", "--db", db });
    EXPECT_TRUE(std::regex_search(list.out,
        std::regex("\\n1\\s+capacity\\s+stopped\\s+\\S+ \\S+\\s+" + std::to_string(made) + "\\s+capacity http")))
        << list.out;
    EXPECT_NE(test::runCli({ "experiment", "--db", db, "--resume", "1" }).err.find("is a capacity search"),
        std::string::npos);
    EXPECT_EQ(test::runCli({ "capacity", "--db", db, "--resume", "1", "-c5" }).exitCode, 2) << "its own settings";

    // Resumed: the trials go on from the next number, and the result lists every trial.
    const Search s = runSearch(
        { "capacity", "--db", db, "--resume", "1", "--json", "-" },
        [](const nlohmann::json& j) { return capacityIsNear(j["capacity"], 2000); }, true);
    EXPECT_NE(s.r.err.find("Going on with search 1 in '" + db + "' (" + std::to_string(made) + " trials made)"),
        std::string::npos)
        << s.r.err;
    EXPECT_NE(s.r.err.find("\n  " + std::string(made + 1 < 10 ? "  " : " ") + std::to_string(made + 1) + " "),
        std::string::npos)
        << s.r.err;
    ASSERT_FALSE(s.doc.is_discarded()) << s.r.out;
    const auto& trials = s.doc["capacity"]["trials"];
    SessionOpenOptions o;
    o.readOnly = true;
    auto store = SessionStore::open(db, o);
    ASSERT_TRUE(store.ok());
    EXPECT_EQ(trials.size(), (*store)->experiments().capacityTrials(1)->size());
    EXPECT_GT(trials.size(), made);
    if (pausedAway(s)) GTEST_SKIP() << s.pauses.text() << "\n" << s.r.err;
    ASSERT_EQ(s.r.exitCode, 0) << s.r.err;
    expectCapacityNear(s.doc["capacity"], 2000, "non2xx<0.1%");
    EXPECT_EQ((*store)->experiments().get(1)->status, ExperimentStatus::Completed);
    // An ended search resumed shows its result and runs nothing.
    const auto shown = test::runCli({ "capacity", "--db", db, "--resume", "1" });
    EXPECT_EQ(shown.exitCode, 0) << shown.err;
    EXPECT_NE(shown.out.find("The ended search 1"), std::string::npos) << shown.out;
    EXPECT_EQ(shown.out.find(" req/s for "), std::string::npos) << shown.out;
    EXPECT_EQ((*store)->experiments().capacityTrials(1)->size(), trials.size());
}

TEST(CapacityCli, BadInputIsOneLine)
{
    for (const auto& [args, message] : std::vector<std::pair<std::vector<std::string>, std::string>> {
             { { "capacity", "http://127.0.0.1:9/" }, "give at least one --slo" },
             { { "capacity", "--slo", "p99<1s", "--may-fail", "3", "http://127.0.0.1:9/" },
                 "--may-fail 3 must be below --repeat 3" },
             { { "capacity", "--slo", "p99<1s", "--precision", "x", "http://127.0.0.1:9/" }, "--precision: 'x'" },
             { { "capacity", "--slo", "p99<1s", "--from", "5", "--min", "10", "http://127.0.0.1:9/" },
                 "--from 5 is outside" },
             { { "capacity", "--slo", "p99<1s", "-R", "100", "http://127.0.0.1:9/" }, "-R" },
         }) {
        const auto r = test::runCli(args);
        EXPECT_EQ(r.exitCode, 2) << r.err;
        EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
        EXPECT_EQ(test::splitLines(r.err).size(), 1u) << r.err;
    }
}

TEST(CapacityCli, ServeCapacityIsChecked)
{
    for (const auto& [args, message] : std::vector<std::pair<std::vector<std::string>, std::string>> {
             { { "serve", "--capacity", "0", "--port", "0", "--duration", "1ms" }, "--capacity: '0'" },
             { { "serve", "--queue", "--port", "0", "--duration", "1ms" }, "--queue goes with --capacity" },
         }) {
        const auto r = test::runCli(args);
        EXPECT_EQ(r.exitCode, 2) << r.err;
        EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
    }
    const auto r = test::runCli({ "serve", "--capacity", "1.5k/s", "--queue", "--port", "0", "--duration", "10ms" });
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("admitting 1.5k/s, the excess queued"), std::string::npos) << r.out;
}
