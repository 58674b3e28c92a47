// A capacity search as a session keeps it: the definition round-trips, the trials are stored in
// order in a real session file, and replaying them gives back the search where it stopped, so
// that an interrupted search goes on to the very result an uninterrupted one reaches. A file whose
// trials do not follow from its definition is refused.
#include "capacity/capacityrecord.h"
#include "store/sessionstore.h"
#include "testsupport.h"

#include <gtest/gtest.h>

namespace wb {
namespace {

CapacityDefinition definition()
{
    CapacityDefinition d;
    d.options.toPerS = 100'000;
    d.options.trialUs = 1'000'000;
    d.options.finalUs = 4'000'000;
    d.options.repeat = 2;
    d.options.precision = 0.01;
    for (const char* label : { "A", "B" }) {
        CapacityTargetDefinition t;
        t.label = label;
        t.url = std::string("http://127.0.0.1:9/") + label;
        t.config.request.url = *parseUrl(t.url);
        t.config.connections = 64;
        t.config.slos = { *parseSlo("p99<50ms") };
        t.restLatencyUs = 850;
        t.fromPerS = 300;
        d.targets.push_back(std::move(t));
    }
    return d;
}

/// A and B pass up to 1234 and 2345 req/s.
bool passes(int target, double rate)
{
    return rate <= (target == 0 ? 1234 : 2345);
}

/// Runs the searches in turn (as the CLI does) for at most `trials` trials, storing each.
void runSearches(std::vector<CapacitySearch>& searches, SessionStore& store, int64_t id, size_t trials)
{
    size_t made = 0;
    for (bool any = true; any && made < trials;) {
        any = false;
        for (size_t i = 0; i < searches.size() && made < trials; ++i) {
            auto trial = searches[i].next();
            if (!trial) continue;
            any = true;
            TrialOutcome out;
            out.passed = passes(static_cast<int>(i), trial->ratePerS);
            if (!out.passed) out.failedSlo = "p99<50ms";
            out.slo = { { "p99<50ms", out.passed ? 12.5 : 80.0, "ms", out.passed } };
            out.elapsedS = static_cast<double>(trial->durationUs) / 1e6;
            searches[i].record(out);
            ASSERT_TRUE(
                store.experiments().addCapacityTrial(id, capacityTrialRow(static_cast<int>(i), *trial, out)).ok());
            ++made;
        }
    }
}

TEST(CapacityRecord, TheDefinitionRoundTrips)
{
    const CapacityDefinition d = definition();
    auto back = capacityDefinitionFromJson(capacityDefinitionToJson(d));
    ASSERT_TRUE(back.ok()) << back.error();
    EXPECT_EQ(capacityDefinitionToJson(*back), capacityDefinitionToJson(d));
    ASSERT_EQ(back->targets.size(), 2u);
    EXPECT_EQ(back->targets[1].url, "http://127.0.0.1:9/B");
    EXPECT_EQ(back->targets[1].config.connections, 64u);
    ASSERT_EQ(back->targets[1].config.slos.size(), 1u);
    EXPECT_EQ(back->targets[1].config.slos[0].expr, "p99<50ms");
    EXPECT_EQ(back->options.repeat, 2u);
    EXPECT_DOUBLE_EQ(back->options.precision, 0.01);
    EXPECT_DOUBLE_EQ(back->targets[0].restLatencyUs, 850);
    EXPECT_EQ(back->targets[0].sessionTargetId, 0);
    // A search started in the window keeps the session targets its trials are runs of.
    CapacityDefinition windowed = d;
    windowed.targets[1].sessionTargetId = 42;
    auto again = capacityDefinitionFromJson(capacityDefinitionToJson(windowed));
    ASSERT_TRUE(again.ok()) << again.error();
    EXPECT_EQ(again->targets[0].sessionTargetId, 0);
    EXPECT_EQ(again->targets[1].sessionTargetId, 42);
}

TEST(CapacityRecord, HostileDefinitionsAreRefusedInOneSentence)
{
    for (const auto& [json, message] :
        std::vector<std::pair<std::string, std::string>> {
            { "[1", "not JSON" },
            { R"({"kind": "plan"})", "not a capacity search's definition" },
            { R"({"kind": "capacity", "targets": []})", "needs 1 to 64 targets" },
            { R"({"kind": "capacity", "options": {"repeat": "0"}, "targets": []})", "option 'repeat'" },
            { R"({"kind": "capacity", "targets": [{"label": "A", "config": {}, "from_per_s": -1}]})", "out of range" },
            { R"({"kind": "capacity", "targets": [{"label": "A"}]})", "has no configuration" },
            { R"({"kind": "capacity", "targets": [{"label": 5, "config": {}}]})", "a field of the wrong type" },
            { R"({"kind": "capacity", "targets": [{"label": "A", "config": {}, "from_per_s": "x"}]})",
                "a field of the wrong type" },
            { R"({"kind": "capacity", "targets": [{"label": "A", "config": {}, "from_per_s": 300, "session_target_id": "7"}]})",
                "its session target is not an id" },
        }) {
        auto d = capacityDefinitionFromJson(json);
        ASSERT_FALSE(d.ok()) << json;
        EXPECT_NE(d.error().find(message), std::string::npos) << d.error();
    }
}

TEST(CapacityRecord, AnInterruptedSearchGoesOnToTheSameResult)
{
    test::TempDir dir;
    auto store = SessionStore::open(dir.file("s.wrkbench"));
    ASSERT_TRUE(store.ok()) << store.error();
    const CapacityDefinition d = definition();

    // Uninterrupted, for reference.
    auto whole = (*store)->experiments().add("whole", capacityDefinitionToJson(d), {}, ExperimentKind::Capacity);
    ASSERT_TRUE(whole.ok()) << whole.error();
    std::vector<CapacitySearch> reference = d.searches();
    runSearches(reference, **store, *whole, 10'000);
    ASSERT_TRUE(reference[0].done() && reference[1].done());

    // Stopped after 7 trials, read back from the file, replayed, and run to the end.
    auto part = (*store)->experiments().add("part", capacityDefinitionToJson(d), {}, ExperimentKind::Capacity);
    ASSERT_TRUE(part.ok());
    {
        std::vector<CapacitySearch> first = d.searches();
        runSearches(first, **store, *part, 7);
        ASSERT_FALSE(first[0].done());
    }
    auto record = (*store)->experiments().get(*part);
    ASSERT_TRUE(record.ok());
    EXPECT_EQ(record->kind, ExperimentKind::Capacity);
    auto stored = capacityDefinitionFromJson(record->planJson);
    ASSERT_TRUE(stored.ok()) << stored.error();
    auto rows = (*store)->experiments().capacityTrials(*part);
    ASSERT_TRUE(rows.ok()) << rows.error();
    ASSERT_EQ(rows->size(), 7u);
    EXPECT_EQ(rows->at(0).target, 0);
    EXPECT_EQ(rows->at(1).target, 1);
    EXPECT_EQ(rows->at(0).sloJson, R"([{"expr":"p99<50ms","value":12.5,"unit":"ms","ok":true}])");
    std::vector<CapacitySearch> resumed = stored->searches();
    ASSERT_TRUE(replayCapacityTrials(resumed, *rows).ok());
    runSearches(resumed, **store, *part, 10'000);

    for (size_t i = 0; i < 2; ++i) {
        const CapacityResult a = reference[i].result(), b = resumed[i].result();
        EXPECT_EQ(b.ratePerS, a.ratePerS) << i;
        EXPECT_EQ(b.upperPerS, a.upperPerS) << i;
        EXPECT_EQ(b.trials.size(), a.trials.size()) << i;
        EXPECT_DOUBLE_EQ(b.elapsedS, a.elapsedS) << i;
    }
    EXPECT_LE(resumed[0].result().ratePerS, 1234);
    EXPECT_GT(resumed[0].result().upperPerS, 1234);
    EXPECT_EQ(
        (*store)->experiments().capacityTrials(*part)->size(), (*store)->experiments().capacityTrials(*whole)->size());

    // A trial that does not follow from the ones before it (the file was edited) is refused.
    std::vector<CapacityTrialRow> edited = *rows;
    edited[3].ratePerS *= 1.5;
    std::vector<CapacitySearch> again = stored->searches();
    const Status st = replayCapacityTrials(again, edited);
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.error().find("stored trial 4 ("), std::string::npos) << st.error();
    edited = *rows;
    edited[2].target = 5;
    again = stored->searches();
    EXPECT_NE(replayCapacityTrials(again, edited).error().find("names no target"), std::string::npos);

    // Deleting the search takes its trials with it.
    ASSERT_TRUE((*store)->experiments().remove(*part).ok());
    EXPECT_TRUE((*store)->experiments().capacityTrials(*part)->empty());
}

} // namespace
} // namespace wb
