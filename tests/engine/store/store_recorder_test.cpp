// SessionRecorder: a run is stored while it happens, from a writer thread that
// never holds up the engine; write errors are reported and change nothing stored.

#include "run/runcontroller.h"
#include "serve/targetserver.h"
#include "store/sessionrecorder.h"
#include "storetestutil.h"

#include <chrono>
#include <future>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <thread>

using namespace wb;
using namespace wb::storetest;

namespace {

// Plays the run controller: the same calls, in the same order, from this thread.
struct FakeRun
{
    RunConfig config = sampleConfig();
    RunFold fold { config };
    RunResult result;

    void start(RunObserver& o) { o.onStarted(config); }
    void interval(RunObserver& o, uint32_t index, uint64_t n = 300)
    {
        const IntervalSnapshot s = sampleSnapshot(index, 1000 + 50 * index, n);
        const IntervalRecord record = IntervalRecord::of(s, 1'700'000'000'000 + 1000 * index);
        fold.add(s, record);
        o.onInterval(record);
    }
    void finish(RunObserver& o)
    {
        result = fold.finish(RunEnd {});
        o.onFinished(result);
    }
};

// Makes the controller's calls from a thread of their own while `blocker` holds
// SQLite's write lock, and checks that they all came back while the lock was
// still held and nothing had been written: the writes wait on the writer thread,
// not on the caller. A call that wrote itself could only come back through
// SQLite's 10 s busy timeout, as an error (lastError) with nothing written.
void expectCallsReturnWhileTheWriteIsPending(
    SessionStore& blocker, SessionRecorder& recorder, FakeRun& run, uint32_t intervals, uint64_t n = 300)
{
    sqlText(blocker, "BEGIN IMMEDIATE"); // another writer holds the lock
    auto controller = std::async(std::launch::async, [&] {
        run.start(recorder);
        for (uint32_t i = 0; i < intervals; ++i)
            run.interval(recorder, i, n);
        run.finish(recorder);
    });
    // A guard only: 30 s is three busy timeouts, it keeps a broken recorder from hanging the test.
    const bool returned = controller.wait_for(std::chrono::seconds(30)) == std::future_status::ready;
    EXPECT_TRUE(returned) << "the controller's calls did not return while the file was locked";
    EXPECT_EQ(recorder.intervalsWritten(), 0u) << "written through a lock another connection holds?";
    EXPECT_EQ(recorder.lastError(), "") << "the controller thread waited for the disk and timed out";
    EXPECT_EQ(recorder.droppedWrites(), 0u);
    sqlText(blocker, "COMMIT");
    controller.get();
}

} // namespace

TEST(Recorder, StoresTheRunWhileItHappens)
{
    test::TempDir dir;
    const std::string path = dir.file("s.wrkbench");
    auto reader = openStore(path);
    const int64_t target = addSampleTarget(*reader);
    SessionRecorder recorder(openStore(path), recording(target, { "live" }, "n"));
    FakeRun run;
    run.start(recorder);
    for (uint32_t i = 0; i < 3; ++i)
        run.interval(recorder, i);

    // Without flush() or finish(): committed while the run goes on. The wait is a
    // guard only (the recorder commits about once a second).
    std::string count;
    for (int polls = 0; (count = sqlText(*reader, "SELECT count(*) FROM intervals")) != "3" && polls < 1500; ++polls)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_EQ(count, "3") << "nothing committed while the run went on";
    ASSERT_GT(recorder.runId(), 0);
    auto live = reader->runs().record(recorder.runId());
    ASSERT_TRUE(live.ok());
    EXPECT_EQ(live->status, RunStatus::Running);
    EXPECT_FALSE(live->hasTotals);
    EXPECT_EQ(live->tags, std::vector<std::string> { "live" });

    run.interval(recorder, 3);
    run.finish(recorder);
    recorder.finish();
    EXPECT_EQ(recorder.lastError(), "");
    EXPECT_EQ(recorder.droppedWrites(), 0u);
    EXPECT_EQ(recorder.intervalsWritten(), 4u);
    auto data = reader->runs().load(recorder.runId());
    ASSERT_TRUE(data.ok()) << data.error();
    EXPECT_EQ(data->run.status, RunStatus::Completed);
    EXPECT_EQ(data->run.notes, "n");
    EXPECT_EQ(data->run.totals.requests, 1200u);
    EXPECT_EQ(data->intervals.size(), 4u);
    ASSERT_TRUE(data->latency.has_value());
    EXPECT_EQ(data->latency->serialize(), run.result.latency.serialize());
    EXPECT_GT(data->run.startedAtMs, 0);
    EXPECT_GE(data->run.finishedAtMs, data->run.startedAtMs);
}

