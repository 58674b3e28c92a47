// Many loaders, one run, as users run it: two shards run by hand and merged,
// --loaders N on this machine, and --on kubernetes driven through a stand-in
// kubectl (tests/support/fake-kubectl: no cluster is reachable here, so a test
// double runs each pod's command as a local process). The merged run must be
// the exact sum of its loaders: counts, errors, status codes, and histograms
// bucket by bucket (decoded from the loaders' HdrHistogram strings).

#include "requirenginx.h"
#include "serve/targetserver.h"
#include "stats/hdrcodec.h"
#include "store/sessionstore.h"
#include "testsupport.h"

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <functional>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <thread>

using namespace wb;
using Json = nlohmann::json;

namespace {

class DistributedCli : public test::NginxTest
{
protected:
    static void SetUpTestSuite() { startNginx(); }
    static void TearDownTestSuite() { stopNginx(); }
    static std::string url(const std::string& path = "/")
    {
        return "http://127.0.0.1:" + std::to_string(nginx().port()) + path;
    }
};

// A histogram of the JSON: its HdrHistogram string decoded, with the exact min, max and sum
// written beside it (the encoding carries the buckets only).
LatencyHistogram histogramOf(const Json& holder, const char* key)
{
    auto h = decodeHdrBase64(holder["histograms"][key].get<std::string>());
    EXPECT_TRUE(h) << h.error();
    if (!h) return {};
    const Json& t = holder["histogram_totals"][key];
    EXPECT_TRUE(h->setExactTotals(t["min_us"], t["max_us"], t["sum_us"])) << key;
    return *h;
}

uint64_t statusCount(const Json& summary, const char* code)
{
    return summary["status_codes"].contains(code) ? summary["status_codes"][code].get<uint64_t>() : 0;
}

// Runs the two shards of one run at once, with a common start.
std::pair<test::ProcessResult, test::ProcessResult> runShards(
    const std::vector<std::string>& load, const std::string& a, const std::string& b)
{
    test::ProcessResult ra, rb;
    auto shard = [&](const std::string& index, const std::string& json, test::ProcessResult& r) {
        std::vector<std::string> args = load;
        args.insert(args.begin(), { "--shard", index + "/2", "--start-at", "+2s", "--json", json });
        r = test::runCli(args, 60'000);
    };
    std::thread first([&] { shard("0", a, ra); });
    std::thread second([&] { shard("1", b, rb); });
    first.join();
    second.join();
    return { ra, rb };
}

} // namespace

TEST_F(DistributedCli, TwoShardsMergeIntoTheirExactSum)
{
    test::TempDir dir;
    const auto [ra, rb] = runShards({ "-t2", "-c6", "-d2s", url("/") }, dir.file("a.json"), dir.file("b.json"));
    ASSERT_EQ(ra.exitCode, 0) << ra.out << ra.err;
    ASSERT_EQ(rb.exitCode, 0) << rb.out << rb.err;
    const Json a = Json::parse(test::readFile(dir.file("a.json")));
    const Json b = Json::parse(test::readFile(dir.file("b.json")));
    // Shares: 6 connections over 2 loaders are 3 + 3.
    EXPECT_EQ(a["config"]["connections"], 3);
    EXPECT_EQ(b["config"]["connections"], 3);
    EXPECT_EQ(a["loader"]["index"], 0);
    EXPECT_EQ(b["loader"]["count"], 2);

    const auto merged = test::runCli({ "merge", "--json", dir.file("m.json"), "--db", dir.file("s.wrkbench"),
        "--latency", dir.file("a.json"), dir.file("b.json") });
    ASSERT_EQ(merged.exitCode, 0) << merged.out << merged.err;
    EXPECT_NE(merged.out.find("2 loaders:"), std::string::npos) << merged.out;
    EXPECT_NE(merged.out.find("Stored as run 1"), std::string::npos) << merged.out;
    const Json m = Json::parse(test::readFile(dir.file("m.json")));

    const Json &sa = a["summary"], &sb = b["summary"], &sm = m["summary"];
    EXPECT_GT(sa["requests"].get<uint64_t>(), 0u);
    EXPECT_EQ(sm["requests"], sa["requests"].get<uint64_t>() + sb["requests"].get<uint64_t>());
    EXPECT_EQ(sm["bytes"], sa["bytes"].get<uint64_t>() + sb["bytes"].get<uint64_t>());
    EXPECT_EQ(statusCount(sm, "200"), statusCount(sa, "200") + statusCount(sb, "200"));
    for (const char* kind : { "connect", "read", "write", "timeout", "tls", "parse", "stream" })
        EXPECT_EQ(sm["errors"][kind], sa["errors"][kind].get<uint64_t>() + sb["errors"][kind].get<uint64_t>()) << kind;
    EXPECT_EQ(sm["non2xx"], sa["non2xx"].get<uint64_t>() + sb["non2xx"].get<uint64_t>());
    EXPECT_FALSE(sm["errors"].contains("status")); // an answer is no error kind
    EXPECT_EQ(m["config"]["connections"], 6);

    // The histograms add bucket by bucket; the merged percentiles are those of the sum.
    for (const char* key : { "latency", "connect", "ttfb" }) {
        LatencyHistogram sum = histogramOf(sa, key);
        sum.merge(histogramOf(sb, key));
        const LatencyHistogram got = histogramOf(sm, key);
        EXPECT_EQ(got.count(), sum.count()) << key;
        EXPECT_TRUE(std::equal(got.bucketCounts().begin(), got.bucketCounts().end(), sum.bucketCounts().begin()))
            << key;
        EXPECT_EQ(sm["histogram_totals"][key]["min_us"], sum.minUs()) << key;
        EXPECT_EQ(sm["histogram_totals"][key]["max_us"], sum.maxUs()) << key;
        EXPECT_EQ(sm["histogram_totals"][key]["sum_us"], sum.sumUs()) << key;
    }
    LatencyHistogram latency = histogramOf(sa, "latency");
    latency.merge(histogramOf(sb, "latency"));
    EXPECT_EQ(sm["latency_us"]["p99"], latency.valueAtPercentileUs(99));
    EXPECT_EQ(sm["latency_us"]["p50"], latency.valueAtPercentileUs(50));
    EXPECT_EQ(sm["latency_us"]["max"], latency.maxUs());

    // The merged intervals add up to the whole, and each loader has its row.
    uint64_t intervalRequests = 0;
    for (const Json& i : m["intervals"])
        intervalRequests += i["requests"].get<uint64_t>();
    EXPECT_EQ(intervalRequests, sm["requests"].get<uint64_t>());
    ASSERT_EQ(m["loaders"].size(), 2u);
    EXPECT_EQ(m["loaders"][0]["requests"], sa["requests"]);
    EXPECT_EQ(m["loaders"][1]["requests"], sb["requests"]);
    EXPECT_EQ(m["loaders"][0]["connections"], 3);
    EXPECT_EQ(m["loaders"][1]["state"], "completed");
    // Neither measured before the common start (a late one would show a positive offset).
    EXPECT_GE(m["loaders"][1]["start_offset_ms"].get<double>(), 0.0);

    // The stored run keeps its loaders.
    const auto stored = test::runCli({ "runs", "--db", dir.file("s.wrkbench"), "--loaders", "1" });
    EXPECT_EQ(stored.exitCode, 0) << stored.err;
    EXPECT_NE(stored.out.find(a["loader"]["host"].get<std::string>()), std::string::npos) << stored.out;
}

TEST_F(DistributedCli, MergeRefusesLoadersOfAnotherRun)
{
    test::TempDir dir;
    const auto [ra, rb] = runShards({ "-t1", "-c2", "-n", "200", url("/") }, dir.file("a.json"), dir.file("b.json"));
    ASSERT_EQ(ra.exitCode, 0) << ra.err;
    // Another configuration (more connections) for loader 1.
    const auto other
        = test::runCli({ "--shard", "1/2", "--json", dir.file("c.json"), "-t1", "-c4", "-n", "200", url("/") });
    ASSERT_EQ(other.exitCode, 0) << other.err;

    auto r = test::runCli({ "merge", dir.file("a.json"), dir.file("c.json") });
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("loader 1 ran another configuration"), std::string::npos) << r.err;
    r = test::runCli({ "merge", dir.file("a.json"), dir.file("a.json") });
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("loader 0 appears twice"), std::string::npos) << r.err;
    // A result of an ordinary run is not a loader's.
    const auto plain = test::runCli({ "--json", dir.file("p.json"), "-t1", "-c1", "-n", "100", url("/") });
    ASSERT_EQ(plain.exitCode, 0);
    r = test::runCli({ "merge", dir.file("a.json"), dir.file("p.json") });
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("p.json': this result is not a loader's"), std::string::npos) << r.err;
    // A missing loader: merged, and said to be partial.
    r = test::runCli({ "merge", "--json", dir.file("half.json"), dir.file("a.json") });
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.err.find("loaders 1 of 2 are missing"), std::string::npos) << r.err;
    EXPECT_EQ(Json::parse(test::readFile(dir.file("half.json")))["summary"]["stopped_early"], true);
}

