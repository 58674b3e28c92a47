// The store's API as the CLI and the GUI use it: targets, profiles, runs with
// their series and histograms, filters, edits, deletes, crash recovery.

#include "run/runcontroller.h"
#include "run/runfold.h"
#include "store/sessionstore.h"
#include "storetestutil.h"
#include "wire/configcodec.h"

#include <cmath>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace wb;
using namespace wb::storetest;

namespace {

class Store : public ::testing::Test
{
protected:
    void SetUp() override { reopen(); }
    void reopen()
    {
        m_store.reset();
        auto store = SessionStore::open(m_dir.file("s.wrkbench"));
        ASSERT_TRUE(store.ok()) << store.error();
        m_store = std::move(*store);
    }
    SessionStore& store() { return *m_store; }

    // A finished run with n intervals of sample data; returns its id.
    int64_t addFinishedRun(int64_t targetId, const std::vector<std::string>& tags, uint32_t n = 4)
    {
        NewRun run;
        run.targetId = targetId;
        run.config = sampleConfig();
        run.startedAtMs = 1'700'000'000'000;
        run.tags = tags;
        auto id = store().runs().begin(run);
        EXPECT_TRUE(id.ok()) << id.error();
        RunResult result;
        result.config = run.config;
        std::vector<IntervalRecord> intervals;
        for (uint32_t i = 0; i < n; ++i) {
            IntervalSnapshot s = sampleSnapshot(i, 1000 * (i + 1), 200);
            intervals.push_back(IntervalRecord::of(s));
            result.requests += s.requests;
            result.bytes += s.bytes;
            result.errors += s.errors;
            result.status += s.status;
            result.latency.merge(s.latency);
            result.serviceLatency.merge(s.serviceLatency);
        }
        result.durationS = n * 0.5;
        result.threadRates.perThreadRequestsPerS = { 100, 120, 140 };
        EXPECT_TRUE(store().runs().appendIntervals(*id, intervals).ok());
        auto st = store().runs().finish(*id, FinishedRun::of(result, 1'700'000'010'000));
        EXPECT_TRUE(st.ok()) << st.error();
        return *id;
    }

    test::TempDir m_dir;
    std::unique_ptr<SessionStore> m_store;
};

pid_t deadPid()
{
    const pid_t pid = ::fork();
    if (pid == 0) ::_exit(0);
    ::waitpid(pid, nullptr, 0);
    return pid;
}

} // namespace