TEST(Recorder, ObserverCallsDoNotWaitForALockedFile)
{
    test::TempDir dir;
    const std::string path = dir.file("s.wrkbench");
    auto blocker = openStore(path);
    const int64_t target = addSampleTarget(*blocker);
    SessionRecorder recorder(openStore(path), recording(target));
    FakeRun run;
    expectCallsReturnWhileTheWriteIsPending(*blocker, recorder, run, 5);
    recorder.finish();
    EXPECT_EQ(recorder.lastError(), "");
    auto r = blocker->runs().record(recorder.runId());
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_EQ(r->status, RunStatus::Completed);
    EXPECT_EQ(recorder.intervalsWritten(), 5u);
}

TEST(Recorder, DiskFullIsReportedAndDamagesNothing)
{
    test::TempDir dir;
    const std::string path = dir.file("s.wrkbench");
    auto reader = openStore(path);
    const int64_t target = addSampleTarget(*reader);
    int64_t earlier = 0;
    {
        SessionRecorder first(openStore(path), recording(target));
        FakeRun run;
        run.start(first);
        run.interval(first, 0);
        run.finish(first);
        first.finish();
        earlier = first.runId();
    }
    const auto before = reader->runs().load(earlier);
    ASSERT_TRUE(before.ok());

    auto store = openStore(path);
    // A file that may not grow: what SQLite does when the disk is full.
    const std::string pages = sqlText(*store, "PRAGMA page_count");
    sqlText(*store, "PRAGMA max_page_count = " + std::to_string(std::stoi(pages) + 1));
    SessionRecorder recorder(std::move(store), recording(target));
    FakeRun run;
    // Wide histograms: a few pages per interval. The calls come back before any of
    // it reaches the disk (held here by the reader's lock), so the full disk is
    // met by the writer thread alone.
    expectCallsReturnWhileTheWriteIsPending(*reader, recorder, run, 30, 2000);
    recorder.flush();
    recorder.finish();
    EXPECT_NE(recorder.lastError().find("the disk is full"), std::string::npos) << recorder.lastError();
    EXPECT_NE(recorder.lastError().find("'" + path + "'"), std::string::npos) << recorder.lastError();
    EXPECT_LT(recorder.intervalsWritten(), 30u);
    EXPECT_GT(recorder.droppedWrites(), 0u);

    EXPECT_EQ(sqlText(*reader, "PRAGMA integrity_check"), "ok");
    const auto after = reader->runs().load(earlier);
    ASSERT_TRUE(after.ok());
    EXPECT_EQ(after->run.totals.requests, before->run.totals.requests);
    EXPECT_EQ(after->intervals.size(), before->intervals.size());
    EXPECT_EQ(after->latency->serialize(), before->latency->serialize());
}

