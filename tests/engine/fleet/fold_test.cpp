// One fold of a run (run/runfold.h), wherever it was measured: a run split at random
// over N loaders, each loader's stream written by the real LoaderStreamWriter and read
// back by the real reader (wire/loaderread.h), merged by DocumentMerge/FleetMerge,
// must equal the one process that measured it all, field by field: counts, every
// error kind, status codes, every histogram bucket, the intervals, the mix entries,
// the end-of-run fields.

#include "fleet/documentmerge.h"
#include "fleet/fleetmerge.h"
#include "http/url.h"
#include "run/runfold.h"
#include "testsupport.h"
#include "wire/configcodec.h"
#include "wire/loaderread.h"
#include "wire/loaderstream.h"

#include <algorithm>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <random>
#include <unistd.h>

using namespace wb;

namespace {

constexpr int64_t COMMON_START_MS = 1'750'000'000'000;
constexpr unsigned INTERVALS = 5;
constexpr unsigned ENTRIES = 3;

RunConfig wholeConfig()
{
    RunConfig c;
    c.request.url = *parseUrl("https://127.0.0.1:8443/");
    c.threads = 1;
    c.connections = 8;
    c.ratePerS = 4000; // open model: service time and send lag too
    c.durationUs = INTERVALS * 1'000'000ULL;
    c.slos = { *parseSlo("p99<5ms"), *parseSlo("errors<2%") };
    for (unsigned i = 0; i < ENTRIES; ++i) {
        MixRequest e;
        e.request.url = *parseUrl("https://127.0.0.1:8443/e" + std::to_string(i));
        e.label = "GET /e" + std::to_string(i);
        c.mix.entries.push_back(e);
    }
    c.request = c.mix.entries.front().request;
    c.backendFrom = *parseBackendFrom("header:x-pod");
    c.upstreamTime = *parseUpstreamTime("header:x-envoy-upstream-service-time");
    return c;
}

// One loader's measurements of one interval, drawn at random.
IntervalSnapshot randomInterval(std::mt19937_64& random, unsigned index)
{
    auto upTo = [&](uint64_t n) { return random() % (n + 1); };
    IntervalSnapshot s;
    s.index = index;
    s.startS = index;
    s.endS = index + 1;
    const uint64_t answered = 20 + upTo(200);
    // Each loader meets the backends in an order of its own (its own name table), some only
    // on some loaders: the merge goes by name.
    std::vector<std::string> table;
    for (uint64_t i = 0, n = 1 + upTo(6); i < n; ++i)
        table.push_back("pod-" + std::to_string(upTo(9)));
    for (uint64_t i = 0; i < answered; ++i) {
        const uint64_t latency = 50 + upTo(random() % 4 == 0 ? 5'000'000 : 20'000);
        if (random() % 8 == 0)
            ++s.backends.unnamed;
        else
            s.backends.at(upTo(table.size() - 1), table)
                .record(latency, random() % 10 == 0, index + static_cast<double>(upTo(999)) / 1000);
        if (random() % 5 == 0) {
            ++s.upstreamMissing;
        } else {
            s.upstreamTime.record(latency / 2);
            s.frontDoor.record(latency - latency / 2);
        }
        s.latency.record(latency);
        s.serviceLatency.record(latency / 2 + 1);
        s.sendLag.record(upTo(3000));
        s.firstByte.record(latency / 3 + 1);
        const int status = random() % 10 == 0 ? 503 : random() % 7 == 0 ? 404 : 200;
        s.status.add(status);
    }
    s.requests = answered;
    s.bytes = answered * (100 + upTo(900));
    s.errors.connect = upTo(3);
    s.errors.read = upTo(3);
    s.errors.write = upTo(2);
    s.errors.timeout = upTo(4);
    s.errors.tls = upTo(2);
    s.errors.parse = upTo(1);
    s.errors.stream = upTo(2);
    for (uint64_t i = 0, n = upTo(6); i < n; ++i) {
        s.connectTime.record(100 + upTo(900));
        s.tlsHandshake.record(1000 + upTo(9000));
    }
    s.connections = static_cast<uint32_t>(1 + upTo(4));
    s.targetRatePerS = 500 + static_cast<double>(upTo(1000));
    s.lateRequests = upTo(5);
    s.maxLagUs = s.sendLag.maxUs();
    s.inFlight = static_cast<uint32_t>(upTo(40));
    // The loader's own cost: sums that add up over workers, intervals and loaders.
    LoaderCost& c = s.loaderCost;
    c.workerWallUs = 1'000'000 + upTo(5000);
    c.workerCpuUs = upTo(c.workerWallUs / 2);
    c.workerWaitUs = upTo(c.workerWallUs / 2);
    c.workerInvoluntarySwitches = upTo(5000);
    c.processWallUs = 1'000'000 + upTo(9000);
    c.processCpuUs = upTo(2 * c.processWallUs);
    c.processInvoluntarySwitches = upTo(9000);
    c.machineCpus = static_cast<uint32_t>(1 + upTo(7));
    c.machineCpuUs = c.machineCpus * 1'000'000ULL;
    c.machineBusyUs = upTo(c.machineCpuUs / 2);
    c.machineStealUs = upTo(c.machineCpuUs / 4);
    return s;
}

RunEnd randomEnd(std::mt19937_64& random, unsigned loader)
{
    RunEnd e;
    e.engineVersion = "0.1.0";
    e.protocol = "h2";
    e.measuredS = INTERVALS;
    e.measureStartUnixMs = COMMON_START_MS;
    e.reconnects = random() % 5;
    e.serverStreamLimit = random() % 2 ? 50 + static_cast<uint32_t>(random() % 50) : 0;
    e.warmupRequests = random() % 1000;
    // HTTP/3's QUIC facts: summed over loaders, the first end kept (one loader may have none).
    if (loader != 2) {
        e.quic.version = 1;
        e.quic.alpn = "h3";
        e.quic.handshakes = 1 + random() % 50;
        e.quic.lostPackets = random() % 10;
        e.quic.probeTimeouts = random() % 10;
        for (uint64_t& n : e.quic.ends)
            n = random() % 3;
        if (random() % 2) e.quic.firstEnd = "the server closed the connection (loader " + std::to_string(loader) + ")";
    }
    if (random() % 2) e.firstConnectError = "connection refused by loader " + std::to_string(loader);
    if (loader == 1) e.failure = "request(): script.lua:4: boom\nstack traceback:\n\t[C]: in function 'error'";
    for (int i = 0; i < 20; ++i)
        e.threadRates.perThreadRequestsPerS.push_back(static_cast<double>(random() % 10'000));
    e.entries.resize(ENTRIES);
    for (EntryStats& entry : e.entries)
        for (uint64_t i = 0, n = random() % 100; i < n; ++i) {
            const int status = random() % 5 == 0 ? 500 : 200;
            entry.addResponse(status, 100 + random() % 100'000, true);
            if (random() % 9 == 0) ++entry.errors.timeout;
        }
    return e;
}

// Writes a loader's whole stream through the real writer into a file and reads it back.
LoaderDocument streamed(
    const RunConfig& whole, unsigned loader, unsigned count, const RunResult& share, const test::TempDir& dir)
{
    const std::string path = dir.file("loader" + std::to_string(loader) + ".jsonl");
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    EXPECT_GE(fd, 0);
    LoaderIdentity identity;
    identity.index = loader;
    identity.count = count;
    identity.host = "loader-" + std::to_string(loader);
    identity.requestedStartUnixUs = COMMON_START_MS * 1000;
    LoaderStreamWriter writer(fd, identity);
    writer.setWholeConfig(runConfigToJson(whole.normalized()));
    writer.ready();
    writer.onStarted(share.config);
    for (const IntervalRecord& i : share.intervals)
        writer.onInterval(i);
    writer.onFinished(share);
    ::close(fd);
    auto doc = readLoaderFile(path);
    EXPECT_TRUE(doc) << doc.error();
    return doc ? *doc : LoaderDocument {};
}

void expectSameHistogram(const LatencyHistogram& a, const LatencyHistogram& b, const char* what)
{
    EXPECT_EQ(a.count(), b.count()) << what;
    EXPECT_EQ(a.minUs(), b.minUs()) << what;
    EXPECT_EQ(a.maxUs(), b.maxUs()) << what;
    EXPECT_EQ(a.sumUs(), b.sumUs()) << what;
    EXPECT_EQ(a.serialize(), b.serialize()) << what << ": bucket by bucket";
}

void expectSameEntry(const EntryStats& a, const EntryStats& b, size_t i)
{
    EXPECT_EQ(a.requests, b.requests) << "entry " << i;
    EXPECT_EQ(a.errors, b.errors) << "entry " << i;
    auto sorted = [](std::vector<std::pair<int, uint64_t>> v) {
        std::sort(v.begin(), v.end());
        return v;
    };
    EXPECT_EQ(sorted(a.statusCodes), sorted(b.statusCodes)) << "entry " << i;
    ASSERT_EQ(a.latency != nullptr, b.latency != nullptr) << "entry " << i;
    if (a.latency) expectSameHistogram(*a.latency, *b.latency, "entry latency");
}

} // namespace

TEST(Fold, LoadersFoldedEqualOneProcess)
{
    for (uint64_t seed = 1; seed <= 12; ++seed) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        std::mt19937_64 random(seed);
        const unsigned loaders = 2 + static_cast<unsigned>(random() % 4);
        const RunConfig whole = wholeConfig();
        test::TempDir dir;

        // What each loader measured, and what one process measuring it all would have.
        std::vector<RunFold> shares(loaders, RunFold(whole));
        RunFold all(whole);
        RunEnd allEnd;
        allEnd.measureStartUnixMs = COMMON_START_MS;
        std::vector<RunEnd> ends;
        std::vector<LoaderCost> loaderCosts(loaders);
        for (unsigned l = 0; l < loaders; ++l) {
            ends.push_back(randomEnd(random, l));
            RunEnd mine = ends.back();
            mine.measureStartUnixMs = 0;
            allEnd.merge(mine);
        }
        for (unsigned k = 0; k < INTERVALS; ++k) {
            IntervalSnapshot sum;
            sum.index = k;
            sum.startS = k;
            sum.endS = k + 1;
            for (unsigned l = 0; l < loaders; ++l) {
                const IntervalSnapshot mine = randomInterval(random, k);
                sum.add(mine);
                sum.targetRatePerS += mine.targetRatePerS;
                loaderCosts[l].add(mine.loaderCost);
                shares[l].add(mine, IntervalRecord::of(mine, COMMON_START_MS + 1000 * k));
            }
            all.add(sum, IntervalRecord::of(sum, COMMON_START_MS + 1000 * k));
        }
        const RunResult expected = all.finish(allEnd);

        std::vector<LoaderDocument> documents;
        for (unsigned l = 0; l < loaders; ++l)
            documents.push_back(streamed(whole, l, loaders, shares[l].finish(ends[l]), dir));
        DocumentMerge merge(documents);
        ASSERT_TRUE(merge.prepare());
        const RunResult got = merge.run();

        EXPECT_EQ(got.requests, expected.requests);
        EXPECT_EQ(got.bytes, expected.bytes);
        EXPECT_EQ(got.errors, expected.errors);
        EXPECT_EQ(got.status.byCode, expected.status.byCode);
        expectSameHistogram(got.latency, expected.latency, "latency");
        expectSameHistogram(got.serviceLatency, expected.serviceLatency, "service");
        expectSameHistogram(got.sendLag, expected.sendLag, "send lag");
        expectSameHistogram(got.connectTime, expected.connectTime, "connect");
        expectSameHistogram(got.tlsHandshake, expected.tlsHandshake, "tls");
        expectSameHistogram(got.firstByte, expected.firstByte, "first byte");
        expectSameHistogram(got.upstreamTime, expected.upstreamTime, "upstream");
        expectSameHistogram(got.frontDoor, expected.frontDoor, "front door");
        EXPECT_EQ(got.upstreamMissing, expected.upstreamMissing);
        EXPECT_EQ(got.loaderCost, expected.loaderCost);
        EXPECT_TRUE(got.loaderCost.measured());
        EXPECT_EQ(got.backends.unnamed, expected.backends.unnamed);
        ASSERT_EQ(backendRecordsOf(got.backends), backendRecordsOf(expected.backends));
        EXPECT_GT(expected.backends.names.size(), 1u);
        EXPECT_EQ(got.lateRequests, expected.lateRequests);
        EXPECT_EQ(got.maxLagUs, expected.maxLagUs);
        EXPECT_DOUBLE_EQ(got.durationS, expected.durationS);
        EXPECT_NEAR(got.targetRatePerS, expected.targetRatePerS, 1e-6);
        EXPECT_EQ(got.measureStartUnixMs, expected.measureStartUnixMs);
        EXPECT_EQ(got.protocol, expected.protocol);
        EXPECT_EQ(got.stoppedEarly, expected.stoppedEarly);
        EXPECT_EQ(got.reconnects, expected.reconnects);
        EXPECT_EQ(got.serverStreamLimit, expected.serverStreamLimit);
        EXPECT_EQ(got.quic.handshakes, expected.quic.handshakes);
        EXPECT_EQ(got.quic.lostPackets, expected.quic.lostPackets);
        EXPECT_EQ(got.quic.probeTimeouts, expected.quic.probeTimeouts);
        EXPECT_EQ(got.quic.ends, expected.quic.ends);
        EXPECT_EQ(got.quic.version, expected.quic.version);
        EXPECT_EQ(got.quic.alpn, expected.quic.alpn);
        EXPECT_EQ(got.quic.firstEnd.empty(), expected.quic.firstEnd.empty());
        EXPECT_GT(expected.quic.handshakes, 0u);
        EXPECT_EQ(got.warmupRequests, expected.warmupRequests);
        EXPECT_EQ(got.firstConnectError.empty(), expected.firstConnectError.empty());
        EXPECT_EQ(got.failure, expected.failure); // a script's error crosses the loader stream whole
        auto samples = [](RateSamples r) {
            std::sort(r.perThreadRequestsPerS.begin(), r.perThreadRequestsPerS.end());
            return r.perThreadRequestsPerS;
        };
        EXPECT_EQ(samples(got.threadRates), samples(expected.threadRates));
        ASSERT_EQ(got.entries.size(), ENTRIES);
        for (size_t i = 0; i < ENTRIES; ++i)
            expectSameEntry(got.entries[i], expected.entries[i], i);
        ASSERT_EQ(got.slo.size(), expected.slo.size());
        for (size_t i = 0; i < got.slo.size(); ++i) {
            EXPECT_EQ(got.slo[i].ok, expected.slo[i].ok);
            EXPECT_DOUBLE_EQ(got.slo[i].value, expected.slo[i].value);
        }
        ASSERT_EQ(got.intervals.size(), expected.intervals.size());
        for (size_t k = 0; k < got.intervals.size(); ++k) {
            const IntervalRecord& a = got.intervals[k];
            const IntervalRecord& b = expected.intervals[k];
            EXPECT_EQ(a.requests, b.requests) << k;
            EXPECT_EQ(a.errors, b.errors) << k;
            EXPECT_EQ(a.statusCodes, b.statusCodes) << k;
            EXPECT_EQ(a.latencyHistogram, b.latencyHistogram) << k;
            EXPECT_EQ(a.sendLagHistogram, b.sendLagHistogram) << k;
            EXPECT_EQ(a.firstByteHistogram, b.firstByteHistogram) << k;
            EXPECT_EQ(a.backends, b.backends) << k;
            EXPECT_EQ(a.upstreamHistogram, b.upstreamHistogram) << k;
            EXPECT_EQ(a.startUnixMs, b.startUnixMs) << k;
            EXPECT_EQ(a.inFlight, b.inFlight) << k;
            EXPECT_EQ(a.loaderCost, b.loaderCost) << k;
            EXPECT_NEAR(a.targetRatePerS, b.targetRatePerS, 1e-6) << k;
        }
        ASSERT_EQ(got.loaders.size(), loaders);
        for (unsigned l = 0; l < loaders; ++l) {
            EXPECT_EQ(got.loaders[l].index, l);
            EXPECT_EQ(got.loaders[l].state, "completed");
            EXPECT_EQ(got.loaders[l].cost, loaderCosts[l]) << "each loader keeps its own cost";
        }
    }
}

// A result is its intervals and its end: folding them again gives it back.
TEST(Fold, AResultIsItsIntervalsAndItsEnd)
{
    std::mt19937_64 random(7);
    const RunConfig whole = wholeConfig();
    RunFold fold(whole);
    for (unsigned k = 0; k < INTERVALS; ++k) {
        const IntervalSnapshot s = randomInterval(random, k);
        fold.add(s, IntervalRecord::of(s, COMMON_START_MS + 1000 * k));
    }
    const RunResult first = fold.finish(randomEnd(random, 1));
    RunFold again(whole);
    for (const IntervalRecord& r : first.intervals)
        again.add(r);
    const RunResult second = again.finish(runEndOf(first));
    EXPECT_EQ(second.requests, first.requests);
    EXPECT_EQ(second.errors, first.errors);
    expectSameHistogram(second.latency, first.latency, "latency");
    expectSameHistogram(second.sendLag, first.sendLag, "send lag");
    expectSameHistogram(second.frontDoor, first.frontDoor, "front door");
    EXPECT_EQ(backendRecordsOf(second.backends), backendRecordsOf(first.backends));
    EXPECT_EQ(second.loaderCost, first.loaderCost);
    EXPECT_TRUE(first.loaderCost.measured());
    EXPECT_DOUBLE_EQ(second.durationS, first.durationS);
    EXPECT_DOUBLE_EQ(second.targetRatePerS, first.targetRatePerS);
    EXPECT_EQ(second.warmupRequests, first.warmupRequests);
    EXPECT_EQ(second.reconnects, first.reconnects);
    EXPECT_EQ(second.failure, first.failure);
    EXPECT_FALSE(second.failure.empty());
    for (size_t i = 0; i < ENTRIES; ++i)
        expectSameEntry(second.entries[i], first.entries[i], i);
}

// A stream whose lines were lost on the way (a cut pipe) no longer adds up to what its end
// says: the reader says so rather than merging a smaller run as if it were whole.
TEST(Fold, AStreamThatLostIntervalsIsRefused)
{
    std::mt19937_64 random(3);
    const RunConfig whole = wholeConfig();
    test::TempDir dir;
    RunFold fold(whole);
    for (unsigned k = 0; k < INTERVALS; ++k) {
        const IntervalSnapshot s = randomInterval(random, k);
        fold.add(s, IntervalRecord::of(s, COMMON_START_MS + 1000 * k));
    }
    RunResult share = fold.finish(randomEnd(random, 0));
    streamed(whole, 0, 1, share, dir);
    std::string text = test::readFile(dir.file("loader0.jsonl"));
    const size_t second = text.find("\"event\":\"interval\"", text.find("\"event\":\"interval\"") + 1);
    const size_t lineStart = text.rfind('\n', second) + 1;
    text.erase(lineStart, text.find('\n', second) + 1 - lineStart);
    auto doc = parseLoaderDocument(text, "cut");
    ASSERT_FALSE(doc);
    EXPECT_NE(doc.error().find("intervals hold"), std::string::npos) << doc.error();
}

// Loaders of one run share its configuration to the byte, but for where each finds the CA file it
// trusts: a pod reads the copy in its ConfigMap, a loader VM a path of its own.
TEST(Fold, LoadersMayFindTheirCaFileElsewhereButShareEverythingElse)
{
    RunConfig whole;
    whole.request.url = *parseUrl("https://front.example/");
    whole.connections = 4;
    whole.tls.caFile = "/home/me/ca.pem";
    FleetMerge merge(whole, 3, COMMON_START_MS);
    auto identity = [&](unsigned index, const RunConfig& config) {
        LoaderIdentity id;
        id.index = index;
        id.count = 3;
        id.wholeConfigJson = runConfigToJson(config.normalized());
        return id;
    };
    RunConfig inPod = whole;
    inPod.tls.caFile = "/etc/wrkbench/ca.pem";
    EXPECT_TRUE(merge.started(identity(0, whole)).ok());
    const Status pod = merge.started(identity(1, inPod));
    EXPECT_TRUE(pod.ok()) << pod.error();
    RunConfig unverified = whole;
    unverified.tls.verifyPeer = false; // trusting nothing is another run
    const Status other = merge.started(identity(2, unverified));
    ASSERT_FALSE(other.ok());
    EXPECT_NE(other.error().find("loader 2 ran another configuration"), std::string::npos) << other.error();
}