TEST(ConfigJson, RoundTripsEveryField)
{
    RunConfig c = sampleConfig("https://[::1]:8443/p?q=1");
    c.request.body = std::string("\x00\xff\x01 binary", 10);
    c.tls.caFile = "/etc/ca.pem";
    c.stagesAreConnections = true;
    c.sendSpinUs = 120;
    auto back = runConfigFromJson(runConfigToJson(c));
    ASSERT_TRUE(back.ok()) << back.error();
    EXPECT_EQ(back->request.url.toString(), "https://[::1]:8443/p?q=1");
    EXPECT_EQ(back->request.url.displayText(), "https://[::1]:8443/p?q=1");
    EXPECT_EQ(back->request.method, "POST");
    EXPECT_EQ(back->request.headers, c.request.headers);
    EXPECT_EQ(back->request.body, c.request.body);
    EXPECT_EQ(back->tls.verifyPeer, false);
    EXPECT_EQ(back->tls.caFile, "/etc/ca.pem");
    EXPECT_EQ(back->threads, 3u);
    EXPECT_EQ(back->connections, 30u);
    EXPECT_EQ(back->pipeline, 2u);
    EXPECT_EQ(back->durationUs, 90'000'000u);
    EXPECT_EQ(back->warmupUs, 5'000'000u);
    EXPECT_EQ(back->timeoutUs, c.timeoutUs);
    EXPECT_EQ(back->connectTimeoutUs, c.connectTimeoutUs);
    EXPECT_EQ(back->intervalUs, 500'000u);
    EXPECT_EQ(back->ratePerS, 1500);
    EXPECT_EQ(back->stages, c.stages);
    EXPECT_TRUE(back->stagesAreConnections);
    EXPECT_EQ(back->sendSpinUs, 120u);
    // The default is not written (older files and programs read the same JSON), and comes back.
    EXPECT_EQ(runConfigToJson(sampleConfig()).find("send_spin_us"), std::string::npos);
    EXPECT_EQ(runConfigFromJson(runConfigToJson(sampleConfig()))->sendSpinUs, RunConfig::DEFAULT_SEND_SPIN_US);
    EXPECT_FALSE(runConfigFromJson("[1,2]").ok());
    EXPECT_FALSE(runConfigFromJson("{\"threads\":\"x\"}").ok());
}

TEST(ConfigJson, SlosTravelWithTheConfigAndTheProfile)
{
    RunConfig c = sampleConfig();
    c.slos = { *parseSlo("p99<250ms"), *parseSlo("errors < 0.1%") };
    c.sloAbort = true;
    for (const auto& back : { runConfigFromJson(runConfigToJson(c)), loadProfileFromJson(loadProfileToJson(c)) }) {
        ASSERT_TRUE(back.ok()) << back.error();
        ASSERT_EQ(back->slos.size(), 2u);
        EXPECT_EQ(back->slos[0].expr, "p99<250ms");
        EXPECT_DOUBLE_EQ(back->slos[0].threshold, 250'000);
        EXPECT_EQ(back->slos[1].expr, "errors<0.1%");
        EXPECT_TRUE(back->slos[1].share);
        EXPECT_TRUE(back->sloAbort);
    }
    EXPECT_EQ(runConfigToJson(sampleConfig()).find("slo"), std::string::npos); // none: nothing written
    // A damaged expression in a file is an error that names it, not a crash.
    const auto bad = runConfigFromJson(R"({"url":"http://a/","slo":["p99<1x"]})");
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().find("SLO 'p99<1x'"), std::string::npos) << bad.error();
}

TEST(ConfigJson, SloVerdictsRoundTrip)
{
    std::vector<SloVerdict> verdicts { { "p99<250ms", 181'200, "us", true },
        { "connect_p99<1ms", std::nan(""), "us", false } };
    const auto back = sloVerdictsFromJson(sloVerdictsToJson(verdicts));
    ASSERT_EQ(back.size(), 2u);
    EXPECT_EQ(back[0].expr, "p99<250ms");
    EXPECT_DOUBLE_EQ(back[0].value, 181'200);
    EXPECT_EQ(back[0].unit, "us");
    EXPECT_TRUE(back[0].ok);
    EXPECT_TRUE(std::isnan(back[1].value));
    EXPECT_FALSE(back[1].ok);
    EXPECT_TRUE(sloVerdictsFromJson("not json").empty());
    EXPECT_TRUE(sloVerdictsFromJson("[1, {\"expr\": 3}, {\"expr\": \"p99<1s\", \"ok\": \"yes\"}]").size() == 1);
}

TEST_F(Store, TargetsCrud)
{
    Target t;
    t.name = "GKE NEG";
    t.url = "https://10.0.0.1/";
    t.method = "PUT";
    t.headers = { { "Host", "api" } };
    t.body = "b";
    t.tls.verifyPeer = false;
    t.tls.caFile = "ca.pem";
    t.tags = { "NEG", "GKE" };
    auto id = store().targets().add(t);
    ASSERT_TRUE(id.ok()) << id.error();
    EXPECT_FALSE(store().targets().add(t).ok()) << "duplicate name";

    auto got = store().targets().get(*id);
    ASSERT_TRUE(got.ok());
    EXPECT_EQ(got->name, "GKE NEG");
    EXPECT_EQ(got->url, "https://10.0.0.1/");
    EXPECT_EQ(got->method, "PUT");
    EXPECT_EQ(got->headers, t.headers);
    EXPECT_EQ(got->body, "b");
    EXPECT_FALSE(got->tls.verifyPeer);
    EXPECT_EQ(got->tls.caFile, "ca.pem");
    EXPECT_EQ((std::vector<std::string> { "GKE", "NEG" }), got->tags);
    EXPECT_GT(got->createdAtMs, 0);

    got->name = "NEG";
    got->tags = { "NEG" };
    ASSERT_TRUE(store().targets().update(*got).ok());
    auto byName = store().targets().byName("NEG");
    ASSERT_TRUE(byName.ok() && byName->has_value());
    EXPECT_EQ((*byName)->id, *id);
    EXPECT_EQ((*byName)->tags, std::vector<std::string> { "NEG" });
    EXPECT_FALSE(store().targets().byName("GKE NEG")->has_value());

    Target proto;
    proto.name = "NEG";
    proto.url = "http://other/";
    auto ensured = store().targets().ensure(proto);
    ASSERT_TRUE(ensured.ok());
    EXPECT_EQ(*ensured, *id) << "an existing target is reused";
    proto.name = "NodePort";
    auto created = store().targets().ensure(proto);
    ASSERT_TRUE(created.ok());
    EXPECT_NE(*created, *id);
    EXPECT_EQ(store().targets().all()->size(), 2u);

    Target badTag = t;
    badTag.name = "x";
    badTag.tags = { "a,b" };
    EXPECT_FALSE(store().targets().add(badTag).ok());

    const int64_t run = addFinishedRun(*id, {});
    auto refused = store().targets().remove(*id);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().find("1 run(s)"), std::string::npos);
    // A run being recorded is never deleted under its recorder, alone or with its target.
    NewRun live;
    live.targetId = *id;
    live.config = sampleConfig();
    live.startedAtMs = 1'700'000'000'000;
    auto liveId = store().runs().begin(live);
    ASSERT_TRUE(liveId.ok());
    auto busy = store().targets().remove(*id, true);
    ASSERT_FALSE(busy.ok());
    EXPECT_NE(
        busy.error().find("run #" + std::to_string(*liveId) + " of the target is being recorded"), std::string::npos)
        << busy.error();
    auto busyRun = store().runs().remove(*liveId);
    ASSERT_FALSE(busyRun.ok());
    EXPECT_NE(busyRun.error().find("being recorded"), std::string::npos) << busyRun.error();
    EXPECT_TRUE(store().runs().record(run).ok()); // nothing went half-way
    ASSERT_TRUE(store().runs().finish(*liveId, FinishedRun::of(RunResult {}, 1'700'000'001'000)).ok());

    ASSERT_TRUE(store().targets().remove(*id, true).ok());
    EXPECT_FALSE(store().runs().record(run).ok());
    EXPECT_EQ(sqlText(store(), "SELECT count(*) FROM intervals"), "0");
    EXPECT_EQ(store().targets().all()->size(), 1u);
}

TEST_F(Store, ProfilesCrud)
{
    LoadProfile p;
    p.name = "soak";
    p.load = sampleConfig();
    p.notes = "1h at 1500 rps";
    auto id = store().profiles().add(p);
    ASSERT_TRUE(id.ok()) << id.error();
    EXPECT_FALSE(store().profiles().add(p).ok());
    auto all = store().profiles().all();
    ASSERT_TRUE(all.ok());
    ASSERT_EQ(all->size(), 1u);
    EXPECT_EQ(all->front().load.connections, 30u);
    EXPECT_EQ(all->front().load.stages, p.load.stages);
    EXPECT_EQ(all->front().notes, "1h at 1500 rps");

    // A run made with the profile keeps its name after the profile is deleted.
    NewRun run;
    run.targetId = addSampleTarget(store());
    run.config = p.load;
    run.profileId = *id;
    run.profileName = "soak";
    auto runId = store().runs().begin(run);
    ASSERT_TRUE(runId.ok());

    p.id = *id;
    p.name = "soak-2";
    p.load.threads = 8;
    ASSERT_TRUE(store().profiles().update(p).ok());
    EXPECT_EQ(store().profiles().all()->front().load.threads, 8u);
    ASSERT_TRUE(store().profiles().remove(*id).ok());
    EXPECT_TRUE(store().profiles().all()->empty());
    auto record = store().runs().record(*runId);
    ASSERT_TRUE(record.ok());
    EXPECT_EQ(record->profileId, 0);
    EXPECT_EQ(record->profileName, "soak");
}

TEST_F(Store, RunRoundTripsSummarySeriesHistogramsAndCodes)
{
    const int64_t target = addSampleTarget(store());
    const int64_t id = addFinishedRun(target, { "baseline", "NEG" });
    reopen();
    auto data = store().runs().load(id);
    ASSERT_TRUE(data.ok()) << data.error();
    const RunRecord& r = data->run;
    EXPECT_EQ(r.status, RunStatus::Completed);
    EXPECT_EQ(r.targetName, "NEG");
    EXPECT_EQ(r.url, "http://127.0.0.1:8080/api?x=1");
    EXPECT_EQ(r.config.connections, 30u);
    EXPECT_EQ(r.config.request.headers, sampleConfig().request.headers);
    EXPECT_EQ(r.startedAtMs, 1'700'000'000'000);
    EXPECT_EQ(r.finishedAtMs, 1'700'000'010'000);
    EXPECT_EQ(r.engineVersion, engineVersion());
    EXPECT_FALSE(r.hostName.empty());
    EXPECT_GT(r.cpuCount, 0u);
    EXPECT_EQ((std::vector<std::string> { "NEG", "baseline" }), r.tags);
    ASSERT_TRUE(r.hasTotals);
    EXPECT_EQ(r.totals.requests, 800u);
    EXPECT_EQ(r.totals.bytes, 800u * 120);
    EXPECT_DOUBLE_EQ(r.totals.durationS, 2.0);
    EXPECT_DOUBLE_EQ(r.totals.requestsPerS, 400.0);
    EXPECT_EQ(r.totals.non2xx, 80u);
    EXPECT_EQ(r.totals.errors.timeout, 0u + 1 + 2 + 3);
    EXPECT_DOUBLE_EQ(r.totals.threadRate.mean, 120.0);
    EXPECT_EQ(r.totals.latency.minUs, 1000);
    EXPECT_EQ(r.totals.latency.maxUs, 4199);

    ASSERT_TRUE(data->latency.has_value());
    EXPECT_EQ(data->latency->count(), 800u);
    EXPECT_EQ(static_cast<double>(data->latency->valueAtPercentileUs(50)), r.totals.latency.p50Us);
    EXPECT_EQ(static_cast<double>(data->latency->valueAtPercentileUs(99)), r.totals.latency.p99Us);
    ASSERT_TRUE(data->serviceLatency.has_value());
    EXPECT_EQ(data->serviceLatency->maxUs(), 4199u / 2);
    ASSERT_EQ(data->statusCodes.size(), 2u);
    EXPECT_EQ(data->statusCodes[0], (std::pair<int, uint64_t> { 200, 720 }));
    EXPECT_EQ(data->statusCodes[1], (std::pair<int, uint64_t> { 503, 80 }));

    ASSERT_EQ(data->intervals.size(), 4u);
    const IntervalRecord& i2 = data->intervals[2];
    const IntervalRecord expected = IntervalRecord::of(sampleSnapshot(2, 3000, 200));
    EXPECT_EQ(i2.index, 2u);
    EXPECT_DOUBLE_EQ(i2.startS, 1.0);
    EXPECT_DOUBLE_EQ(i2.endS, 1.5);
    EXPECT_EQ(i2.requests, 200u);
    EXPECT_EQ(i2.errors, expected.errors);
    EXPECT_EQ(i2.connections, 30u);
    EXPECT_EQ(i2.latency.p99Us, expected.latency.p99Us);
    EXPECT_EQ(i2.serviceLatency.p50Us, expected.serviceLatency.p50Us);
    EXPECT_EQ(i2.targetRatePerS, 1500);
    EXPECT_EQ(i2.lateRequests, 4u);
    EXPECT_EQ(i2.maxLagUs, 1002u);
    EXPECT_EQ(i2.statusCodes, expected.statusCodes);
    LatencyHistogram h;
    ASSERT_TRUE(h.deserialize(i2.latencyHistogram));
    EXPECT_EQ(h.count(), 200u);
    EXPECT_EQ(h.minUs(), 3000u);
}

TEST_F(Store, ListFiltersByTargetTagAndStatus)
{
    const int64_t neg = addSampleTarget(store(), "NEG");
    const int64_t nodePort = addSampleTarget(store(), "NodePort");
    Target np = *store().targets().get(nodePort);
    np.tags = { "GKE" };
    ASSERT_TRUE(store().targets().update(np).ok());
    const int64_t a = addFinishedRun(neg, { "baseline" });
    const int64_t b = addFinishedRun(nodePort, { "baseline", "tuned" });
    const int64_t c = addFinishedRun(nodePort, {});
    NewRun failed;
    failed.targetId = neg;
    failed.config = sampleConfig();
    auto f = store().runs().addFailed(failed, "connection refused by 127.0.0.1:9");
    ASSERT_TRUE(f.ok());

    auto ids = [&](const RunFilter& filter) {
        std::vector<int64_t> out;
        auto runs = store().runs().list(filter);
        EXPECT_TRUE(runs.ok()) << runs.error();
        for (const auto& r : *runs)
            out.push_back(r.id);
        return out;
    };
    EXPECT_EQ(ids({}), (std::vector<int64_t> { a, b, c, *f }));
    EXPECT_EQ(ids(filterOf("NodePort")), (std::vector<int64_t> { b, c }));
    EXPECT_EQ(ids(filterOf("", { "baseline" })), (std::vector<int64_t> { a, b }));
    EXPECT_EQ(ids(filterOf("", { "baseline", "tuned" })), (std::vector<int64_t> { b }));
    EXPECT_EQ(ids(filterOf("", { "GKE" })), (std::vector<int64_t> { b, c })) << "a target's tags match its runs";
    EXPECT_EQ(ids(filterOf("NEG", { "baseline" })), (std::vector<int64_t> { a }));
    EXPECT_EQ(ids(filterOf("", {}, RunStatus::Failed)), (std::vector<int64_t> { *f }));
    EXPECT_TRUE(ids(filterOf("nope")).empty());

    auto failedRun = store().runs().record(*f);
    ASSERT_TRUE(failedRun.ok());
    EXPECT_EQ(failedRun->status, RunStatus::Failed);
    EXPECT_EQ(failedRun->error, "connection refused by 127.0.0.1:9");
    EXPECT_FALSE(failedRun->hasTotals);
}

TEST_F(Store, NotesTagsAndDeleteCascade)
{
    const int64_t target = addSampleTarget(store());
    const int64_t id = addFinishedRun(target, { "a" });
    const int64_t other = addFinishedRun(target, { "a" });
    ASSERT_TRUE(store().runs().setNotes(id, "after the Envoy upgrade").ok());
    ASSERT_TRUE(store().runs().setTags(id, { "b", "c" }).ok());
    EXPECT_FALSE(store().runs().setTags(id, { "" }).ok());
    EXPECT_FALSE(store().runs().setNotes(9999, "x").ok());
    auto r = store().runs().record(id);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->notes, "after the Envoy upgrade");
    EXPECT_EQ((std::vector<std::string> { "b", "c" }), r->tags);

    ASSERT_TRUE(store().runs().remove(id).ok());
    EXPECT_FALSE(store().runs().remove(id).ok());
    EXPECT_FALSE(store().runs().load(id).ok());
    const std::string runId = std::to_string(id);
    for (const char* table : { "intervals", "histograms", "status_counts", "run_tags", "percentiles" })
        EXPECT_EQ(sqlText(store(), std::string("SELECT count(*) FROM ") + table + " WHERE run_id = " + runId), "0")
            << table;
    EXPECT_EQ(sqlText(store(), "SELECT count(*) FROM intervals WHERE run_id = " + std::to_string(other)), "4");
}

TEST_F(Store, RunOfDeadProcessBecomesInterruptedWithRebuiltSummary)
{
    const int64_t target = addSampleTarget(store());
    NewRun run;
    run.targetId = target;
    run.config = sampleConfig(); // 5 s warm-up
    run.startedAtMs = 1'700'000'000'000;
    auto dead = store().runs().begin(run);
    auto otherHost = store().runs().begin(run);
    auto alive = store().runs().begin(run);
    ASSERT_TRUE(dead.ok() && otherHost.ok() && alive.ok());
    std::vector<IntervalRecord> intervals;
    for (uint32_t i = 0; i < 3; ++i)
        intervals.push_back(IntervalRecord::of(sampleSnapshot(i, 2000 + 100 * i, 100)));
    ASSERT_TRUE(store().runs().appendIntervals(*dead, intervals).ok());
    sqlText(
        store(), "UPDATE runs SET owner_pid = " + std::to_string(deadPid()) + " WHERE id = " + std::to_string(*dead));
    sqlText(
        store(), "UPDATE runs SET owner_pid = 1, host_name = 'loader-vm-7' WHERE id = " + std::to_string(*otherHost));

    reopen();
    EXPECT_EQ(store().recoveredRuns(), std::vector<int64_t> { *dead });
    auto data = store().runs().load(*dead);
    ASSERT_TRUE(data.ok()) << data.error();
    EXPECT_EQ(data->run.status, RunStatus::Interrupted);
    EXPECT_EQ(data->intervals.size(), 3u);
    ASSERT_TRUE(data->run.hasTotals);
    EXPECT_EQ(data->run.totals.requests, 300u);
    EXPECT_DOUBLE_EQ(data->run.totals.durationS, 1.5);
    EXPECT_EQ(data->run.totals.latency.minUs, 2000);
    EXPECT_EQ(data->run.totals.latency.maxUs, 2299);
    EXPECT_EQ(data->run.finishedAtMs, 1'700'000'000'000 + 5'000 + 1'500);
    ASSERT_TRUE(data->latency.has_value());
    EXPECT_EQ(data->latency->count(), 300u);
    EXPECT_EQ(data->statusCodes.size(), 2u);

    EXPECT_EQ(store().runs().record(*otherHost)->status, RunStatus::Running) << "another host's run is left alone";
    EXPECT_EQ(store().runs().record(*alive)->status, RunStatus::Running) << "our own live run is left alone";
    EXPECT_EQ(sqlText(store(), "PRAGMA integrity_check"), "ok");
}

// Recovery folds the intervals the dead process wrote, as a finished run folds them
// (run/runfold.h): every field the intervals carry comes back, send lag, the requested rate,
// the connection phases and the protocol included. Only what a process says at its very end
// (per-entry stats, thread samples, first errors) died with it.
TEST_F(Store, RecoveredRunKeepsEveryFieldAFinishedRunHas)
{
    const int64_t target = addSampleTarget(store());
    NewRun run;
    run.targetId = target;
    run.config = sampleConfig("https://127.0.0.1:8443/api"); // open model, over TLS
    run.config.httpVersion = HttpVersion::Http2;
    run.startedAtMs = 1'700'000'000'000;
    auto finished = store().runs().begin(run);
    auto dead = store().runs().begin(run);
    ASSERT_TRUE(finished.ok() && dead.ok());
    RunFold fold(run.config);
    std::vector<IntervalRecord> intervals;
    for (uint32_t i = 0; i < 4; ++i) {
        IntervalSnapshot s = sampleSnapshot(i, 2000 + 100 * i, 100 + 10 * i);
        for (uint64_t v = 0; v < 50; ++v) {
            s.sendLag.record(10 + v * (i + 1));
            s.connectTime.record(300 + v);
            s.tlsHandshake.record(900 + v);
            s.firstByte.record(1500 + v);
        }
        s.errors.read = i;
        s.errors.stream = 1;
        s.targetRatePerS = 1000 + 250 * i;
        intervals.push_back(IntervalRecord::of(s, 1'700'000'005'000 + 500 * i));
        fold.add(s, intervals.back());
    }
    ASSERT_TRUE(store().runs().appendIntervals(*finished, intervals).ok());
    ASSERT_TRUE(store().runs().appendIntervals(*dead, intervals).ok());
    RunEnd end;
    end.stoppedEarly = true; // as a dead run is
    ASSERT_TRUE(store().runs().finish(*finished, FinishedRun::of(fold.finish(end), 1'700'000'007'000)).ok());
    sqlText(
        store(), "UPDATE runs SET owner_pid = " + std::to_string(deadPid()) + " WHERE id = " + std::to_string(*dead));

    reopen();
    ASSERT_EQ(store().recoveredRuns(), std::vector<int64_t> { *dead });
    auto a = store().runs().load(*finished);
    auto b = store().runs().load(*dead);
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_EQ(b->run.status, RunStatus::Interrupted);
    const RunTotals& x = a->run.totals;
    const RunTotals& y = b->run.totals;
    EXPECT_EQ(y.requests, x.requests);
    EXPECT_EQ(y.bytes, x.bytes);
    EXPECT_DOUBLE_EQ(y.durationS, x.durationS);
    EXPECT_DOUBLE_EQ(y.requestsPerS, x.requestsPerS);
    EXPECT_EQ(y.errors, x.errors);
    for (auto [p, q] : { std::pair { &x.latency, &y.latency }, { &x.serviceLatency, &y.serviceLatency },
             { &x.sendLag, &y.sendLag } }) {
        EXPECT_DOUBLE_EQ(q->p50Us, p->p50Us);
        EXPECT_DOUBLE_EQ(q->p99Us, p->p99Us);
        EXPECT_DOUBLE_EQ(q->maxUs, p->maxUs);
        EXPECT_DOUBLE_EQ(q->meanUs, p->meanUs);
    }
    EXPECT_GT(y.sendLag.maxUs, 0);
    EXPECT_NEAR(y.targetRatePerS, x.targetRatePerS, 1e-9);
    EXPECT_NEAR(y.targetRatePerS, 1375, 1e-9); // the four intervals' rates, over equal lengths
    EXPECT_EQ(y.lateRequests, x.lateRequests);
    EXPECT_EQ(y.maxLagUs, x.maxLagUs);
    EXPECT_EQ(y.protocol, "h2");
    EXPECT_EQ(y.protocol, x.protocol);
    EXPECT_EQ(y.stoppedEarly, x.stoppedEarly);
    for (auto [p, q] : { std::pair { &x.connect, &y.connect }, { &x.tlsHandshake, &y.tlsHandshake },
             { &x.firstByte, &y.firstByte } }) {
        EXPECT_EQ(q->count, p->count);
        EXPECT_GT(q->count, 0u);
        EXPECT_DOUBLE_EQ(q->p99Us, p->p99Us);
    }
    EXPECT_EQ(b->statusCodes, a->statusCodes);
    ASSERT_TRUE(a->latency && b->latency);
    EXPECT_EQ(b->latency->serialize(), a->latency->serialize());
}

// Schema version 3: the open model's send lag (the generator's own lateness) is kept
// with the totals, so a stored run can tell when it was a noticeable part of the latency.
TEST_F(Store, SendLagIsKeptWithTheTotals)
{
    Target t;
    t.name = "open model";
    t.url = "http://127.0.0.1:1/";
    auto targetId = store().targets().add(t);
    ASSERT_TRUE(targetId.ok()) << targetId.error();
    NewRun run;
    run.targetId = *targetId;
    run.config = sampleConfig();
    run.config.ratePerS = 1000;
    run.startedAtMs = 1'700'000'000'000;
    auto id = store().runs().begin(run);
    ASSERT_TRUE(id.ok()) << id.error();
    RunResult result;
    result.config = run.config;
    result.durationS = 1;
    result.requests = 100;
    result.latency.recordN(2000, 100);
    result.sendLag.recordN(30, 90);
    result.sendLag.recordN(400, 10);
    ASSERT_TRUE(store().runs().finish(*id, FinishedRun::of(result, 1'700'000'001'000)).ok());
    auto record = store().runs().record(*id);
    ASSERT_TRUE(record.ok()) << record.error();
    ASSERT_TRUE(record->totals.sendLag.known());
    EXPECT_NEAR(record->totals.sendLag.p50Us, 30, 1);
    EXPECT_NEAR(record->totals.sendLag.p99Us, 400, 8);
    EXPECT_NEAR(record->totals.sendLag.maxUs, 400, 8);
    // The runs list reads the same columns.
    auto runs = store().runs().list();
    ASSERT_TRUE(runs.ok()) << runs.error();
    ASSERT_EQ(runs->size(), 1u);
    EXPECT_NEAR(runs->front().totals.sendLag.p99Us, 400, 8);
    // A closed-loop run has none.
    const int64_t closed = addFinishedRun(*targetId, {});
    auto closedRecord = store().runs().record(closed);
    ASSERT_TRUE(closedRecord.ok());
    EXPECT_FALSE(closedRecord->totals.sendLag.known());
}

// Schema version 6: where the time went, kept with the run (summary columns and
// histograms) and with each interval (so loaders merge exactly, and a run whose
// process died gets them back from its intervals).
TEST_F(Store, ConnectionPhasesAreKeptWithTheRunAndItsIntervals)
{
    const int64_t target = addSampleTarget(store());
    NewRun run;
    run.targetId = target;
    run.config = sampleConfig();
    run.startedAtMs = 1'700'000'000'000;
    auto id = store().runs().begin(run);
    ASSERT_TRUE(id.ok()) << id.error();
    RunResult result;
    result.config = run.config;
    result.durationS = 1;
    std::vector<IntervalRecord> intervals;
    for (uint32_t i = 0; i < 2; ++i) {
        IntervalSnapshot s = sampleSnapshot(i, 1000, 100);
        s.connectTime.recordN(150 + i, 4);
        s.tlsHandshake.recordN(3000, 4);
        s.firstByte.recordN(700, 100);
        intervals.push_back(IntervalRecord::of(s));
        result.add(s);
    }
    ASSERT_TRUE(store().runs().appendIntervals(*id, intervals).ok());
    ASSERT_TRUE(store().runs().finish(*id, FinishedRun::of(result, 1'700'000'001'000)).ok());

    auto data = store().runs().load(*id);
    ASSERT_TRUE(data.ok()) << data.error();
    const RunTotals& t = data->run.totals;
    EXPECT_EQ(t.connect.count, 8u);
    EXPECT_NEAR(t.connect.p50Us, 150, 1);
    EXPECT_EQ(t.tlsHandshake.count, 8u);
    EXPECT_NEAR(t.tlsHandshake.p99Us, 3000, 12);
    EXPECT_EQ(t.firstByte.count, 200u);
    EXPECT_NEAR(t.firstByte.maxUs, 700, 3);
    ASSERT_TRUE(data->connect && data->tlsHandshake && data->firstByte);
    EXPECT_EQ(data->connect->count(), 8u);
    EXPECT_EQ(data->firstByte->count(), 200u);
    ASSERT_EQ(data->intervals.size(), 2u);
    EXPECT_EQ(data->intervals[1].connectHistogramDecoded().count(), 4u);
    EXPECT_EQ(data->intervals[1].connectHistogramDecoded().minUs(), 151u);
    EXPECT_EQ(data->intervals[0].tlsHandshakeHistogramDecoded().count(), 4u);
    EXPECT_EQ(data->intervals[0].firstByteHistogramDecoded().count(), 100u);

    // The SLO verdicts are kept with the totals.
    auto judged = store().runs().begin(run);
    ASSERT_TRUE(judged.ok());
    result.slo = { { "p99<250ms", 1000, "us", true }, { "errors<1", 3, "", false } };
    result.sloAbortedBy = "errors<1";
    ASSERT_TRUE(store().runs().finish(*judged, FinishedRun::of(result, 1'700'000'001'000)).ok());
    auto judgedRecord = store().runs().record(*judged);
    ASSERT_TRUE(judgedRecord.ok());
    ASSERT_EQ(judgedRecord->totals.slo.size(), 2u);
    EXPECT_EQ(judgedRecord->totals.slo[1].expr, "errors<1");
    EXPECT_FALSE(judgedRecord->totals.slo[1].ok);
    EXPECT_DOUBLE_EQ(judgedRecord->totals.slo[1].value, 3);
    EXPECT_EQ(judgedRecord->totals.sloAbortedBy, "errors<1");

    // A run stored without them (imported, or before version 6) has count 0 and unknown values.
    const int64_t plain = addFinishedRun(target, {});
    auto record = store().runs().record(plain);
    ASSERT_TRUE(record.ok());
    EXPECT_EQ(record->totals.connect.count, 0u);
    EXPECT_TRUE(std::isnan(record->totals.connect.p50Us));
    EXPECT_TRUE(record->totals.slo.empty());

    // A dead process's run gets them back from its intervals.
    auto dead = store().runs().begin(run);
    ASSERT_TRUE(dead.ok());
    ASSERT_TRUE(store().runs().appendIntervals(*dead, intervals).ok());
    sqlText(
        store(), "UPDATE runs SET owner_pid = " + std::to_string(deadPid()) + " WHERE id = " + std::to_string(*dead));
    reopen();
    auto recovered = store().runs().load(*dead);
    ASSERT_TRUE(recovered.ok()) << recovered.error();
    EXPECT_EQ(recovered->run.status, RunStatus::Interrupted);
    EXPECT_EQ(recovered->run.totals.connect.count, 8u);
    EXPECT_EQ(recovered->run.totals.firstByte.count, 200u);
    ASSERT_TRUE(recovered->tlsHandshake.has_value());
    EXPECT_EQ(recovered->tlsHandshake->count(), 8u);
}