TEST(Recorder, ReadOnlyFileIsReportedAndUnchanged)
{
    test::TempDir dir;
    const std::string path = dir.file("ro.wrkbench");
    int64_t target = 0;
    {
        auto store = openStore(path);
        target = addSampleTarget(*store);
    }
    ASSERT_EQ(::chmod(path.c_str(), 0444), 0);
    const std::string bytes = test::readFile(path);
    auto store = openStore(path);
    ASSERT_TRUE(store->isReadOnly());
    SessionRecorder recorder(std::move(store), recording(target));
    FakeRun run;
    run.start(recorder);
    run.interval(recorder, 0);
    run.finish(recorder);
    recorder.finish();
    EXPECT_EQ(recorder.lastError().rfind("'" + path + "' is read-only", 0), 0u) << recorder.lastError();
    EXPECT_EQ(recorder.runId(), 0);
    EXPECT_EQ(test::readFile(path), bytes);
}

TEST(Recorder, TwoWritersAtOnceBothLand)
{
    test::TempDir dir;
    const std::string path = dir.file("s.wrkbench");
    auto reader = openStore(path);
    const int64_t target = addSampleTarget(*reader);
    auto write = [&](int64_t& runId) {
        SessionRecorder recorder(openStore(path), recording(target));
        FakeRun run;
        run.start(recorder);
        for (uint32_t i = 0; i < 20; ++i) {
            run.interval(recorder, i);
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        run.finish(recorder);
        recorder.finish();
        EXPECT_EQ(recorder.lastError(), "");
        runId = recorder.runId();
    };
    int64_t a = 0, b = 0;
    std::thread ta(write, std::ref(a)), tb(write, std::ref(b));
    ta.join();
    tb.join();
    for (int64_t id : { a, b }) {
        auto data = reader->runs().load(id);
        ASSERT_TRUE(data.ok()) << data.error();
        EXPECT_EQ(data->run.status, RunStatus::Completed);
        EXPECT_EQ(data->intervals.size(), 20u);
    }
}

TEST(Recorder, RealRunAgainstTheBuiltInServer)
{
    TargetServer server(TargetServerOptions {});
    ASSERT_TRUE(server.start().ok());
    test::TempDir dir;
    const std::string path = dir.file("s.wrkbench");
    auto reader = openStore(path);
    const int64_t target = addSampleTarget(*reader);
    RunConfig cfg;
    cfg.request.url = *parseUrl("http://127.0.0.1:" + std::to_string(server.port()) + "/");
    cfg.threads = 2;
    cfg.connections = 4;
    cfg.durationUs = 1'000'000;
    cfg.intervalUs = 200'000;
    RunController controller(cfg);
    SessionRecorder recorder(openStore(path), recording(target));
    controller.addObserver(&recorder);
    ASSERT_TRUE(controller.prepare().ok());
    const RunResult result = controller.run();
    recorder.finish();
    ASSERT_EQ(recorder.lastError(), "");
    auto data = reader->runs().load(recorder.runId());
    ASSERT_TRUE(data.ok()) << data.error();
    EXPECT_EQ(data->run.status, RunStatus::Completed);
    EXPECT_EQ(data->run.totals.requests, result.requests);
    EXPECT_GT(result.requests, 0u);
    ASSERT_EQ(data->intervals.size(), result.intervals.size());
    for (size_t i = 0; i < result.intervals.size(); ++i) {
        EXPECT_EQ(data->intervals[i].requests, result.intervals[i].requests);
        EXPECT_EQ(data->intervals[i].latency.p99Us, result.intervals[i].latency.p99Us);
        // stored whole: the wall-clock start and the histograms come back as written
        EXPECT_EQ(data->intervals[i].startUnixMs, result.intervals[i].startUnixMs);
        EXPECT_EQ(data->intervals[i].latencyHistogram, result.intervals[i].latencyHistogram);
    }
    ASSERT_TRUE(data->latency.has_value());
    EXPECT_EQ(data->latency->count(), result.latency.count());
    EXPECT_EQ(data->run.config.connections, 4u);
    EXPECT_EQ(data->statusCodes, (std::vector<std::pair<int, uint64_t>> { { 200, result.requests } }));
}