TEST_F(DistributedCli, ShardAndStartAtRefuseBadInput)
{
    auto r = test::runCli({ "--shard", "2/2", "-c4", url("/") });
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("the index must be below the count"), std::string::npos) << r.err;
    r = test::runCli({ "--shard", "2/3", "-t1", "-c2", url("/") });
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("loader 2 of 3 gets no connections"), std::string::npos) << r.err;
    r = test::runCli({ "--start-at", "2020-01-01T00:00:00Z", "-t1", "-c1", url("/") });
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("in the past"), std::string::npos) << r.err;
    r = test::runCli({ "--loaders", "2", "--shard", "0/2", url("/") });
    EXPECT_EQ(r.exitCode, 2);
    r = test::runCli({ "--loaders", "2", "--on", "mars", url("/") });
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("use local, kubernetes or agents"), std::string::npos) << r.err;
}

TEST_F(DistributedCli, LocalLoadersMakeOneStoredRun)
{
    test::TempDir dir;
    const auto r = test::runCli({ "run", "--loaders", "2", "-t2", "-c6", "-n", "400", "--json", dir.file("r.json"),
                                    "--db", dir.file("s.wrkbench"), url("/") },
        60'000);
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("2 loaders:"), std::string::npos) << r.out;
    const Json j = Json::parse(test::readFile(dir.file("r.json")));
    ASSERT_EQ(j["loaders"].size(), 2u);
    uint64_t sum = 0;
    for (const Json& l : j["loaders"]) {
        EXPECT_EQ(l["state"], "completed");
        EXPECT_EQ(l["connections"], 3);
        EXPECT_GT(l["requests"].get<uint64_t>(), 0u);
        sum += l["requests"].get<uint64_t>();
    }
    EXPECT_EQ(sum, j["summary"]["requests"].get<uint64_t>());
    EXPECT_EQ(sum, 400u); // -n: each loader counted its share, 200
    EXPECT_EQ(j["summary"]["stopped_early"], false);
    EXPECT_EQ(j["config"]["connections"], 6);
    uint64_t intervals = 0;
    for (const Json& i : j["intervals"])
        intervals += i["requests"].get<uint64_t>();
    EXPECT_EQ(intervals, sum);
}

