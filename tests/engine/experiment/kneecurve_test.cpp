// Latency against throughput: an experiment's curves (one per variant, a point per
// level, x the achieved whole-run requests/s whatever the table's metric) and a stage
// run's points (each stage's intervals merged exactly).

#include "experiment/experimentresults.h"
#include "experiment/kneecurve.h"
#include "stats/histogram.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace wb;

namespace {

ExperimentResults rateSweep(const std::string& values)
{
    auto plan = parseExperimentPlan(R"({"name": "knee", "targets": [
        {"name": "A", "url": "http://10.0.0.1/", "baseline": true, "session_target_id": 1},
        {"name": "B", "url": "http://10.0.0.2/", "session_target_id": 2}],
        "sweep": {"axis": "rate", "values": )"
        + values + R"(}, "repetitions": 2, "duration": "10s"})");
    EXPECT_TRUE(plan.ok()) << plan.error();
    std::vector<RunRecord> runs;
    int64_t id = 1;
    for (size_t cell = 0; cell < plan->levels.size(); ++cell)
        for (int rep = 0; rep < 2; ++rep)
            for (int64_t target : { 1, 2 }) {
                RunRecord r;
                r.id = id++;
                r.targetId = target;
                r.status = RunStatus::Completed;
                r.hasTotals = true;
                r.config = plan->runConfig(cell, static_cast<size_t>(target - 1));
                // A keeps up; B saturates at 1500 req/s and its latency climbs.
                const double asked = plan->levels[cell].axisValue;
                r.totals.requestsPerS = (target == 1 ? asked : std::min(asked, 1500.0)) + rep;
                r.totals.threadRate.mean = r.totals.requestsPerS / 2;
                r.totals.latency.p50Us = target == 1 ? 1000 : 1000 * (cell + 1) * (cell + 1) + rep * 100;
                r.totals.latency.p99Us = r.totals.latency.p50Us * 4;
                r.experiment = ExperimentSlot { 1, static_cast<int>(cell), rep };
                runs.push_back(r);
            }
    ExperimentRecord e;
    e.id = 1;
    return computeExperimentResults(e, *plan, runs);
}

IntervalRecord interval(uint32_t index, double startS, double endS, uint64_t requests, uint64_t latencyUs)
{
    IntervalRecord in;
    in.index = index;
    in.startS = startS;
    in.endS = endS;
    in.requests = requests;
    LatencyHistogram h;
    h.recordN(latencyUs, requests);
    in.latencyHistogram = h.serialize();
    return in;
}

} // namespace

TEST(KneeCurve, OneCurvePerVariantWithAchievedRateAgainstLatency)
{
    const ExperimentResults results = rateSweep("[1000, 2000, 3000]");
    const std::vector<KneeCurve> curves = experimentKneeCurves(results);
    ASSERT_EQ(curves.size(), 2U);
    EXPECT_EQ(curves[0].name, "A");
    EXPECT_EQ(curves[1].name, "B");
    ASSERT_EQ(curves[1].points.size(), 3U);
    // B: the achieved rate stops at ~1500 while p50 climbs: the knee.
    EXPECT_DOUBLE_EQ(curves[1].points[0].requestsPerS, 1000.5); // the mean of 1000 and 1001
    EXPECT_DOUBLE_EQ(curves[1].points[2].requestsPerS, 1500.5);
    EXPECT_DOUBLE_EQ(curves[1].points[0].p50Us, 1050);
    EXPECT_DOUBLE_EQ(curves[1].points[2].p50Us, 9050);
    EXPECT_DOUBLE_EQ(curves[1].points[2].p99Us, 9050 * 4);
    EXPECT_EQ(curves[1].points[2].label, results.plan.levels[2].label);
}

TEST(KneeCurve, UsesWholeRunRateEvenWithThePerThreadMetric)
{
    ExperimentResults results = rateSweep("[1000, 2000]");
    results.metric = RateMetric::PerThread; // the table's metric; the knee's x is what the target achieved
    const auto curves = experimentKneeCurves(results);
    ASSERT_EQ(curves.size(), 2U);
    EXPECT_DOUBLE_EQ(curves[0].points[1].requestsPerS, 2000.5);
}

TEST(KneeCurve, OneLevelIsNoCurve)
{
    EXPECT_TRUE(experimentKneeCurves(rateSweep("[1000]")).empty());
}

TEST(KneeCurve, StagePointsMergeEachStagesIntervals)
{
    RunConfig config;
    config.stages = { { 2'000'000, 100 }, { 2'000'000, 300 } };
    // Stage 1: 2 s at 100 and 120 requests (1 ms and 3 ms); stage 2: 2 s at 300 each (10 ms); a
    // drained last interval past the end goes to the last stage.
    const std::vector<IntervalRecord> intervals { interval(0, 0, 1, 100, 1000), interval(1, 1, 2, 120, 3000),
        interval(2, 2, 3, 300, 10'000), interval(3, 3, 4, 300, 10'000), interval(4, 4, 4.5, 0, 0) };
    const std::vector<KneePoint> points = stageKneePoints(config, intervals);
    ASSERT_EQ(points.size(), 2U);
    EXPECT_EQ(points[0].label, "stage 1: 100/s");
    EXPECT_DOUBLE_EQ(points[0].requestsPerS, 110); // 220 requests in 2 s
    // The merged histogram's median is in the 3 ms bucket (120 of 220 requests), not an average of medians.
    EXPECT_NEAR(points[0].p50Us, 3000, 3000 * 0.01);
    EXPECT_NEAR(points[0].p99Us, 3000, 3000 * 0.01);
    EXPECT_EQ(points[1].label, "stage 2: 300/s");
    EXPECT_DOUBLE_EQ(points[1].requestsPerS, 600.0 / 2.5);
    EXPECT_NEAR(points[1].p50Us, 10'000, 10'000 * 0.01);

    RunConfig connections = config;
    connections.stagesAreConnections = true;
    EXPECT_EQ(stageKneePoints(connections, intervals)[1].label, "stage 2: 300 connections");
    EXPECT_TRUE(stageKneePoints(RunConfig {}, intervals).empty()); // no stages
}
