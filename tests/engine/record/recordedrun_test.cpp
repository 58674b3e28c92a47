// The one recorded run (engine/record) against the built-in server and a real
// session file: what it stores for every way a run can end, the target it finds
// or creates, the built-in host, the probe, and stops before and during the load.

#include "record/recordedrun.h"
#include "run/runobserver.h"
#include "serve/builtinserver.h"
#include "serve/targetserver.h"
#include "store/sessionstore.h"
#include "testsupport.h"

#include <atomic>
#include <filesystem>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <thread>

using namespace wb;

namespace {

RunConfig quickRun(const std::string& url)
{
    RunConfig c;
    auto parsed = parseUrl(url);
    EXPECT_TRUE(parsed.ok()) << parsed.error();
    if (parsed) c.request.url = *parsed;
    c.threads = 1;
    c.connections = 2;
    c.durationUs = 400'000;
    c.intervalUs = 100'000;
    return c;
}

std::unique_ptr<SessionStore> reopen(const std::string& path)
{
    auto store = SessionStore::open(path);
    EXPECT_TRUE(store.ok()) << store.error();
    return store ? std::move(*store) : nullptr;
}

class Counting : public RunObserver
{
public:
    void onStarted(const RunConfig&) override { ++started; }
    void onInterval(const IntervalRecord&) override { ++intervals; }
    std::atomic<int> started { 0 };
    std::atomic<int> intervals { 0 };
};

class Pipeline : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_server.start().ok());
        m_url = "http://127.0.0.1:" + std::to_string(m_server.port()) + "/";
    }
    RecordedRunOptions stored(const std::string& name = {}) const
    {
        RecordedRunOptions o;
        o.sessionPath = m_dir.file("s.wrkbench");
        o.targetName = name;
        return o;
    }
    test::TempDir m_dir;
    TargetServer m_server { {} };
    std::string m_url;
};

} // namespace

TEST_F(Pipeline, RecordsARunAndFindsItsTargetByNameNextTime)
{
    Counting observer;
    RecordedRun first(quickRun(m_url), stored("api"));
    first.addObserver(&observer);
    const RecordedRunOutcome a = first.run();
    ASSERT_TRUE(a.ran()) << a.error;
    EXPECT_GT(a.runId, 0);
    EXPECT_TRUE(a.storageWarning.empty()) << a.storageWarning;
    EXPECT_EQ(observer.started.load(), 1);
    EXPECT_EQ(static_cast<size_t>(observer.intervals.load()), a.result->intervals.size());

    std::vector<std::string> warnings;
    RecordedRunOptions again = stored("api");
    again.onWarning = [&](const std::string& w) { warnings.push_back(w); };
    RunConfig other = quickRun(m_url + "other");
    const RecordedRunOutcome b = RecordedRun(other, again).run();
    ASSERT_TRUE(b.ran()) << b.error;
    EXPECT_EQ(b.targetId, a.targetId); // found by name, not created twice
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find("target 'api' was created with URL " + m_url + "; this run uses " + m_url + "other"),
        std::string::npos)
        << warnings[0];

    auto store = reopen(m_dir.file("s.wrkbench"));
    auto targets = store->targets().all();
    ASSERT_TRUE(targets.ok());
    EXPECT_EQ(targets->size(), 1u);
    auto data = store->runs().load(a.runId);
    ASSERT_TRUE(data.ok()) << data.error();
    EXPECT_EQ(data->run.status, RunStatus::Completed);
    EXPECT_EQ(data->run.totals.requests, a.result->requests);
    ASSERT_EQ(data->intervals.size(), a.result->intervals.size());
    // The interval is stored whole: its wall-clock start too.
    EXPECT_GT(data->intervals.front().startUnixMs, 1'600'000'000'000);
    EXPECT_EQ(data->intervals.front().startUnixMs, a.result->intervals.front().startUnixMs);
}