TEST_F(DistributedCli, LocalLoadersOnTheBuiltInServer)
{
    const auto r
        = test::runCli({ "--loaders", "3", "-t1", "-c3", "-n", "300", "--json", "-", "http://builtin/" }, 60'000);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const Json j = Json::parse(r.out);
    ASSERT_EQ(j["loaders"].size(), 3u);
    EXPECT_GT(j["summary"]["requests"].get<uint64_t>(), 0u);
    EXPECT_EQ(j["summary"]["requests"], 300); // -n: 100 a loader
    EXPECT_EQ(statusCount(j["summary"], "200"), j["summary"]["requests"].get<uint64_t>());
}

// wrk2's classic demonstration, split over two loaders: a server that stalls for half of
// every second. The corrected percentiles come from the due times, which two loaders
// keep as one process does, so they agree (within the noise of two separate runs).
TEST_F(DistributedCli, CoordinatedOmissionCorrectionSurvivesTheSplit)
{
    TargetServerOptions options;
    options.stallEveryUs = 1'000'000;
    options.stallForUs = 500'000;
    TargetServer server(options);
    ASSERT_TRUE(server.start().ok());
    const std::string target = "http://127.0.0.1:" + std::to_string(server.port()) + "/";
    const auto one = test::runCli({ "-t1", "-c8", "-d4s", "-R", "400", "--json", "-", target }, 60'000);
    const auto two
        = test::runCli({ "--loaders", "2", "-t2", "-c8", "-d4s", "-R", "400", "--json", "-", target }, 60'000);
    ASSERT_EQ(one.exitCode, 0) << one.err;
    ASSERT_EQ(two.exitCode, 0) << two.err;
    const Json a = Json::parse(one.out)["summary"]["latency_us"];
    const Json b = Json::parse(two.out)["summary"]["latency_us"];
    // Half the requests fall due in a stall and wait 0 to 500 ms: p75 ~ 250 ms, p90 ~ 400 ms.
    for (const char* p : { "p75", "p90" }) {
        const double x = a[p].get<double>(), y = b[p].get<double>();
        EXPECT_GT(x, 100'000) << p << " one process";
        EXPECT_GT(y, 100'000) << p << " two loaders";
        EXPECT_LT(std::abs(x - y), 0.3 * std::max(x, y)) << p << ": one process " << x << " us, two loaders " << y;
    }
}

class KubernetesCli : public DistributedCli
{
protected:
    void SetUp() override
    {
        DistributedCli::SetUp();
        ::setenv("FAKE_KUBECTL_STATE", m_state.path().c_str(), 1);
        ::setenv("FAKE_KUBECTL_CLI", test::cliPath().c_str(), 1);
    }
    void TearDown() override
    {
        for (const char* v : { "FAKE_KUBECTL_DENY", "FAKE_KUBECTL_IMAGE_PULL_FAIL", "FAKE_KUBECTL_KILL_POD",
                 "FAKE_KUBECTL_EXEC_BARRIER", "FAKE_KUBECTL_PENDING" })
            ::unsetenv(v);
    }
    static std::string fakeKubectl() { return test::sourceDir() + "/tests/support/fake-kubectl"; }
    std::string calls() const { return test::readFile(m_state.file("calls.log")); }
    // The pods the stand-in kubectl started (its jobs.json), of every Job.
    Json pods() const
    {
        Json all = Json::array();
        const std::string text = test::readFile(m_state.file("jobs.json"));
        if (text.empty()) return all;
        const Json jobs = Json::parse(text);
        for (const Json& job : jobs)
            for (const Json& pod : job["pods"])
                all.push_back(pod);
        return all;
    }
    static bool alive(int pid)
    {
        // A zombie (exited, not yet reaped by its parent) is not a loader left running.
        const std::string stat = test::readFile("/proc/" + std::to_string(pid) + "/stat");
        const size_t paren = stat.rfind(") ");
        return paren != std::string::npos && stat.compare(paren + 2, 1, "Z") != 0;
    }
    // Waits until condition() holds; false when it still does not after timeoutMs (a failure guard,
    // far beyond what the condition needs: the tests wait on events, not on times).
    static bool waitFor(const std::function<bool()>& condition, int timeoutMs = 120'000)
    {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
        while (!condition()) {
            if (std::chrono::steady_clock::now() > deadline) return false;
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        return true;
    }
    test::TempDir m_state;
};

TEST_F(KubernetesCli, ManifestOnlyPrintsAnIndexedJob)
{
    const auto r = test::runCli({ "--loaders", "4", "--on", "kubernetes", "--manifest-only", "--namespace", "load",
        "--image", "registry.example/wrkbench-cli:1", "-c40", "-H", "X-Quote: \"a b\"", url("/") });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    for (const char* line : { "\"kind\": \"Job\"", "\"completionMode\": \"Indexed\"", "\"completions\": 4",
             "\"parallelism\": 4", "\"backoffLimit\": 0", "\"restartPolicy\": \"Never\"", "\"namespace\": \"load\"",
             "\"image\": \"registry.example/wrkbench-cli:1\"", "\"ttlSecondsAfterFinished\": 600",
             "\"topologyKey\": \"kubernetes.io/hostname\"", "JOB_COMPLETION_INDEX/4",
             // Pod Security "restricted", and a read-only root with the control directory an emptyDir
             // (tests/packaging/image_test.sh runs the image under these)
             "\"runAsNonRoot\": true", "\"type\": \"RuntimeDefault\"", "\"allowPrivilegeEscalation\": false",
             "\"readOnlyRootFilesystem\": true", "\"drop\":\n                - \"ALL\"",
             "- \"name\": \"control\"\n          \"emptyDir\": {}" })
        EXPECT_NE(r.out.find(line), std::string::npos) << line << "\n" << r.out;
    // The header survives: the configuration travels in a ConfigMap, not through a shell.
    EXPECT_NE(r.out.find(R"(\\\"a b\\\")"), std::string::npos) << r.out;
    EXPECT_TRUE(calls().empty()); // nothing applied
}

// --cacert names a file of this machine, which no pod has: its certificates travel in the
// ConfigMap beside config.json, and the pods' configuration names that copy.
TEST_F(KubernetesCli, ACaFileTravelsInTheConfigMap)
{
    test::TempDir dir;
    test::TestCertificates certs;
    ASSERT_TRUE(test::generateCertificates(dir.path(), certs));
    const std::string pem = test::readFile(certs.caCert);
    const auto r = test::runCli({ "--loaders", "2", "--on", "kubernetes", "--manifest-only", "--http3", "--cacert",
        certs.caCert, "https://localhost:8443/" });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("\"ca.pem\": " + Json(pem).dump()), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(R"(\"ca_file\":\"/etc/wrkbench/ca.pem\")"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find(certs.caCert), std::string::npos) << "the workstation's path reached the pods: " << r.out;
    EXPECT_NE(r.out.find(R"(\"http_version\":\"h3\")"), std::string::npos) << r.out;

    // Without --cacert there is nothing to carry.
    const auto plain = test::runCli({ "--loaders", "2", "--on", "kubernetes", "--manifest-only", url("/") });
    ASSERT_EQ(plain.exitCode, 0) << plain.err;
    EXPECT_EQ(plain.out.find("ca.pem"), std::string::npos) << plain.out;

    // What cannot travel is said before anything is applied.
    const std::string missing = dir.file("missing.pem");
    const auto unreadable = test::runCli({ "--loaders", "2", "--on", "kubernetes", "--kubectl", fakeKubectl(),
        "--cacert", missing, "-c2", "-n", "100", "https://localhost:8443/" });
    EXPECT_EQ(unreadable.exitCode, 1) << unreadable.out << unreadable.err;
    EXPECT_NE(unreadable.err.find("--cacert '" + missing + "': cannot read it"), std::string::npos) << unreadable.err;
    test::writeFile(dir.file("key-only.pem"), test::readFile(certs.serverKey));
    const auto notPem = test::runCli({ "--loaders", "2", "--on", "kubernetes", "--manifest-only", "--cacert",
        dir.file("key-only.pem"), "https://localhost:8443/" });
    EXPECT_EQ(notPem.exitCode, 2);
    EXPECT_NE(notPem.err.find("holds no PEM certificate"), std::string::npos) << notPem.err;
    EXPECT_EQ(calls(), "") << "kubectl was called";
}

// --pod-metrics-port: each loader serves its live figures, the port is named for a PodMonitor,
// and the annotations are there for annotation-driven scrape configs; without it, none of them.
TEST_F(KubernetesCli, PodMetricsPortExposesEachLoader)
{
    const auto r = test::runCli(
        { "--loaders", "2", "--on", "kubernetes", "--manifest-only", "--pod-metrics-port", "9464", url("/") });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    for (const char* line : { "- \"--metrics-listen\"\n", "- \"0.0.0.0:9464\"\n", "- \"--metrics-run\"\n",
             "\"containerPort\": 9464", "\"name\": \"metrics\"", "\"prometheus.io/scrape\": \"true\"",
             "\"prometheus.io/port\": \"9464\"", "\"prometheus.io/path\": \"/metrics\"" })
        EXPECT_NE(r.out.find(line), std::string::npos) << line << "\n" << r.out;
    const auto plain = test::runCli({ "--loaders", "2", "--on", "kubernetes", "--manifest-only", url("/") });
    ASSERT_EQ(plain.exitCode, 0) << plain.err;
    EXPECT_EQ(plain.out.find("metrics"), std::string::npos) << plain.out;
}

// The YAML as printed, read by js-yaml and validated against the Kubernetes API schema by
// kubernetes-models (tests/support/npm/kubecheck.mjs): an independent check of both.
TEST_F(KubernetesCli, TheManifestIsAValidConfigMapAndJob)
{
    std::string why;
    if (!test::nodeModuleAvailable("kubernetes-models", why)) {
        if (test::underCi()) FAIL() << why << ", and CI must validate the manifest with it";
        GTEST_SKIP() << why;
    }
    test::TempDir dir;
    const auto r
        = test::runCli({ "--loaders", "16", "--on", "kubernetes", "--manifest-only", "--pod-cpu", "2", "--pod-memory",
            "1Gi", "--job-ttl", "60", "--pod-metrics-port", "9464", "-t32", "-c3200", "-R", "50000", "--http2", "-H",
            "Authorization: Bearer x", "--body", "{\"a\": \"b\nc\"}", "-X", "POST", "https://10.0.0.1/api" });
    ASSERT_EQ(r.exitCode, 0) << r.err;
    test::writeFile(dir.file("m.yaml"), r.out);
    const auto check
        = test::runProcess({ "node", test::sourceDir() + "/tests/support/npm/kubecheck.mjs", dir.file("m.yaml") });
    EXPECT_EQ(check.exitCode, 0) << check.out << check.err << r.out;
    EXPECT_NE(check.out.find("valid batch/v1 Job wrkbench-"), std::string::npos) << check.out;
    EXPECT_NE(check.out.find("valid v1 ConfigMap wrkbench-"), std::string::npos) << check.out;
}

TEST_F(KubernetesCli, ARunOnTheJobIsMergedAndTheJobDeleted)
{
    test::TempDir dir;
    const auto r = test::runCli({ "--loaders", "2", "--on", "kubernetes", "--kubectl", fakeKubectl(), "-t2", "-c4",
                                    "-n", "400", "--json", dir.file("r.json"), url("/") },
        90'000);
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err << calls();
    const Json j = Json::parse(test::readFile(dir.file("r.json")));
    ASSERT_EQ(j["loaders"].size(), 2u);
    uint64_t sum = 0;
    for (const Json& l : j["loaders"]) {
        EXPECT_NE(l["host"].get<std::string>().find("-fake0"), std::string::npos) << l; // the pod's name
        EXPECT_EQ(l["state"], "completed");
        sum += l["requests"].get<uint64_t>();
    }
    EXPECT_EQ(sum, j["summary"]["requests"].get<uint64_t>());
    EXPECT_EQ(sum, 400u); // -n: each pod counted its share, 200
    const std::string log = calls();
    EXPECT_NE(log.find("auth can-i create pods/exec"), std::string::npos) << log;
    EXPECT_NE(log.find("create -f -"), std::string::npos) << log;
    EXPECT_NE(log.find("exec "), std::string::npos) << log;
    EXPECT_NE(log.find("delete job wrkbench-"), std::string::npos) << log;
}

TEST_F(KubernetesCli, MissingAccessIsOneLineNamingTheVerbs)
{
    ::setenv("FAKE_KUBECTL_DENY", "create pods/exec,delete jobs", 1);
    const auto r = test::runCli(
        { "--loaders", "2", "--on", "kubernetes", "--kubectl", fakeKubectl(), "-c2", "-n", "100", url("/") });
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("no access in namespace 'default': missing create pods/exec, delete jobs"), std::string::npos)
        << r.err;
    EXPECT_EQ(calls().find("create -f -"), std::string::npos); // nothing applied
}

TEST_F(KubernetesCli, AnImagePullFailureIsSaidAndTheJobDeleted)
{
    ::setenv("FAKE_KUBECTL_IMAGE_PULL_FAIL", "1", 1);
    const auto r = test::runCli({ "--loaders", "2", "--on", "kubernetes", "--kubectl", fakeKubectl(), "--image",
        "nowhere/none:0", "-c2", "-n", "100", url("/") });
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("image pull failed for nowhere/none:0"), std::string::npos) << r.err;
    EXPECT_NE(calls().find("delete job wrkbench-"), std::string::npos);
}

TEST_F(KubernetesCli, APodThatDiesKeepsWhatItSentAndTheRunIsPartial)
{
    ::setenv("FAKE_KUBECTL_KILL_POD", "1:2", 1); // pod 1 dies after its second interval, mid-run
    test::TempDir dir;
    const auto r = test::runCli({ "--loaders", "2", "--on", "kubernetes", "--kubectl", fakeKubectl(), "-t2", "-c4",
                                    "-d8s", "--json", dir.file("r.json"), url("/") },
        90'000);
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    const Json j = Json::parse(test::readFile(dir.file("r.json")));
    EXPECT_EQ(j["summary"]["stopped_early"], true);
    ASSERT_EQ(j["loaders"].size(), 2u);
    EXPECT_EQ(j["loaders"][0]["state"], "completed");
    EXPECT_EQ(j["loaders"][1]["state"].get<std::string>().rfind("died: ", 0), 0u) << j["loaders"][1];
    EXPECT_GT(j["loaders"][1]["requests"].get<uint64_t>(), 0u); // its intervals until its death are kept
}

// Ctrl-C while the pods measure: every loader is told to stop and reports what it measured, the
// merged run is stored as stopped (partial), the Job is deleted, and no loader is left running.
TEST_F(KubernetesCli, CtrlCStopsTheLoadersStoresThePartialRunAndDeletesTheJob)
{
    test::TempDir dir;
    const std::string db = dir.file("lab.wrkbench"), log = dir.file("cli.log");
    test::ChildProcess cli;
    ASSERT_TRUE(cli.start({ test::cliPath(), "run", "--loaders", "2", "--on", "kubernetes", "--kubectl", fakeKubectl(),
                              "-t2", "-c4", "-d10m", "--db", db, "--json", dir.file("r.json"), url("/") },
        log));
    // The event: both pods have streamed an interval (so both are measuring); then Ctrl-C.
    auto measuring = [&] {
        const Json all = pods();
        if (all.size() != 2) return false;
        for (const Json& pod : all)
            if (test::readFile(pod["dir"].get<std::string>() + "/log").find(R"("event":"interval")")
                == std::string::npos)
                return false;
        return true;
    };
    ASSERT_TRUE(waitFor(measuring)) << test::readFile(log) << calls();
    const Json started = pods();
    const int exitCode = cli.signalAndWait(SIGINT, 120'000);
    const std::string text = test::readFile(log);
    EXPECT_EQ(exitCode, 0) << text << calls(); // as a single run stopped with Ctrl-C: a report, exit 0

    // Every pod was told to stop, then the Job and its ConfigMap were deleted.
    const std::string log2 = calls();
    const size_t stop = log2.find(" /var/run/wrkbench/stop\n"); // the exec writing the control file "stop"
    const size_t deleted = log2.find("delete job wrkbench-");
    EXPECT_NE(stop, std::string::npos) << log2;
    EXPECT_NE(deleted, std::string::npos) << log2;
    EXPECT_LT(stop, deleted) << log2;
    EXPECT_NE(log2.find("delete configmap wrkbench-"), std::string::npos) << log2;

    // One stored run, stopped early, with both loaders' requests up to the stop.
    const Json j = Json::parse(test::readFile(dir.file("r.json")));
    EXPECT_EQ(j["summary"]["stopped_early"], true);
    ASSERT_EQ(j["loaders"].size(), 2u);
    uint64_t sum = 0;
    for (const Json& l : j["loaders"]) {
        EXPECT_GT(l["requests"].get<uint64_t>(), 0u) << l;
        sum += l["requests"].get<uint64_t>();
    }
    EXPECT_EQ(sum, j["summary"]["requests"].get<uint64_t>());
    SessionOpenOptions options;
    options.readOnly = true;
    auto store = SessionStore::open(db, options);
    ASSERT_TRUE(store.ok()) << store.error();
    auto runs = (*store)->runs().list();
    ASSERT_TRUE(runs.ok()) << runs.error();
    ASSERT_EQ(runs->size(), 1u);
    EXPECT_EQ((*runs)[0].status, RunStatus::Stopped) << text;
    EXPECT_TRUE((*runs)[0].totals.stoppedEarly);
    EXPECT_EQ((*runs)[0].totals.requests, sum);
    auto data = (*store)->runs().load((*runs)[0].id);
    ASSERT_TRUE(data.ok()) << data.error();
    EXPECT_EQ(data->loaders.size(), 2u);

    // No loader is left behind: each pod's process ends (it had reported before the CLI exited).
    for (const Json& pod : started) {
        const int pid = pod["pid"];
        EXPECT_TRUE(waitFor([&] { return !alive(pid); })) << "loader of pod " << pod["name"] << " still runs";
    }
}

// Ctrl-C while the pods are still starting (they stay Pending here): the coordinator gives up at once,
// deletes the Job (whose pods' processes end with it), and the attempt is stored as failed, saying why.
TEST_F(KubernetesCli, CtrlCWhileThePodsStartDeletesTheJob)
{
    ::setenv("FAKE_KUBECTL_PENDING", "1", 1);
    test::TempDir dir;
    const std::string db = dir.file("lab.wrkbench"), log = dir.file("cli.log");
    test::ChildProcess cli;
    ASSERT_TRUE(cli.start({ test::cliPath(), "run", "--loaders", "2", "--on", "kubernetes", "--kubectl", fakeKubectl(),
                              "-t2", "-c4", "-d10m", "--db", db, url("/") },
        log));
    // The event: the coordinator polls the pods' state, so the Job exists and it waits for them.
    ASSERT_TRUE(waitFor([&] { return calls().find("get pods -l ") != std::string::npos && pods().size() == 2; }))
        << test::readFile(log) << calls();
    const Json started = pods();
    EXPECT_EQ(cli.signalAndWait(SIGINT, 120'000), 1) << test::readFile(log);
    const std::string text = test::readFile(log);
    EXPECT_NE(text.find("stopped while the pods were starting"), std::string::npos) << text;
    EXPECT_NE(calls().find("delete job wrkbench-"), std::string::npos) << calls();
    EXPECT_NE(calls().find("delete configmap wrkbench-"), std::string::npos) << calls();
    for (const Json& pod : started) {
        const int pid = pod["pid"];
        EXPECT_TRUE(waitFor([&] { return !alive(pid); })) << "loader of pod " << pod["name"] << " still runs";
    }
    SessionOpenOptions options;
    options.readOnly = true;
    auto store = SessionStore::open(db, options);
    ASSERT_TRUE(store.ok()) << store.error();
    auto runs = (*store)->runs().list();
    ASSERT_TRUE(runs.ok()) << runs.error();
    ASSERT_EQ(runs->size(), 1u);
    EXPECT_EQ((*runs)[0].status, RunStatus::Failed);
    EXPECT_EQ((*runs)[0].error, "stopped while the pods were starting");
}

// A fleet larger than the bound on parallel `kubectl exec`s: the start is written into every pod,
// at most TELL_PARALLELISM (16) at once, and that many do run at once (the stand-in's exec barrier:
// each exec waits until 16 have been in flight together, and logs the most it saw).
TEST_F(KubernetesCli, TheStartIsToldToEveryPodSixteenAtATime)
{
    ::setenv("FAKE_KUBECTL_EXEC_BARRIER", "16", 1);
    test::TempDir dir;
    const auto refused = test::runCli({ "--loaders", "18", "--on", "kubernetes", "--kubectl", fakeKubectl(),
        "--exec-wave", "0", "-c18", "-n", "360", url("/") });
    EXPECT_EQ(refused.exitCode, 2);
    EXPECT_NE(refused.err.find("--exec-wave: give a duration above 0"), std::string::npos) << refused.err;
    // 18 pods are two waves. Here each exec is a Python process among 18 fake pods' and their logs'
    // on two cores: --exec-wave gives the waves the time a loaded API server would need (the
    // default 2s is what a cluster's exec takes; this machine's fake can take longer).
    const auto r = test::runCli({ "--loaders", "18", "--on", "kubernetes", "--kubectl", fakeKubectl(), "-t18", "-c18",
                                    "--exec-wave", "6s", "-n", "360", "--json", dir.file("r.json"), url("/") },
        180'000);
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err << calls();
    const Json j = Json::parse(test::readFile(dir.file("r.json")));
    ASSERT_EQ(j["loaders"].size(), 18u);
    for (const Json& l : j["loaders"])
        EXPECT_EQ(l["state"], "completed") << l;
    unsigned execs = 0, most = 0;
    for (const std::string& line : test::splitLines(calls())) {
        if (!line.starts_with("exec-concurrency ")) continue;
        ++execs;
        most = std::max(most, static_cast<unsigned>(std::stoul(line.substr(17))));
    }
    EXPECT_EQ(execs, 18u) << calls(); // every pod was told its start, once
    EXPECT_EQ(most, 16u) << calls(); // 16 at once, never more
}
