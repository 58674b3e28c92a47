// The run configuration codec (wire/configcodec.h): every field round-trips, and
// bytes are bytes. A body or header value that is not UTF-8 must reach a loader,
// a pod or an agent as the same bytes, not as U+FFFD replacements.

#include "common/utf8.h"
#include "wire/configcodec.h"
#include "wire/wirejson.h"

#include <gtest/gtest.h>
#include <random>

using namespace wb;

namespace {

RunConfig everyField()
{
    RunConfig c;
    c.request.url = *parseUrl("https://api.example:8443/v1/items?q=1");
    c.request.method = "PATCH";
    c.request.headers = { { "Host", "api.example" }, { "X-Trace", "a, \"b\"" }, { "X-Empty", "" } };
    c.request.body = std::string("a\xc0\xaf"
                                 "b\xed\xa0\x80"
                                 "c",
        8);
    c.tls.verifyPeer = false;
    c.tls.caFile = "/etc/ssl/ca.pem";
    c.threads = 3;
    c.connections = 30;
    c.pipeline = 4;
    c.httpVersion = HttpVersion::Http2;
    c.streams = 12;
    c.windowBits = 20;
    c.connectionWindowBits = 24;
    c.headerTableBytes = 4096;
    c.durationUs = 12'345'678;
    c.warmupUs = 1'000'001;
    c.timeoutUs = 3'000'003;
    c.connectTimeoutUs = 4'000'004;
    c.intervalUs = 250'000;
    c.ratePerS = 1234.5;
    c.stages = { { 2'000'000, 100 }, { 3'000'000, 900.5 } };
    c.stagesAreConnections = false;
    c.sendSpinUs = 77;
    c.slos = { *parseSlo("p99<250ms"), *parseSlo("errors<1%") };
    c.sloAbort = true;
    c.loaders.count = 3;
    c.loaders.on = LoaderPlacement::On::Kubernetes;
    c.loaders.kubeContext = "gke";
    c.loaders.kubeNamespace = "load";
    c.loaders.image = "registry.example/wrkbench-cli:1";
    c.loaders.podCpu = "2";
    c.loaders.podMemory = "1Gi";
    c.mix.source = "mix.txt";
    c.mix.order = MixOrder::Weighted;
    c.mix.seed = 42;
    for (int i = 0; i < 3; ++i) {
        MixRequest e;
        e.request.method = i == 0 ? "GET" : "POST";
        e.request.url = *parseUrl("https://api.example:8443/e/" + std::to_string(i));
        e.request.headers = { { "X-Entry", std::string("\xff\xfe", 2) + std::to_string(i) } };
        e.request.body = std::string(1, static_cast<char>(0x80 + i)) + "body";
        e.weight = 1.5 + i;
        e.line = static_cast<unsigned>(10 * i + 1);
        e.label = "entry " + std::to_string(i);
        c.mix.entries.push_back(e);
    }
    return c;
}

void expectSame(const RequestSpec& a, const RequestSpec& b)
{
    EXPECT_EQ(a.method, b.method);
    EXPECT_EQ(a.url.displayText(), b.url.displayText());
    ASSERT_EQ(a.headers.size(), b.headers.size());
    for (size_t i = 0; i < a.headers.size(); ++i) {
        EXPECT_EQ(a.headers[i].name, b.headers[i].name);
        EXPECT_EQ(a.headers[i].value, b.headers[i].value);
    }
    EXPECT_EQ(a.body, b.body);
}

} // namespace

TEST(ConfigCodec, EveryFieldRoundTrips)
{
    const RunConfig c = everyField();
    auto back = runConfigFromJson(runConfigToJson(c));
    ASSERT_TRUE(back) << back.error();
    const RunConfig& d = *back;
    expectSame(c.request, d.request);
    EXPECT_EQ(d.tls.verifyPeer, c.tls.verifyPeer);
    EXPECT_EQ(d.tls.caFile, c.tls.caFile);
    EXPECT_EQ(d.threads, c.threads);
    EXPECT_EQ(d.connections, c.connections);
    EXPECT_EQ(d.pipeline, c.pipeline);
    EXPECT_EQ(d.httpVersion, c.httpVersion);
    EXPECT_EQ(d.streams, c.streams);
    EXPECT_EQ(d.windowBits, c.windowBits);
    EXPECT_EQ(d.connectionWindowBits, c.connectionWindowBits);
    EXPECT_EQ(d.headerTableBytes, c.headerTableBytes);
    EXPECT_EQ(d.durationUs, c.durationUs);
    EXPECT_EQ(d.warmupUs, c.warmupUs);
    EXPECT_EQ(d.timeoutUs, c.timeoutUs);
    EXPECT_EQ(d.connectTimeoutUs, c.connectTimeoutUs);
    EXPECT_EQ(d.intervalUs, c.intervalUs);
    EXPECT_EQ(d.ratePerS, c.ratePerS);
    EXPECT_EQ(d.stages, c.stages);
    EXPECT_EQ(d.stagesAreConnections, c.stagesAreConnections);
    EXPECT_EQ(d.sendSpinUs, c.sendSpinUs);
    ASSERT_EQ(d.slos.size(), c.slos.size());
    for (size_t i = 0; i < c.slos.size(); ++i)
        EXPECT_EQ(d.slos[i].expr, c.slos[i].expr);
    EXPECT_EQ(d.sloAbort, c.sloAbort);
    EXPECT_EQ(d.loaders, c.loaders);
    EXPECT_EQ(d.mix.source, c.mix.source);
    EXPECT_EQ(d.mix.order, c.mix.order);
    EXPECT_EQ(d.mix.seed, c.mix.seed);
    ASSERT_EQ(d.mix.entries.size(), c.mix.entries.size());
    for (size_t i = 0; i < c.mix.entries.size(); ++i) {
        expectSame(c.mix.entries[i].request, d.mix.entries[i].request);
        EXPECT_EQ(d.mix.entries[i].weight, c.mix.entries[i].weight);
        EXPECT_EQ(d.mix.entries[i].line, c.mix.entries[i].line);
        EXPECT_EQ(d.mix.entries[i].label, c.mix.entries[i].label);
    }
    // Written again, the same text: the coordinator compares loaders' configurations this way.
    EXPECT_EQ(runConfigToJson(d), runConfigToJson(c));
}