TEST_F(Pipeline, APrepareFailureIsStoredAsFailedWithItsReason)
{
    TargetServer closed({});
    ASSERT_TRUE(closed.start().ok());
    const uint16_t port = closed.port();
    closed.stop(); // nothing listens there now
    const RecordedRunOutcome out
        = RecordedRun(quickRun("http://127.0.0.1:" + std::to_string(port) + "/"), stored("gone")).run();
    ASSERT_EQ(out.ended, RecordedRunOutcome::Ended::PrepareFailed);
    EXPECT_NE(out.error.find("connection refused"), std::string::npos) << out.error;
    ASSERT_GT(out.runId, 0);
    auto run = reopen(m_dir.file("s.wrkbench"))->runs().record(out.runId);
    ASSERT_TRUE(run.ok()) << run.error();
    EXPECT_EQ(run->status, RunStatus::Failed);
    EXPECT_EQ(run->error, out.error);
}

TEST_F(Pipeline, AFailedProbeIsStoredOnlyWhenAsked)
{
    TargetServer closed({});
    ASSERT_TRUE(closed.start().ok());
    const uint16_t port = closed.port();
    closed.stop();
    const std::string url = "http://127.0.0.1:" + std::to_string(port) + "/";
    RecordedRunOptions cli = stored("gone");
    cli.probeFirst = true;
    const RecordedRunOutcome a = RecordedRun(quickRun(url), cli).run();
    ASSERT_EQ(a.ended, RecordedRunOutcome::Ended::ProbeFailed);
    ASSERT_GT(a.runId, 0);
    auto run = reopen(m_dir.file("s.wrkbench"))->runs().record(a.runId);
    ASSERT_TRUE(run.ok());
    EXPECT_EQ(run->error, "probe: " + a.error);

    RecordedRunOptions gui = cli;
    gui.storeProbeFailure = false; // the GUI asks "Run anyway" instead
    const RecordedRunOutcome b = RecordedRun(quickRun(url), gui).run();
    ASSERT_EQ(b.ended, RecordedRunOutcome::Ended::ProbeFailed);
    EXPECT_EQ(b.runId, 0);
    auto runs = reopen(m_dir.file("s.wrkbench"))->runs().list();
    ASSERT_TRUE(runs.ok());
    EXPECT_EQ(runs->size(), 1u);
}

TEST_F(Pipeline, AProbeThatPassedIsStoredWithTheRun)
{
    RecordedRunOptions o = stored("probed");
    o.probeFirst = true;
    std::string seen;
    o.onProbed = [&](const ProbeResult& p) { seen = p.statusLine; };
    const RecordedRunOutcome out = RecordedRun(quickRun(m_url), o).run();
    ASSERT_TRUE(out.ran()) << out.error;
    EXPECT_NE(seen.find("200"), std::string::npos) << seen;
    ASSERT_FALSE(out.probeJson.empty());
    auto run = reopen(m_dir.file("s.wrkbench"))->runs().record(out.runId);
    ASSERT_TRUE(run.ok());
    EXPECT_EQ(run->probeJson, out.probeJson);
}

TEST_F(Pipeline, TheBuiltinHostIsServedInProcessAndKeptAsTyped)
{
    const RecordedRunOutcome out = RecordedRun(quickRun("http://builtin/"), stored()).run();
    ASSERT_TRUE(out.ran()) << out.error;
    EXPECT_GT(out.result->requests, 0u);
    EXPECT_EQ((out.result->errors.transportErrors() + out.result->status.non2xx()), 0u);
    auto target = reopen(m_dir.file("s.wrkbench"))->targets().get(out.targetId);
    ASSERT_TRUE(target.ok());
    EXPECT_EQ(target->url, "http://builtin/"); // a later run resolves it again in its own process
    EXPECT_EQ(target->name, "http://builtin/");

    const RecordedRunOutcome tls = RecordedRun(quickRun("https://builtin/"), stored()).run();
    ASSERT_EQ(tls.ended, RecordedRunOutcome::Ended::PrepareFailed);
    EXPECT_NE(tls.error.find("plain http"), std::string::npos) << tls.error;
}

