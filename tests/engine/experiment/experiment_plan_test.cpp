// Experiment plans: parsing, defaults, sweeps and level lists, the run order,
// the canonical JSON round trip, and errors that name the field at fault.

#include "experiment/experimentplan.h"
#include "experiment/study.h"
#include "testsupport.h"

#include <gtest/gtest.h>

using namespace wb;

namespace {

const char* NEG_VS_NODEPORT = R"({
  "name": "NEG vs NodePort",
  "targets": [
    {"name": "NEG", "url": "https://10.0.0.1/", "headers": ["Host: api.example"], "insecure": true},
    {"name": "NodePort", "url": "http://10.0.0.2:30080/", "baseline": true}
  ],
  "load": {"timeout": "5s", "pipeline": 1},
  "sweep": {"axis": "connections", "values": [25, "50", 100], "match_threads": true},
  "repetitions": 2, "duration": "30s", "warmup": 5, "cooldown": "1m", "order": "sequential"
})";

std::string parseError(const std::string& json)
{
    auto plan = parseExperimentPlan(json);
    return plan ? std::string("parsed") : plan.error();
}

// A valid plan with one part replaced: the key "targets" etc. stay well formed.
std::string withTargets(const std::string& targets, const std::string& rest = "")
{
    return R"({"targets": )" + targets + rest + "}";
}

const std::string TWO_TARGETS
    = R"([{"name": "A", "url": "http://127.0.0.1:1/"}, {"name": "B", "url": "http://127.0.0.1:2/"}])";

} // namespace

TEST(ExperimentPlan, ParsesASweepLikeTheNegVsNodePortStudy)
{
    auto plan = parseExperimentPlan(NEG_VS_NODEPORT);
    ASSERT_TRUE(plan.ok()) << plan.error();
    EXPECT_EQ(plan->name, "NEG vs NodePort");
    ASSERT_EQ(plan->targets.size(), 2u);
    EXPECT_EQ(plan->baselineIndex(), 1u);
    EXPECT_EQ(plan->targets[0].request.url.host, "10.0.0.1");
    ASSERT_EQ(plan->targets[0].request.headers.size(), 1u);
    EXPECT_EQ(plan->targets[0].request.headers[0].value, "api.example");
    EXPECT_FALSE(plan->targets[0].tls.verifyPeer);
    EXPECT_EQ(plan->axis, "connections");
    ASSERT_EQ(plan->levels.size(), 3u);
    const unsigned expected[] = { 25, 50, 100 };
    for (size_t i = 0; i < 3; ++i) {
        EXPECT_EQ(plan->levels[i].label, "c" + std::to_string(expected[i]));
        EXPECT_EQ(plan->levels[i].load.connections, expected[i]);
        EXPECT_EQ(plan->levels[i].load.threads, expected[i]); // "with as many threads"
        EXPECT_DOUBLE_EQ(plan->levels[i].axisValue, expected[i]);
        EXPECT_EQ(plan->levels[i].load.timeoutUs, 5'000'000u);
    }
    EXPECT_EQ(plan->repetitions, 2u);
    EXPECT_EQ(plan->durationUs, 30'000'000u);
    EXPECT_EQ(plan->warmupUs, 5'000'000u);
    EXPECT_EQ(plan->cooldownUs, 60'000'000u);
    EXPECT_EQ(plan->order, ExperimentOrder::Sequential);
    EXPECT_EQ(plan->runCount(), 12u);

    const RunConfig c = plan->runConfig(1, 0);
    EXPECT_EQ(c.request.url.host, "10.0.0.1");
    EXPECT_EQ(c.connections, 50u);
    EXPECT_EQ(c.durationUs, 30'000'000u);
    EXPECT_EQ(c.warmupUs, 5'000'000u);
    EXPECT_TRUE(c.validate().ok());
}