// The body of the report that found the bug: an overlong '/' (c0 af) and a UTF-16 surrogate
// (ed a0 80), both invalid UTF-8 that a loose check accepted and the writer then replaced.
TEST(ConfigCodec, ABodyThatIsNotUtf8TravelsAsItsBytes)
{
    RunConfig c;
    c.request.url = *parseUrl("http://127.0.0.1:8080/");
    c.request.body = std::string("\x61\xc0\xaf\x62\xed\xa0\x80\x63", 8);
    const std::string json = runConfigToJson(c);
    EXPECT_NE(json.find("\"body_base64\""), std::string::npos) << json;
    EXPECT_EQ(json.find("\\ufffd"), std::string::npos) << json;
    EXPECT_EQ(json.find("\xef\xbf\xbd"), std::string::npos) << json;
    auto back = runConfigFromJson(json);
    ASSERT_TRUE(back) << back.error();
    EXPECT_EQ(back->request.body, c.request.body);
}

TEST(ConfigCodec, TextStaysText)
{
    RunConfig c;
    c.request.url = *parseUrl("http://127.0.0.1:8080/");
    c.request.body = "{\"name\": \"Zoë 🚀\"}";
    c.request.headers = { { "X-Name", "Zoë" } };
    const std::string json = runConfigToJson(c);
    EXPECT_EQ(json.find("_base64"), std::string::npos) << json; // readable where it is text
    EXPECT_EQ(runConfigFromJson(json)->request.body, c.request.body);
}

// Arbitrary bytes in bodies and header values, for many random strings: what comes back is
// what went in, byte for byte.
TEST(ConfigCodec, ArbitraryBytesRoundTrip)
{
    std::mt19937_64 random(27);
    for (int round = 0; round < 500; ++round) {
        RunConfig c;
        c.request.url = *parseUrl("http://127.0.0.1:8080/");
        auto bytes = [&](size_t n) {
            std::string s(n, '\0');
            for (char& ch : s)
                ch = static_cast<char>(random() & 0xff);
            return s;
        };
        c.request.body = bytes(random() % 64);
        // A header value may hold any byte but the controls that would end its line (the
        // request rules refuse those, tested below).
        std::string value = bytes(random() % 16);
        for (char& ch : value)
            if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) ch = 'x';
        c.request.headers = { { "X-Bytes", value } };
        MixRequest e;
        e.request = c.request;
        e.request.body = bytes(random() % 32);
        c.mix.entries = { e, e };
        auto back = runConfigFromJson(runConfigToJson(c));
        ASSERT_TRUE(back) << back.error();
        ASSERT_EQ(back->request.body, c.request.body) << round;
        ASSERT_EQ(back->request.headers[0].value, c.request.headers[0].value) << round;
        ASSERT_EQ(back->mix.entries[1].request.body, e.request.body) << round;
    }
}

TEST(ConfigCodec, BadInputIsOneSentence)
{
    for (const char* text : { "", "[", "{\"threads\": \"two\"}", "{\"body_base64\": \"a$b\"}",
             "{\"headers\": {\"a\": 1}}", "{\"mix\": {\"entries\": [{\"url\": 7}]}}",
             // smuggling: a value that ends its header line, a method that is a request line
             "{\"headers\": [{\"name\": \"X\", \"value\": \"a\\r\\n\\r\\nGET /SMUGGLED HTTP/1.1\"}]}",
             "{\"method\": \"GET http://other/ HTTP/1.1\\r\\nX:\"}",
             "{\"headers\": [{\"name\": \"Bad Name\", \"value\": \"v\"}]}" }) {
        auto c = runConfigFromJson(text);
        ASSERT_FALSE(c) << text;
        EXPECT_FALSE(c.error().empty()) << text;
    }
    // Deep nesting is refused while parsing, before anything walks the tree.
    std::string deep(70'000, '[');
    deep += std::string(70'000, ']');
    auto c = runConfigFromJson("{\"threads\": 1, \"x\": " + deep + "}");
    ASSERT_FALSE(c);
    EXPECT_NE(c.error().find("nested deeper than"), std::string::npos) << c.error();
}

TEST(WireJson, AWholeNumberIsReadAsWritten)
{
    const WireJson j = parseWireJson(R"({"small": -5, "big": 9223372036854775807, "past": 18446744073709551615,
        "half": 2.5, "text": "1"})");
    EXPECT_EQ(wireInt(j, "small"), -5);
    EXPECT_EQ(wireInt(j, "big"), INT64_MAX);
    EXPECT_EQ(wireInt(j, "absent", 7), 7);
    // 2^64-1 is unsigned to nlohmann and integer too: read as int64_t it would be -1.
    for (const char* key : { "past", "half", "text" })
        EXPECT_THROW(wireInt(j, key), WireError) << key;
}