TEST_F(Pipeline, AStopBeforeTheLoadCancelsOrEndsAtOnceAsAsked)
{
    RecordedRun gui(quickRun(m_url), stored("stopped"));
    gui.stopSwitch().pull();
    const RecordedRunOutcome a = gui.run();
    EXPECT_EQ(a.ended, RecordedRunOutcome::Ended::Cancelled);
    EXPECT_EQ(a.runId, 0);

    RecordedRunOptions o = stored("stopped");
    o.cancelBeforeLoad = false; // the CLI: Ctrl-C during the set-up still gives a report
    RunConfig long_ = quickRun(m_url);
    long_.durationUs = 30'000'000;
    RecordedRun cli(long_, o);
    cli.stopSwitch().pull();
    const RecordedRunOutcome b = cli.run();
    ASSERT_TRUE(b.ran()) << b.error;
    EXPECT_TRUE(b.result->stoppedEarly);
    auto run = reopen(m_dir.file("s.wrkbench"))->runs().record(b.runId);
    ASSERT_TRUE(run.ok());
    EXPECT_EQ(run->status, RunStatus::Stopped);
}

TEST_F(Pipeline, AStopDuringTheLoadKeepsWhatCompleted)
{
    RunConfig long_ = quickRun(m_url);
    long_.durationUs = 60'000'000;
    Counting observer;
    RecordedRun run(long_, stored("long"));
    run.addObserver(&observer);
    std::thread stopper([&] {
        while (observer.intervals.load() < 2)
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        run.stopSwitch().pull();
    });
    const RecordedRunOutcome out = run.run();
    stopper.join();
    ASSERT_TRUE(out.ran()) << out.error;
    EXPECT_TRUE(out.result->stoppedEarly);
    EXPECT_GT(out.result->requests, 0u);
    EXPECT_LT(out.result->durationS, 60.0);
    auto stored = reopen(m_dir.file("s.wrkbench"))->runs().record(out.runId);
    ASSERT_TRUE(stored.ok());
    EXPECT_EQ(stored->status, RunStatus::Stopped);
    EXPECT_EQ(stored->totals.requests, out.result->requests);
}

TEST_F(Pipeline, AReadOnlySessionRunsUnrecordedWithAWarning)
{
    const std::string path = m_dir.file("s.wrkbench");
    ASSERT_TRUE(SessionStore::open(path).ok());
    ASSERT_EQ(::chmod(path.c_str(), 0444), 0);
    std::vector<std::string> warnings;
    RecordedRunOptions o = stored("ro");
    o.onWarning = [&](const std::string& w) { warnings.push_back(w); };
    const RecordedRunOutcome out = RecordedRun(quickRun(m_url), o).run();
    ASSERT_TRUE(out.ran()) << out.error;
    EXPECT_EQ(out.runId, 0);
    EXPECT_NE(out.storageWarning.find("read-only"), std::string::npos) << out.storageWarning;
    EXPECT_EQ(warnings.size(), 1u);
}

TEST_F(Pipeline, ASessionThatCannotBeOpenedStopsTheRunOnlyWhenRequired)
{
    RecordedRunOptions o;
    o.sessionPath = m_dir.file("missing/dir/s.wrkbench");
    const RecordedRunOutcome a = RecordedRun(quickRun(m_url), o).run();
    EXPECT_EQ(a.ended, RecordedRunOutcome::Ended::SessionFailed);
    EXPECT_FALSE(a.error.empty());

    o.requireSession = false;
    const RecordedRunOutcome b = RecordedRun(quickRun(m_url), o).run();
    ASSERT_TRUE(b.ran()) << b.error;
    EXPECT_EQ(b.runId, 0);
    EXPECT_FALSE(b.storageWarning.empty());
}