TEST(ExperimentPlan, DefaultsAndAListOfLevels)
{
    auto plan = parseExperimentPlan(withTargets(TWO_TARGETS,
        R"(, "levels": [{"threads": 12, "connections": 400}, {"label": "open", "threads": 2, "connections": 100, "rate": "10k"}])"));
    ASSERT_TRUE(plan.ok()) << plan.error();
    EXPECT_EQ(plan->baselineIndex(), 0u); // the first target when none is marked
    EXPECT_TRUE(plan->targets[0].baseline);
    EXPECT_EQ(plan->levels[0].label, "t12 c400");
    EXPECT_EQ(plan->levels[1].label, "open");
    EXPECT_DOUBLE_EQ(plan->levels[1].load.ratePerS, 10000);
    EXPECT_DOUBLE_EQ(plan->levels[1].axisValue, 2); // no axis: the level's number
    EXPECT_EQ(plan->repetitions, 3u);
    EXPECT_EQ(plan->durationUs, 10'000'000u);
    EXPECT_EQ(plan->order, ExperimentOrder::Interleaved);
    EXPECT_EQ(plan->levels[0].load.connectTimeoutUs, 5'000'000u);

    auto single = parseExperimentPlan(withTargets(TWO_TARGETS, R"(, "load": {"threads": 4, "connections": 8})"));
    ASSERT_TRUE(single.ok()) << single.error();
    ASSERT_EQ(single->levels.size(), 1u);
    EXPECT_EQ(single->levels[0].label, "t4 c8");
}

TEST(ExperimentPlan, InterleavedAlternatesTargetsWithinEachCell)
{
    auto plan = parseExperimentPlan(withTargets(
        R"([{"name": "A", "url": "http://127.0.0.1:1/"}, {"name": "B", "url": "http://127.0.0.1:2/"}, {"name": "C", "url": "http://127.0.0.1:3/"}])",
        R"(, "sweep": {"axis": "threads", "values": [1, 2]}, "load": {"connections": 10}, "repetitions": 2)"));
    ASSERT_TRUE(plan.ok()) << plan.error();
    std::string order;
    for (const ScheduledRun& p : plan->schedule())
        order += std::to_string(p.cell) + "ABC"[p.target] + std::to_string(p.repetition) + " ";
    EXPECT_EQ(order, "0A0 0B0 0C0 0A1 0B1 0C1 1A0 1B0 1C0 1A1 1B1 1C1 ");

    plan->order = ExperimentOrder::Sequential;
    order.clear();
    for (const ScheduledRun& p : plan->schedule())
        order += std::to_string(p.cell) + "ABC"[p.target] + std::to_string(p.repetition) + " ";
    EXPECT_EQ(order, "0A0 0A1 0B0 0B1 0C0 0C1 1A0 1A1 1B0 1B1 1C0 1C1 ");
}

TEST(ExperimentPlan, CanonicalJsonRoundTrips)
{
    auto plan = parseExperimentPlan(NEG_VS_NODEPORT);
    ASSERT_TRUE(plan.ok()) << plan.error();
    plan->targets[1].sessionTargetId = 42;
    plan->targets[0].request.body = "{\"k\": \"é\"}";
    const std::string json = experimentPlanToJson(*plan);
    auto again = parseExperimentPlan(json);
    ASSERT_TRUE(again.ok()) << again.error() << "\n" << json;
    EXPECT_EQ(experimentPlanToJson(*again), json);
    EXPECT_EQ(again->targets[1].sessionTargetId, 42);
    EXPECT_EQ(again->targets[0].request.body, plan->targets[0].request.body);
    EXPECT_EQ(again->axis, "connections");
    EXPECT_EQ(again->levels.size(), 3u);
    EXPECT_EQ(again->levels[2].load.threads, 100u);
    EXPECT_EQ(again->cooldownUs, 60'000'000u);
    EXPECT_EQ(again->order, ExperimentOrder::Sequential);
    EXPECT_NE(json.find("\"cooldown\":\"1m\""), std::string::npos) << json;
}

// "description" is words for people (examples/ say there what their stand-ins are): a string, or a
// list of strings joined line by line; kept in the canonical form, refused when it is not text.
TEST(ExperimentPlan, ADescriptionIsKeptAsText)
{
    auto lines = parseExperimentPlan(withTargets(TWO_TARGETS, R"(, "description": ["Stand-ins.", "", "Real: x"])"));
    ASSERT_TRUE(lines.ok()) << lines.error();
    EXPECT_EQ(lines->description, "Stand-ins.\n\nReal: x");
    auto again = parseExperimentPlan(experimentPlanToJson(*lines));
    ASSERT_TRUE(again.ok()) << again.error();
    EXPECT_EQ(again->description, lines->description);
    auto one = parseExperimentPlan(withTargets(TWO_TARGETS, R"(, "description": "One line")"));
    ASSERT_TRUE(one.ok()) << one.error();
    EXPECT_EQ(one->description, "One line");
    auto none = parseExperimentPlan(withTargets(TWO_TARGETS));
    ASSERT_TRUE(none.ok()) << none.error();
    EXPECT_EQ(experimentPlanToJson(*none).find("description"), std::string::npos); // unchanged without one
    EXPECT_EQ(parseError(withTargets(TWO_TARGETS, R"(, "description": ["a", 2])")), "description[1]: must be a string");
    EXPECT_EQ(parseError(withTargets(TWO_TARGETS, R"(, "description": 3)")), "description: must be a string");
}

