#include "report/jsonreport.h"
#include "stats/hdrcodec.h"
#include "wire/intervalcodec.h"

#include <cmath>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>

using namespace wb;
using nlohmann::json;

namespace {

RunResult sampleResult()
{
    RunResult r;
    r.config.request.method = "POST";
    r.config.request.url.scheme = "http";
    r.config.request.url.host = "127.0.0.1";
    r.config.request.url.port = 8080;
    r.config.request.url.target = "/api?x=1";
    r.config.threads = 4;
    r.config.connections = 64;
    r.config.pipeline = 2;
    r.config.durationUs = 30'000'000;
    r.config.warmupUs = 2'500'000;
    r.config.timeoutUs = 1'500'000;
    r.engineVersion = "0.1.0";
    r.durationS = 30.0125;
    r.requests = 123'456;
    r.bytes = 98'765'432;
    for (uint64_t v = 50; v < 20'000; v += 7)
        r.latency.record(v);
    r.latency.recordN(250'000, 3);
    r.threadRates.perThreadRequestsPerS = { 1000, 1100, 1200, 4000 };
    r.errors.connect = 1;
    r.errors.read = 2;
    r.errors.write = 3;
    r.errors.timeout = 4;
    r.errors.tls = 5;
    r.errors.parse = 6;
    r.errors.stream = 8;
    for (int i = 0; i < 10; ++i)
        r.status.add(200);
    for (int i = 0; i < 7; ++i)
        r.status.add(503);
    r.status.add(1234); // outside 100..599: counted under 0

    IntervalSnapshot first;
    first.index = 0;
    first.startS = 0;
    first.endS = 1.0;
    first.requests = 4000;
    first.bytes = 320'000;
    first.errors.read = 2;
    first.status.byCode[200] = 3999;
    first.status.byCode[503] = 1; // an answer: in non2xx, not in errors
    for (uint64_t v = 100; v < 5000; v += 3)
        first.latency.record(v);
    IntervalSnapshot second = first;
    second.index = 1;
    second.startS = 1.0;
    second.endS = 1.5; // a shortened last interval
    second.requests = 1000;
    second.errors = ErrorCounts {};
    second.status = StatusCounts {};
    second.status.byCode[200] = 1000;
    r.intervals = { IntervalRecord::of(first, 1'700'000'000'000), IntervalRecord::of(second, 1'700'000'001'000) };
    return r;
}

json parse(const RunResult& r)
{
    const std::string text = formatJsonReport(r);
    EXPECT_FALSE(text.empty());
    return json::parse(text); // throws (and fails the test) on invalid JSON
}

} // namespace

TEST(JsonReport, TopLevelAndConfig)
{
    const RunResult r = sampleResult();
    const json j = parse(r);
    EXPECT_EQ(j["tool"], "wrkbench");
    EXPECT_EQ(j["version"], "0.1.0");
    EXPECT_EQ(j["url"], r.config.request.url.displayText());
    EXPECT_EQ(j["url"], "http://127.0.0.1:8080/api?x=1");
    EXPECT_EQ(j["method"], "POST");

    const json& c = j["config"];
    EXPECT_EQ(c["threads"], 4);
    EXPECT_EQ(c["connections"], 64);
    EXPECT_DOUBLE_EQ(c["duration_s"].get<double>(), 30.0);
    EXPECT_DOUBLE_EQ(c["warmup_s"].get<double>(), 2.5);
    EXPECT_DOUBLE_EQ(c["timeout_s"].get<double>(), 1.5);
    EXPECT_EQ(c["pipeline"], 2);
    ASSERT_TRUE(c.contains("rate"));
    EXPECT_TRUE(c["rate"].is_null());
}

TEST(JsonReport, Summary)
{
    const RunResult r = sampleResult();
    const json s = parse(r)["summary"];
    EXPECT_EQ(s["requests"].get<uint64_t>(), r.requests);
    EXPECT_EQ(s["bytes"].get<uint64_t>(), r.bytes);
    EXPECT_DOUBLE_EQ(s["duration_s"].get<double>(), r.durationS);
    EXPECT_DOUBLE_EQ(s["rps"].get<double>(), r.requestsPerS());
    EXPECT_DOUBLE_EQ(s["bytes_per_s"].get<double>(), r.bytesPerS());
    EXPECT_EQ(s["stopped_early"], false);

    const json& l = s["latency_us"];
    EXPECT_EQ(l["min"].get<uint64_t>(), r.latency.minUs());
    EXPECT_EQ(l["min"].get<uint64_t>(), 50u);
    EXPECT_DOUBLE_EQ(l["mean"].get<double>(), r.latency.meanUs());
    EXPECT_DOUBLE_EQ(l["stdev"].get<double>(), r.latency.stdevUs());
    EXPECT_EQ(l["max"].get<uint64_t>(), 250'000u);
    EXPECT_EQ(l["p50"].get<uint64_t>(), r.latency.valueAtPercentileUs(50));
    EXPECT_EQ(l["p75"].get<uint64_t>(), r.latency.valueAtPercentileUs(75));
    EXPECT_EQ(l["p90"].get<uint64_t>(), r.latency.valueAtPercentileUs(90));
    EXPECT_EQ(l["p99"].get<uint64_t>(), r.latency.valueAtPercentileUs(99));
    EXPECT_EQ(l["p99_9"].get<uint64_t>(), r.latency.valueAtPercentileUs(99.9));
    EXPECT_EQ(l["p99_99"].get<uint64_t>(), r.latency.valueAtPercentileUs(99.99));
    EXPECT_LT(l["p50"].get<uint64_t>(), l["p99"].get<uint64_t>());
    EXPECT_EQ(l["p99_99"].get<uint64_t>(), 250'000u); // the three slow ones are above p99.9

    EXPECT_EQ(s["status_codes"], json({ { "0", 1 }, { "200", 10 }, { "503", 7 } }));

    const json& e = s["errors"];
    EXPECT_EQ(e,
        json({ { "connect", 1 }, { "read", 2 }, { "write", 3 }, { "timeout", 4 }, { "tls", 5 }, { "parse", 6 },
            { "stream", 8 } }));
    // Responses outside 2xx/3xx are answers, counted apart: the 503s and the one out of range.
    EXPECT_EQ(s["non2xx"], 8);
}

TEST(JsonReport, ConnectionPhases)
{
    RunResult r = sampleResult();
    r.connectTime.recordN(120, 63);
    r.connectTime.record(5000);
    r.firstByte.recordN(30, 1000);
    json s = parse(r)["summary"];
    EXPECT_EQ(s["connect_us"],
        json({ { "count", 64 }, { "mean", r.connectTime.meanUs() }, { "p50", 120 }, { "p90", 120 }, { "p99", 5000 },
            { "max", 5000 } }));
    EXPECT_EQ(s["ttfb_us"]["count"], 1000);
    EXPECT_EQ(s["ttfb_us"]["p99"], 30);
    EXPECT_FALSE(s.contains("tls_handshake_us")); // plain http

    r.config.request.url.scheme = "https";
    r.tlsHandshake.recordN(2000, 64);
    s = parse(r)["summary"];
    EXPECT_EQ(s["tls_handshake_us"]["count"], 64);
    EXPECT_EQ(s["tls_handshake_us"]["p50"], 2000);
}

TEST(JsonReport, RequestMixEntries)
{
    RunResult r = sampleResult();
    r.config.mix.source = "mix.jsonl";
    r.config.mix.order = MixOrder::Random;
    r.config.mix.seed = 9;
    for (int i = 0; i < 2; ++i) {
        MixRequest e;
        e.request = r.config.request;
        e.request.method = i ? "POST" : "GET";
        e.weight = i ? 3 : 1;
        e.line = static_cast<unsigned>(i + 1);
        e.label = i ? "POST /b" : "GET /a";
        r.config.mix.entries.push_back(e);
    }
    r.entries.resize(2);
    r.entries[0].addResponse(200, 1000, true);
    r.entries[0].addResponse(404, 3000, true);
    r.entries[1].errors.read = 1;
    const json j = parse(r);
    EXPECT_EQ(j["mix"], json({ { "source", "mix.jsonl" }, { "order", "random" }, { "seed", 9 }, { "entries", 2 } }));
    ASSERT_EQ(j["entries"].size(), 2u);
    const json& a = j["entries"][0];
    EXPECT_EQ(a["label"], "GET /a");
    EXPECT_EQ(a["method"], "GET");
    EXPECT_EQ(a["line"], 1);
    EXPECT_EQ(a["requests"], 2);
    EXPECT_EQ(a["non2xx"], 1);
    EXPECT_EQ(a["errors"], 0);
    EXPECT_EQ(a["status_codes"], json({ { "200", 1 }, { "404", 1 } }));
    EXPECT_EQ(a["latency_us"]["max"], 3000);
    EXPECT_DOUBLE_EQ(a["rps"].get<double>(), 2 / r.durationS);
    const json& b = j["entries"][1];
    EXPECT_EQ(b["weight"], 3.0);
    EXPECT_EQ(b["errors"], 1);
    EXPECT_EQ(b["errors_by_kind"]["read"], 1);
    EXPECT_FALSE(b.contains("latency_us")); // no response: no latency
    EXPECT_FALSE(parse(sampleResult()).contains("entries"));
}

TEST(JsonReport, ThreadRates)
{
    const RunResult r = sampleResult();
    const json t = parse(r)["thread_rps"];
    EXPECT_DOUBLE_EQ(t["mean"].get<double>(), 1825.0);
    EXPECT_DOUBLE_EQ(t["stdev"].get<double>(), r.threadRates.stdev());
    EXPECT_DOUBLE_EQ(t["max"].get<double>(), 4000.0);
    EXPECT_DOUBLE_EQ(t["within_stdev_pct"].get<double>(), 75.0);
}

TEST(JsonReport, Intervals)
{
    const RunResult r = sampleResult();
    const json is = parse(r)["intervals"];
    ASSERT_TRUE(is.is_array());
    ASSERT_EQ(is.size(), 2u);
    for (size_t i = 0; i < is.size(); ++i) {
        const IntervalRecord& want = r.intervals[i];
        const json& got = is[i];
        EXPECT_DOUBLE_EQ(got["t_s"].get<double>(), want.endS);
        EXPECT_DOUBLE_EQ(got["start_s"].get<double>(), want.startS);
        EXPECT_EQ(got["requests"].get<uint64_t>(), want.requests);
        EXPECT_DOUBLE_EQ(got["rps"].get<double>(), want.requestsPerS());
        EXPECT_EQ(got["bytes"].get<uint64_t>(), want.bytes);
        // errors: requests without a usable answer; non-2xx apart, every kind in errors_by_kind
        EXPECT_EQ(got["errors"].get<uint64_t>(), want.errors.transportErrors());
        EXPECT_EQ(got["non2xx"].get<uint64_t>(), want.non2xx());
        EXPECT_EQ(got["errors_by_kind"]["read"].get<uint64_t>(), want.errors.read);
        EXPECT_FALSE(got["errors_by_kind"].contains("status")); // an answer is no error kind
        EXPECT_EQ(got["start_unix_ms"].get<int64_t>(), want.startUnixMs);
        const json& l = got["latency_us"];
        auto us = [](double v) { return std::isnan(v) ? uint64_t { 0 } : static_cast<uint64_t>(v); };
        EXPECT_EQ(l["p50"].get<uint64_t>(), us(want.latency.p50Us));
        EXPECT_EQ(l["p90"].get<uint64_t>(), us(want.latency.p90Us));
        EXPECT_EQ(l["p99"].get<uint64_t>(), us(want.latency.p99Us));
        EXPECT_EQ(l["max"].get<uint64_t>(), us(want.latency.maxUs));
        EXPECT_DOUBLE_EQ(l["mean"].get<double>(), want.latency.meanUs);
    }
    EXPECT_DOUBLE_EQ(is[0]["rps"].get<double>(), 4000.0);
    EXPECT_DOUBLE_EQ(is[1]["rps"].get<double>(), 2000.0); // 1000 requests in half a second
    EXPECT_EQ(is[0]["errors"], 2); // the read errors; the 503 is apart
    EXPECT_EQ(is[0]["non2xx"], 1);
    EXPECT_EQ(is[1]["errors"], 0);
    EXPECT_EQ(is[1]["non2xx"], 0);
}

TEST(JsonReport, OptionalFields)
{
    RunResult r = sampleResult();
    json j = parse(r);
    EXPECT_FALSE(j.contains("first_tls_error"));
    EXPECT_FALSE(j.contains("first_connect_error"));

    r.firstTlsError = "certificate verify failed";
    r.firstConnectError = "Connection refused";
    r.stoppedEarly = true;
    j = parse(r);
    EXPECT_EQ(j["first_tls_error"], "certificate verify failed");
    EXPECT_EQ(j["first_connect_error"], "Connection refused");
    EXPECT_EQ(j["summary"]["stopped_early"], true);
}

TEST(JsonReport, EmptyResultIsValid)
{
    const json j = parse(RunResult {});
    EXPECT_EQ(j["summary"]["requests"], 0);
    EXPECT_DOUBLE_EQ(j["summary"]["rps"].get<double>(), 0.0);
    EXPECT_TRUE(j["summary"]["status_codes"].is_object());
    EXPECT_TRUE(j["summary"]["status_codes"].empty());
    EXPECT_TRUE(j["intervals"].is_array());
    EXPECT_TRUE(j["intervals"].empty());
}

TEST(JsonReport, PrettyPrintedInSchemaOrder)
{
    const std::string text = formatJsonReport(sampleResult());
    EXPECT_EQ(text.rfind("{\n  \"tool\": \"wrkbench\",\n  \"version\": \"0.1.0\",\n", 0), 0u) << text.substr(0, 80);
    EXPECT_LT(text.find("\"config\""), text.find("\"summary\""));
    EXPECT_LT(text.find("\"summary\""), text.find("\"thread_rps\""));
    EXPECT_LT(text.find("\"thread_rps\""), text.find("\"intervals\""));
}

TEST(JsonReport, InvalidUtf8InErrorTextIsReplaced)
{
    RunResult r = sampleResult();
    r.firstTlsError = "bad \xff byte";
    const json j = parse(r);
    EXPECT_EQ(j["first_tls_error"], "bad \xEF\xBF\xBD byte");
}

TEST(JsonReport, HistogramsForMergers)
{
    RunResult r = sampleResult();
    r.connectTime.record(61);
    r.firstByte.recordN(185, 4);
    const auto j = nlohmann::ordered_json::parse(formatJsonReport(r)); // keys in the file's order
    const auto& summary = j["summary"];
    // Closed loop over http: no service time, no TLS handshake.
    std::vector<std::string> keys;
    for (const auto& [key, value] : summary["histograms"].items())
        keys.push_back(key);
    EXPECT_EQ(keys, (std::vector<std::string> { "latency", "connect", "ttfb" }));
    auto latency = decodeHdrBase64(summary["histograms"]["latency"].get<std::string>());
    ASSERT_TRUE(latency.ok()) << latency.error();
    const auto& totals = summary["histogram_totals"]["latency"];
    EXPECT_EQ(totals["count"], r.latency.count());
    EXPECT_EQ(totals["min_us"], r.latency.minUs());
    EXPECT_EQ(totals["max_us"], r.latency.maxUs());
    EXPECT_EQ(totals["sum_us"], r.latency.sumUs());
    ASSERT_TRUE(latency->setExactTotals(totals["min_us"], totals["max_us"], totals["sum_us"]));
    EXPECT_TRUE(*latency == r.latency);
    EXPECT_EQ(summary["histogram_totals"]["ttfb"]["count"], 4);
    // Each interval has the same keys, and its own histograms.
    ASSERT_EQ(j["intervals"].size(), 2u);
    for (size_t i = 0; i < 2; ++i) {
        const auto& interval = j["intervals"][i];
        EXPECT_EQ(interval["histograms"].size(), 3u);
        auto h = decodeHdrBase64(interval["histograms"]["latency"].get<std::string>());
        ASSERT_TRUE(h.ok()) << h.error();
        const LatencyHistogram expected = r.intervals[i].latencyHistogramDecoded();
        ASSERT_TRUE(h->setExactTotals(interval["histogram_totals"]["latency"]["min_us"],
            interval["histogram_totals"]["latency"]["max_us"], interval["histogram_totals"]["latency"]["sum_us"]));
        EXPECT_TRUE(*h == expected);
        EXPECT_EQ(interval["histogram_totals"]["connect"]["count"], 0);
    }
}

TEST(JsonReport, HistogramsOfTheOpenModelOverTls)
{
    RunResult r = sampleResult();
    r.config.ratePerS = 1000;
    r.config.request.url.scheme = "https";
    r.serviceLatency.record(90);
    r.tlsHandshake.record(1310);
    const auto j = nlohmann::ordered_json::parse(formatJsonReport(r));
    std::vector<std::string> keys;
    for (const auto& [key, value] : j["summary"]["histograms"].items())
        keys.push_back(key);
    EXPECT_EQ(
        keys, (std::vector<std::string> { "latency", "service", "send_lag", "connect", "tls_handshake", "ttfb" }));
    EXPECT_EQ(j["summary"]["histogram_totals"]["tls_handshake"]["max_us"], 1310);
    EXPECT_EQ(j["intervals"][0]["histogram_totals"].size(), 6u);
}

// The loader's own cost, as sums a reader can add and as shares for people; the verdict and its
// one line when it was saturated; nothing when it was not measured.
TEST(JsonReport, LoaderCost)
{
    RunResult r = sampleResult();
    EXPECT_FALSE(parse(r)["summary"].contains("loader_cost"));
    r.loaderCost.workerWallUs = 4'000'000;
    r.loaderCost.workerCpuUs = 3'000'000;
    r.loaderCost.workerWaitUs = 800'000;
    r.loaderCost.workerInvoluntarySwitches = 1234;
    r.loaderCost.processWallUs = 2'000'000;
    r.loaderCost.processCpuUs = 3'100'000;
    r.loaderCost.machineCpus = 2;
    r.loaderCost.machineCpuUs = 4'000'000;
    r.loaderCost.machineBusyUs = 4'000'000;
    json s = parse(r)["summary"];
    EXPECT_EQ(s["loader_cost"]["worker_cpu_us"], 3'000'000);
    EXPECT_EQ(s["loader_cost"]["worker_wait_us"], 800'000);
    EXPECT_EQ(s["loader_cost"]["worker_involuntary_switches"], 1234);
    EXPECT_DOUBLE_EQ(s["loader_cost"]["worker_busy_pct"].get<double>(), 95.0);
    EXPECT_DOUBLE_EQ(s["loader_cost"]["process_cpus"].get<double>(), 1.55);
    EXPECT_DOUBLE_EQ(s["loader_cost"]["machine_busy_pct"].get<double>(), 100.0);
    EXPECT_EQ(s["loader_saturated"], true);
    EXPECT_EQ(s["loader_warning"].get<std::string>().rfind("the loader was saturated (workers 95% busy", 0), 0u);

    r.loaderCost.workerWaitUs = 0; // 75%
    r.loaderCost.machineBusyUs = 3'000'000; // and the machine 75% busy
    s = parse(r)["summary"];
    EXPECT_EQ(s["loader_saturated"], false);
    EXPECT_FALSE(s.contains("loader_warning"));
    EXPECT_EQ(loaderCostFromJson(WireJson::parse(s["loader_cost"].dump())), r.loaderCost)
        << "the sums read back as written";
    WireJson tooBusy = loaderCostToJson(r.loaderCost);
    tooBusy["machine_steal_us"] = 1'000'001; // busy and steal above the machine's time
    EXPECT_THROW(loaderCostFromJson(tooBusy), WireError);
}
