// RunConfig::normalized() and the stage arithmetic, directly (the real runs in
// run_openmodel_test and the GUI's runtask_test check them end to end).

#include "run/runconfig.h"
#include "run/stages.h"

#include <gtest/gtest.h>

using namespace wb;

TEST(RunConfigNormalized, WithoutStagesNothingChanges)
{
    RunConfig c;
    c.connections = 7;
    c.durationUs = 3'000'000;
    const RunConfig n = c.normalized();
    EXPECT_EQ(n.durationUs, 3'000'000u);
    EXPECT_EQ(n.connections, 7u);
}

TEST(RunConfigNormalized, RateStagesSetTheDurationToTheirTotal)
{
    RunConfig c;
    c.durationUs = 10'000'000; // a profile's old duration
    c.connections = 50;
    c.stages = { { 10'000'000, 1000 }, { 30'000'000, 5000 }, { 10'000'000, 0 } };
    const RunConfig n = c.normalized();
    EXPECT_EQ(n.durationUs, 50'000'000u);
    EXPECT_EQ(n.connections, 50u); // rates do not touch the connection count
    EXPECT_TRUE(n.openModel());
}

TEST(RunConfigNormalized, ConnectionStagesOpenTheHighestStage)
{
    RunConfig c;
    c.threads = 4;
    c.connections = 10;
    c.stagesAreConnections = true;
    c.stages = { { 1'000'000, 50 }, { 2'000'000, 200 }, { 1'000'000, 20 } };
    RunConfig n = c.normalized();
    EXPECT_EQ(n.durationUs, 4'000'000u);
    EXPECT_EQ(n.connections, 200u);
    EXPECT_FALSE(n.openModel());
    // Never fewer than one connection per thread, even for a ramp to 1.
    c.stages = { { 1'000'000, 1 } };
    n = c.normalized();
    EXPECT_EQ(n.connections, 4u);
    EXPECT_TRUE(n.validate().ok());
}

TEST(RunConfigNormalized, IsIdempotent)
{
    RunConfig c;
    c.stagesAreConnections = true;
    c.stages = { { 500'000, 8 } };
    const RunConfig once = c.normalized();
    const RunConfig twice = once.normalized();
    EXPECT_EQ(twice.durationUs, once.durationUs);
    EXPECT_EQ(twice.connections, once.connections);
}

TEST(Stages, TotalDurationIsTheSum)
{
    EXPECT_EQ(totalStageDurationUs({}), 0u);
    EXPECT_EQ(totalStageDurationUs({ { 1'000'000, 5 }, { 250'000, 0 } }), 1'250'000u);
}

TEST(Stages, TargetsInterpolateFromZeroAndHoldTheLastAfterTheEnd)
{
    const std::vector<Stage> stages = { { 1'000'000, 100 }, { 2'000'000, 300 }, { 1'000'000, 0 } };
    EXPECT_DOUBLE_EQ(stageTargetAt(stages, 0), 0);
    EXPECT_DOUBLE_EQ(stageTargetAt(stages, 500'000), 50);
    EXPECT_DOUBLE_EQ(stageTargetAt(stages, 1'000'000), 100);
    EXPECT_DOUBLE_EQ(stageTargetAt(stages, 2'000'000), 200);
    EXPECT_DOUBLE_EQ(stageTargetAt(stages, 3'000'000), 300);
    EXPECT_DOUBLE_EQ(stageTargetAt(stages, 3'500'000), 150);
    EXPECT_DOUBLE_EQ(stageTargetAt(stages, 4'000'000), 0);
    EXPECT_DOUBLE_EQ(stageTargetAt(stages, 9'000'000), 0);
    EXPECT_DOUBLE_EQ(stageTargetAt({ { 1'000'000, 40 } }, 5'000'000), 40);
}