TEST(ExperimentPlan, ErrorsNameTheField)
{
    EXPECT_EQ(parseError("{"), parseError("{")); // deterministic
    EXPECT_TRUE(parseError("{").starts_with("the plan is not valid JSON")) << parseError("{");
    // nlohmann reports a number past double's range as out_of_range, not parse_error (found by fuzz_plan).
    EXPECT_TRUE(parseError(R"({"repetitions": 2e99999})").starts_with("the plan is not valid JSON"))
        << parseError(R"({"repetitions": 2e99999})");
    EXPECT_EQ(parseError("[]"), "must be an object");
    EXPECT_EQ(parseError(R"({"targets": []})"), "targets: an experiment needs at least two targets to compare");
    EXPECT_EQ(parseError(R"({"target": []})").substr(0, 25), "unknown key 'target' (exp");
    EXPECT_EQ(parseError(withTargets(R"([{"name": "A", "url": "http://x/"}, {"name": "B"}])")),
        "targets[1]: a target needs a \"url\"");
    EXPECT_EQ(parseError(withTargets(R"([{"name": "A", "url": "ftp://x/"}, {"name": "B", "url": "http://y/"}])")),
        "targets[0].url: unsupported scheme 'ftp' in 'ftp://x/' (use http or https)");
    EXPECT_EQ(parseError(withTargets(R"([{"name": "A", "url": "http://x/"}, {"name": "A", "url": "http://y/"}])")),
        "targets[1].name: 'A' is used twice");
    EXPECT_EQ(
        parseError(withTargets(
            R"([{"name": "A", "url": "http://x/", "baseline": true}, {"name": "B", "url": "http://y/", "baseline": true}])")),
        "targets: only one target can be the baseline");
    EXPECT_EQ(
        parseError(
            withTargets(
                R"([{"name": "A", "url": "http://x/", "headers": ["Bad header"]}, {"name": "B", "url": "http://y/"}])"))
            .substr(0, 22),
        "targets[0].headers[0]:");
    EXPECT_EQ(parseError(withTargets(TWO_TARGETS, R"(, "sweep": {"axis": "connections", "values": [10, 0]})")),
        "sweep.values[1]: must be between 1 and 1000000");
    EXPECT_EQ(parseError(withTargets(TWO_TARGETS, R"(, "sweep": {"axis": "users", "values": [1]})")),
        "sweep.axis: must be one of threads, connections, pipeline, streams, rate, conn_requests, conn_lifetime (not "
        "'users')");
    EXPECT_EQ(
        parseError(withTargets(TWO_TARGETS, R"(, "sweep": {"axis": "rate", "values": [100], "match_threads": true})")),
        "sweep.match_threads: applies only to a sweep of connections");
    EXPECT_EQ(parseError(withTargets(TWO_TARGETS, R"(, "sweep": {"axis": "threads", "values": [1]}, "levels": [{}])")),
        "give either \"sweep\" (one axis swept) or \"levels\" (a list of load levels), not both");
    // A level the engine would refuse is refused before the first run, with its place.
    EXPECT_EQ(parseError(withTargets(
                  TWO_TARGETS, R"(, "sweep": {"axis": "threads", "values": [4, 20]}, "load": {"connections": 10})")),
        "sweep.values[1]: connections (10) must be at least the number of threads (20): each thread needs a "
        "connection");
    EXPECT_EQ(parseError(withTargets(
                  TWO_TARGETS, R"(, "levels": [{"label": "x", "threads": 1}, {"label": "x", "threads": 2}])")),
        "levels[1]: the level 'x' appears twice");
    EXPECT_EQ(parseError(withTargets(TWO_TARGETS, R"(, "levels": [{"threds": 1}])")).substr(0, 40),
        "levels[0]: unknown key 'threds' (expecte");
    EXPECT_EQ(parseError(withTargets(TWO_TARGETS, R"(, "duration": "ten")")),
        "duration: invalid duration 'ten' (use e.g. 30s, 2m, 500ms)");
    EXPECT_EQ(parseError(withTargets(TWO_TARGETS, R"(, "duration": "50ms")")), "duration: must be at least 100ms");
    EXPECT_EQ(
        parseError(withTargets(TWO_TARGETS, R"(, "repetitions": 0)")), "repetitions: must be a positive whole number");
    EXPECT_EQ(parseError(withTargets(TWO_TARGETS, R"(, "order": "random")")),
        "order: must be \"interleaved\" or \"sequential\" (not 'random')");
    EXPECT_EQ(parseError(withTargets(TWO_TARGETS, R"(, "format": 2)")),
        "format: this version of wrkbench reads plan format 1");
    EXPECT_EQ(parseError(withTargets(
                  R"([{"name": "A", "url": "http://x/", "method": "get"}, {"name": "B", "url": "http://y/"}])")),
        "targets[0].method: invalid method 'get' (use e.g. GET, POST)");
}

// A target may send a request mix ("requests"): read with the plan, checked against the
// target's origin, kept in the canonical JSON by path, and in every run's configuration.
TEST(ExperimentPlan, TargetsCanSendARequestMix)
{
    test::TempDir dir;
    const std::string mix = dir.file("mix.txt");
    test::writeFile(mix, "GET http://127.0.0.1:1/a\n\nPOST http://127.0.0.1:1/b\n@body.txt\n");
    test::writeFile(dir.file("body.txt"), "payload");
    const std::string targets = R"([{"name": "A", "url": "http://127.0.0.1:1/", "requests": ")" + mix
        + R"(", "mix_order": "random", "seed": 7, "headers": ["X-Run: 1"]}, {"name": "B", "url": "http://127.0.0.1:2/"}])";
    auto plan = parseExperimentPlan(withTargets(targets));
    ASSERT_TRUE(plan.ok()) << plan.error();
    const RunConfig a = plan->runConfig(0, 0);
    ASSERT_EQ(a.mix.entries.size(), 2u);
    EXPECT_EQ(a.mix.order, MixOrder::Random);
    EXPECT_EQ(a.mix.seed, 7u);
    EXPECT_EQ(a.mix.entries[1].request.body, "payload");
    EXPECT_EQ(a.mix.entries[1].request.headers, (std::vector<Header> { { "X-Run", "1" } }));
    EXPECT_TRUE(plan->runConfig(0, 1).mix.empty());
    // The canonical form names the file; parsed again it is the same mix.
    auto again = parseExperimentPlan(experimentPlanToJson(*plan));
    ASSERT_TRUE(again.ok()) << again.error();
    EXPECT_EQ(again->runConfig(0, 0).mix.entries.size(), 2u);

    EXPECT_EQ(parseError(withTargets(R"([{"name": "A", "url": "http://127.0.0.1:9/", "requests": ")" + mix
                  + R"("}, {"name": "B", "url": "http://127.0.0.1:2/"}])")),
        "targets[0].requests: the mix goes to http://127.0.0.1:1/, the target's url to http://127.0.0.1:9/");
    EXPECT_NE(parseError(withTargets(R"([{"name": "A", "url": "http://127.0.0.1:1/", "requests": "/nonexistent/m"}, )"
                                     R"({"name": "B", "url": "http://127.0.0.1:2/"}])"))
                  .find("targets[0].requests: cannot read request mix /nonexistent/m"),
        std::string::npos);
}

// A target may run a wrk script ("script", "script_args"): read and checked (it parses) with the
// plan, in every run's configuration as text, kept in the canonical JSON by path; a broken one or
// one beside a request mix is named by its place.
TEST(ExperimentPlan, TargetsCanRunAWrkScript)
{
    test::TempDir dir;
    const std::string script = dir.file("auth.lua");
    test::writeFile(script, "wrk.method = 'POST'\n");
    const std::string targets = R"([{"name": "A", "url": "http://127.0.0.1:1/", "script": ")" + script
        + R"(", "script_args": ["x", "two words"]}, {"name": "B", "url": "http://127.0.0.1:2/"}])";
    auto plan = parseExperimentPlan(withTargets(targets));
    ASSERT_TRUE(plan.ok()) << plan.error();
    const RunConfig a = plan->runConfig(0, 0);
    EXPECT_EQ(a.script.name, script);
    EXPECT_EQ(a.script.text, "wrk.method = 'POST'\n");
    EXPECT_EQ(a.script.args, (std::vector<std::string> { "x", "two words" }));
    EXPECT_TRUE(plan->runConfig(0, 1).script.empty());
    // The canonical form names the file: parsed again (a resumed experiment) it reads it again.
    test::writeFile(script, "wrk.method = 'PUT'\n");
    auto again = parseExperimentPlan(experimentPlanToJson(*plan));
    ASSERT_TRUE(again.ok()) << again.error();
    EXPECT_EQ(again->runConfig(0, 0).script.text, "wrk.method = 'PUT'\n");
    EXPECT_EQ(again->runConfig(0, 0).script.args, a.script.args);

    const std::string broken = dir.file("broken.lua");
    test::writeFile(broken, "function request(\n");
    EXPECT_EQ(parseError(withTargets(R"([{"name": "A", "url": "http://127.0.0.1:1/", "script": ")" + broken
                  + R"("}, {"name": "B", "url": "http://127.0.0.1:2/"}])")),
        "targets[0].script: " + broken + ":2: <name> or '...' expected near '<eof>'");
    EXPECT_EQ(parseError(withTargets(R"([{"name": "A", "url": "http://127.0.0.1:1/", "script": "/nonexistent/s.lua"}, )"
                                     R"({"name": "B", "url": "http://127.0.0.1:2/"}])")),
        "targets[0].script: cannot read the script '/nonexistent/s.lua'");
    EXPECT_EQ(parseError(withTargets(R"([{"name": "A", "url": "http://127.0.0.1:1/", "script": ")" + script
                  + R"(", "script_args": "x"}, {"name": "B", "url": "http://127.0.0.1:2/"}])")),
        "targets[0].script_args: must be a list of strings (init(args))");
}

// SLOs: every run of the plan is judged by them (the run configs carry them), the canonical
// JSON keeps them, and a wrong one is named by its place and, within it, its character.
TEST(ExperimentPlan, SlosReachEveryRunAndRoundTrip)
{
    auto plan = parseExperimentPlan(withTargets(
        TWO_TARGETS, R"(, "sweep": {"axis": "connections", "values": [2, 4]}, "slo": ["p99<250ms", "errors < 1%"])"));
    ASSERT_TRUE(plan.ok()) << plan.error();
    ASSERT_EQ(plan->slos.size(), 2u);
    EXPECT_EQ(plan->slos[1].expr, "errors<1%");
    for (size_t cell = 0; cell < 2; ++cell)
        for (size_t t = 0; t < 2; ++t) {
            const RunConfig c = plan->runConfig(cell, t);
            ASSERT_EQ(c.slos.size(), 2u);
            EXPECT_EQ(c.slos[0].expr, "p99<250ms");
            EXPECT_FALSE(c.sloAbort);
        }
    const std::string json = experimentPlanToJson(*plan);
    EXPECT_NE(json.find(R"("slo":["p99<250ms","errors<1%"])"), std::string::npos) << json;
    auto again = parseExperimentPlan(json);
    ASSERT_TRUE(again.ok()) << again.error();
    EXPECT_EQ(experimentPlanToJson(*again), json);

    // One expression alone is a list of one; a plan without SLOs writes no "slo".
    auto one = parseExperimentPlan(withTargets(TWO_TARGETS, R"(, "slo": "rps>10")"));
    ASSERT_TRUE(one.ok()) << one.error();
    EXPECT_EQ(one->slos.size(), 1u);
    auto none = parseExperimentPlan(withTargets(TWO_TARGETS));
    ASSERT_TRUE(none.ok());
    EXPECT_EQ(experimentPlanToJson(*none).find("\"slo\""), std::string::npos);
}

TEST(ExperimentPlan, SloErrorsNameTheField)
{
    EXPECT_EQ(parseError(withTargets(TWO_TARGETS, R"(, "slo": ["p99<1s", "p99<25x"])")),
        "slo[1]: SLO 'p99<25x': at character 7, unknown unit 'x' (use us, ms or s)");
    EXPECT_EQ(
        parseError(withTargets(TWO_TARGETS, R"(, "slo": ["p99<1s", "p99 < 1s"])")), "slo[1]: 'p99<1s' is given twice");
    EXPECT_EQ(parseError(withTargets(TWO_TARGETS, R"(, "slo": 5)")).substr(0, 22), "slo: must be a list of");
    EXPECT_TRUE(parseError(withTargets(TWO_TARGETS, R"(, "slo": ["errors<1%"], "slo_abort": true)"))
                    .starts_with("slo_abort: not for experiments"));
    // The engine's own checks, with the place they apply to.
    EXPECT_EQ(parseError(withTargets(TWO_TARGETS, R"(, "slo": ["service_p99<5ms"])")),
        "load: SLO 'service_p99<5ms': the service time is measured in the open model only (-R/--rate or rate "
        "stages)");
    EXPECT_EQ(parseError(withTargets(R"([{"name": "A", "url": "https://x/"}, {"name": "B", "url": "http://y/"}])",
                  R"(, "slo": ["tls_p99<5ms"])")),
        "targets[1]: SLO 'tls_p99<5ms': an http:// target has no TLS handshake");
}

// Behind the front door: the specs in "load" reach every run, "metrics" asks for the run metrics,
// both round-trip through the canonical form, and a metric the load cannot measure is refused.
TEST(ExperimentPlan, BackendSpecsAndRunMetricsReachEveryRunAndRoundTrip)
{
    auto plan = parseExperimentPlan(withTargets(TWO_TARGETS,
        R"(, "load": {"backend_from": "body", "max_backends": 64, "upstream_time": "header:X-Upstream-Time:s"},
            "sweep": {"axis": "connections", "values": [2, 4]}, "metrics": ["backend-cv", "front-door-share"])"));
    ASSERT_TRUE(plan.ok()) << plan.error();
    ASSERT_EQ(plan->metrics.size(), 2u);
    EXPECT_EQ(plan->metrics[0], RunMetric::BackendCv);
    EXPECT_EQ(plan->metrics[1], RunMetric::FrontDoorShare);
    for (size_t cell = 0; cell < 2; ++cell)
        for (size_t t = 0; t < 2; ++t) {
            const RunConfig c = plan->runConfig(cell, t);
            EXPECT_EQ(c.backendFrom.source, BackendFrom::Source::Body);
            EXPECT_EQ(c.backendFrom.maxBackends, 64u);
            EXPECT_EQ(upstreamTimeText(c.upstreamTime), "header:X-Upstream-Time:s");
        }
    const std::string json = experimentPlanToJson(*plan);
    EXPECT_NE(json.find(R"("metrics":["backend-cv","front-door-share"])"), std::string::npos) << json;
    EXPECT_NE(json.find(R"("backend_from":"body")"), std::string::npos) << json;
    auto again = parseExperimentPlan(json);
    ASSERT_TRUE(again.ok()) << again.error();
    EXPECT_EQ(experimentPlanToJson(*again), json);
    EXPECT_EQ(again->runConfig(1, 1).backendFrom.maxBackends, 64u);

    // Without them the canonical form stays as it was.
    auto none = parseExperimentPlan(withTargets(TWO_TARGETS));
    ASSERT_TRUE(none.ok());
    const std::string plain = experimentPlanToJson(*none);
    for (const char* key : { "\"metrics\"", "\"backend_from\"", "\"upstream_time\"" })
        EXPECT_EQ(plain.find(key), std::string::npos) << key;

    EXPECT_EQ(parseError(withTargets(TWO_TARGETS, R"(, "metrics": ["backend-cv"])")),
        "metrics[0]: 'backend-cv' needs \"backend_from\" in \"load\" (or in every level)");
    EXPECT_EQ(parseError(withTargets(TWO_TARGETS, R"(, "load": {"backend_from": "body"}, "metrics": ["evenness"])")),
        "metrics[0]: 'evenness' is no metric; the metrics are backend-cv, backend-max-min, front-door-share");
    EXPECT_EQ(parseError(withTargets(
                  TWO_TARGETS, R"(, "load": {"backend_from": "body"}, "metrics": ["backend-cv", "backend-cv"])")),
        "metrics[1]: 'backend-cv' is given twice");
    EXPECT_EQ(parseError(withTargets(TWO_TARGETS, R"(, "load": {"backend_from": "bodyx"})")).substr(0, 19),
        "load.backend_from: ");
}

TEST(StudySpecJson, RoundTripsTheRunIds)
{
    StudySpec spec;
    spec.name = "gateways";
    spec.runs = "1-3,9";
    spec.runIds = { 1, 2, 3, 9 };
    const auto back = studySpecFromJson(studySpecToJson(spec));
    ASSERT_TRUE(back.ok()) << back.error();
    EXPECT_EQ(back->runIds, spec.runIds);
    EXPECT_EQ(back->runs, "1-3,9");
}

TEST(StudySpecJson, RunIdsThatAreNotWholeNumbersAreRefused)
{
    // 1e40 as an int64_t is undefined behaviour (found by fuzz_plan), 2.5 would become run 2,
    // and 2^64-1 would become -1.
    StudySpec spec;
    spec.runs = "1";
    spec.runIds = { 1 };
    const std::string good = studySpecToJson(spec);
    ASSERT_NE(good.find("\"run_ids\":[1]"), std::string::npos) << good;
    for (const char* bad : { "[1e40]", "[2.5]", "[18446744073709551615]", "[\"1\"]" }) {
        std::string text = good;
        text.replace(text.find("[1]"), 3, bad);
        const auto r = studySpecFromJson(text);
        ASSERT_FALSE(r.ok()) << bad;
        EXPECT_NE(r.error().find("run_ids"), std::string::npos) << r.error();
    }
}

// "search": the plan is a capacity search over its targets, its options read as the CLI's flags,
// kept in the canonical JSON; what a search cannot take is refused, naming the field.
TEST(ExperimentPlan, ASearchSectionMakesACapacitySearch)
{
    auto plan = parseExperimentPlan(withTargets(TWO_TARGETS,
        R"(, "load": {"threads": 2, "connections": 50}, "search": {"slo": ["p99<50ms", "errors<0.1%"], "precision": "5%", "repeat": 2, "trial": "2s"})"));
    ASSERT_TRUE(plan.ok()) << plan.error();
    ASSERT_TRUE(plan->search.has_value());
    ASSERT_EQ(plan->search->slos.size(), 2u);
    EXPECT_EQ(plan->search->slos[1].expr, "errors<0.1%");
    const std::vector<std::pair<std::string, std::string>> options { { "trial", "2s" }, { "repeat", "2" },
        { "precision", "5%" } };
    for (const auto& o : options)
        EXPECT_NE(std::find(plan->search->options.begin(), plan->search->options.end(), o), plan->search->options.end())
            << o.first;
    EXPECT_EQ(plan->runConfig(0, 1).connections, 50u);
    auto again = parseExperimentPlan(experimentPlanToJson(*plan));
    ASSERT_TRUE(again.ok()) << again.error();
    EXPECT_EQ(experimentPlanToJson(*again), experimentPlanToJson(*plan));
    ASSERT_TRUE(again->search.has_value());

    // One front door's capacity is a question of its own; an experiment without a search still
    // needs two targets to compare, and a search needs one.
    auto one = parseExperimentPlan(
        withTargets(R"([{"name": "A", "url": "http://127.0.0.1:1/"}])", R"(, "search": {"slo": ["p99<50ms"]})"));
    ASSERT_TRUE(one.ok()) << one.error();
    EXPECT_EQ(one->targets.size(), 1u);
    EXPECT_EQ(parseError(withTargets(R"([{"name": "A", "url": "http://127.0.0.1:1/"}])")),
        "targets: an experiment needs at least two targets to compare");
    EXPECT_EQ(
        parseError(withTargets("[]", R"(, "search": {"slo": ["p99<50ms"]})")), "targets: a search needs a target");

    for (const auto& [rest, message] : std::vector<std::pair<std::string, std::string>> {
             { R"(, "search": {"precision": "5%"})", "search.slo: a search needs its SLOs" },
             { R"(, "search": {"slo": ["p99<50ms"], "precison": "5%"})", "search: unknown key 'precison'" },
             { R"(, "search": {"slo": ["p99<50ms"], "repeat": 0})", "search.repeat: " },
             { R"(, "load": {"rate": 100}, "search": {"slo": ["p99<50ms"]})", "the search sets each trial's rate" },
             { R"(, "load": {"responses": 1000}, "search": {"slo": ["p99<50ms"]})", "a trial lasts its length" },
             { R"(, "sweep": {"axis": "connections", "values": [1, 2]}, "search": {"slo": ["p99<50ms"]})",
                 "goes with one load" },
         }) {
        const std::string error = parseError(withTargets(TWO_TARGETS, rest));
        EXPECT_NE(error.find(message), std::string::npos) << rest << " -> " << error;
    }
}
