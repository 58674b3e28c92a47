// ProbeResult as data: the waterfall arithmetic, JSON round trips, the
// --repeat summary, the terminal text, and the wording of failures.

#include "probe/probeerror.h"
#include "probe/proberesult.h"
#include "probe/probetext.h"

#include <cerrno>
#include <curl/curl.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <openssl/x509_vfy.h>

using namespace wb;

namespace {

ProbeResult tlsExample()
{
    ProbeResult r;
    r.url = "https://api.example.test/items";
    r.method = "GET";
    r.startedAtMs = 1'767'225'600'000;
    r.dnsUs = 100;
    r.connectUs = 300;
    r.tlsUs = 1300;
    r.requestSentUs = 1350;
    r.firstByteUs = 5350;
    r.totalUs = 5400;
    r.remoteIp = "10.0.0.1";
    r.remotePort = 443;
    r.localIp = "10.0.0.2";
    r.localPort = 40000;
    r.addresses = { "10.0.0.1", "2001:db8::1" };
    r.httpVersion = "HTTP/1.1";
    r.alpn = "http/1.1";
    r.tlsVersion = "TLSv1.3";
    r.cipher = "TLS_AES_256_GCM_SHA384";
    r.certificates = { { "CN=api.example.test", "CN=Example CA", { "DNS:api.example.test", "IP:10.0.0.1" },
                           "2025-12-01T00:00:00Z", "2026-01-01T00:00:00Z", -3 },
        { "CN=Example CA", "CN=Example Root", {}, "2020-01-01T00:00:00Z", "2030-01-01T00:00:00Z", 1461 } };
    r.statusLine = "HTTP/1.1 200 OK";
    r.statusCode = 200;
    r.headers = { { "Server", "test" }, { "Set-Cookie", "a=1" }, { "Set-Cookie", "b=2" } };
    r.bodyBytes = 123;
    r.redirects = { { "https://api.example.test/old", "https://api.example.test/items", 301, 900, false } };
    return r;
}

std::vector<std::string> lines(const std::string& text)
{
    std::vector<std::string> out;
    size_t start = 0;
    for (size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1)
        out.push_back(text.substr(start, end - start));
    return out;
}

} // namespace

TEST(ProbeResult, SpansAreConsecutiveAndAddUpToTheTotal)
{
    const ProbeResult r = tlsExample();
    const auto spans = r.spans();
    ASSERT_EQ(spans.size(), 6u);
    const std::vector<uint64_t> durations = { 100, 200, 1000, 50, 4000, 50 };
    uint64_t at = 0;
    for (size_t i = 0; i < spans.size(); ++i) {
        EXPECT_EQ(spans[i].phase, PROBE_PHASES[i]);
        EXPECT_EQ(spans[i].startUs, at);
        EXPECT_EQ(spans[i].durationUs, durations[i]) << phaseLabel(spans[i].phase);
        at = spans[i].endUs();
    }
    EXPECT_EQ(at, r.totalUs);
    EXPECT_EQ(r.phaseUs(ProbePhase::Wait), 4000u);
}

TEST(ProbeResult, PlainHttpHasNoTlsSpan)
{
    ProbeResult r;
    r.dnsUs = 10;
    r.connectUs = 60;
    r.requestSentUs = 70;
    r.firstByteUs = 570;
    r.totalUs = 600;
    const auto spans = r.spans();
    ASSERT_EQ(spans.size(), 5u);
    EXPECT_EQ(spans[2].phase, ProbePhase::Send);
    EXPECT_EQ(spans[2].startUs, 60u);
    EXPECT_EQ(spans[2].durationUs, 10u);
    EXPECT_EQ(r.phaseUs(ProbePhase::Tls), 0u);
}

TEST(ProbeResult, TimersThatDidNotRunAreClamped)
{
    // A reused connection: curl leaves DNS, connect and TLS at 0.
    ProbeResult r;
    r.tlsVersion = "TLSv1.3";
    r.requestSentUs = 40;
    r.firstByteUs = 1000;
    r.totalUs = 1100;
    const auto spans = r.spans();
    ASSERT_EQ(spans.size(), 6u);
    EXPECT_EQ(spans[0].durationUs + spans[1].durationUs + spans[2].durationUs, 0u);
    EXPECT_EQ(spans[3].durationUs, 40u);
    EXPECT_EQ(spans[4].durationUs, 960u);
    EXPECT_EQ(spans[5].durationUs, 100u);
}

TEST(ProbeResult, HeaderLookupIgnoresCaseAndTakesTheFirst)
{
    const ProbeResult r = tlsExample();
    ASSERT_NE(r.header("set-cookie"), nullptr);
    EXPECT_EQ(r.header("set-cookie")->value, "a=1");
    EXPECT_EQ(r.header("X-Missing"), nullptr);
}

TEST(ProbeResultJson, RoundTripKeepsEveryField)
{
    const ProbeResult r = tlsExample();
    auto back = ProbeResult::fromJson(r.toJson());
    ASSERT_TRUE(back.ok()) << back.error();
    EXPECT_EQ(*back, r);
    auto fromText = ProbeResult::fromJsonText(r.toJsonText());
    ASSERT_TRUE(fromText.ok()) << fromText.error();
    EXPECT_EQ(*fromText, r);
}

TEST(ProbeResultJson, CarriesTimersAndOwnPhaseDurations)
{
    const auto j = tlsExample().toJson();
    EXPECT_EQ(j["timings_us"]["first_byte"], 5350);
    EXPECT_EQ(j["phases_us"]["tls"], 1000);
    EXPECT_EQ(j["phases_us"]["wait"], 4000);
    EXPECT_EQ(j["certificates"][0]["days_to_expiry"], -3);
    EXPECT_EQ(j["headers"][2]["value"], "b=2");
    EXPECT_EQ(j["redirects"][0]["status"], 301);

    ProbeResult plain;
    plain.totalUs = 5;
    EXPECT_FALSE(plain.toJson()["phases_us"].contains("tls"));
}

TEST(ProbeResultJson, MissingKeysKeepTheirDefaults)
{
    auto r = ProbeResult::fromJsonText(R"({"url":"http://a/","status_code":204})");
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_EQ(r->url, "http://a/");
    EXPECT_EQ(r->statusCode, 204);
    EXPECT_EQ(r->totalUs, 0u);
    EXPECT_TRUE(r->certificates.empty());
}

TEST(ProbeResultJson, BadInputIsAnError)
{
    EXPECT_FALSE(ProbeResult::fromJsonText("not json").ok());
    EXPECT_FALSE(ProbeResult::fromJsonText("[1,2]").ok());
    auto wrongType = ProbeResult::fromJsonText(R"({"status_code":"two hundred"})");
    ASSERT_FALSE(wrongType.ok());
    EXPECT_EQ(wrongType.error().rfind("probe result: ", 0), 0u) << wrongType.error();
}

TEST(ProbeResultJson, InvalidUtf8FromAServerDoesNotThrow)
{
    ProbeResult r;
    r.headers = { { "X-Bytes", "\xff\xfe" } };
    std::string text;
    EXPECT_NO_THROW(text = r.toJsonText());
    auto back = ProbeResult::fromJsonText(text);
    ASSERT_TRUE(back.ok()) << back.error();
    EXPECT_EQ(back->headers[0].value, "\xEF\xBF\xBD\xEF\xBF\xBD"); // two U+FFFD
}

TEST(ProbeSummary, MinMedianMaxPerPhase)
{
    std::vector<ProbeResult> probes;
    for (uint64_t wait : { 10, 30, 20 }) {
        ProbeResult p;
        p.dnsUs = 1;
        p.connectUs = 2;
        p.requestSentUs = 3;
        p.firstByteUs = 3 + wait;
        p.totalUs = 4 + wait;
        probes.push_back(p);
    }
    ProbeSummary s = summarize(probes);
    EXPECT_EQ(s.count, 3u);
    EXPECT_FALSE(s.tls);
    EXPECT_EQ(s[ProbePhase::Wait].minUs, 10u);
    EXPECT_EQ(s[ProbePhase::Wait].medianUs, 20u);
    EXPECT_EQ(s[ProbePhase::Wait].maxUs, 30u);
    EXPECT_EQ(s.total.medianUs, 24u);
    EXPECT_FALSE(s.toJson()["phases_us"].contains("tls"));

    probes.push_back(probes[0]); // waits 10, 10, 20, 30: median between the middle two
    s = summarize(probes);
    EXPECT_EQ(s[ProbePhase::Wait].medianUs, 15u);
    EXPECT_EQ(s.toJson()["phases_us"]["wait"]["median"], 15);
}

TEST(ProbeText, WaterfallPlacesEachBarWhereItsPhaseHappened)
{
    const auto l = lines(formatWaterfall(tlsExample(), 40));
    ASSERT_EQ(l.size(), 8u); // heading, six phases, total
    EXPECT_EQ(l[1], "  DNS lookup          0.100 ms     0.100 ms  |#                                       |");
    EXPECT_EQ(l[3], "  TLS handshake       1.000 ms     1.300 ms  |  ########                              |");
    // 1350..5350 us of 5400: cells 10 to 39.
    EXPECT_EQ(l[5], "  first byte          4.000 ms     5.350 ms  |          ##############################|");
    EXPECT_EQ(l[6], "  body                0.050 ms     5.400 ms  |                                       #|");
    EXPECT_EQ(l[7], "  total                            5.400 ms");
}

TEST(ProbeText, DetailsNameTheConnectionCertificatesAndResponse)
{
    const std::string text = formatProbeDetails(tlsExample());
    for (const char* expected : { "  Remote        10.0.0.1:443 (resolves to 10.0.0.1, 2001:db8::1)\n",
             "  HTTP          HTTP/1.1, ALPN http/1.1\n", "  TLS           TLSv1.3, TLS_AES_256_GCM_SHA384\n",
             "  Certificate   CN=api.example.test\n", "                issued by CN=Example CA\n",
             "                names DNS:api.example.test, IP:10.0.0.1\n",
             "                valid 2025-12-01T00:00:00Z to 2026-01-01T00:00:00Z (EXPIRED 3 days ago)\n",
             "  Chain 1       CN=Example CA\n", "(1461 days left)\n", "  Response      HTTP/1.1 200 OK\n",
             "                Set-Cookie: b=2\n", "  Body          123 bytes\n",
             "  Redirect      301 https://api.example.test/old -> https://api.example.test/items (not followed)\n" })
        EXPECT_NE(text.find(expected), std::string::npos) << expected << "\nin:\n" << text;
}

TEST(ProbeText, SummaryHasARowPerPhase)
{
    const std::string text = formatProbeSummaryText({ tlsExample(), tlsExample() });
    const auto l = lines(text);
    ASSERT_GE(l.size(), 10u);
    EXPECT_EQ(l[0], "GET https://api.example.test/items: 2 probes, each on a fresh connection");
    EXPECT_EQ(l[2], "  phase                min        median           max");
    EXPECT_EQ(l[5], "  TLS handshake       1.000 ms     1.000 ms     1.000 ms");
    EXPECT_EQ(l[9], "  total               5.400 ms     5.400 ms     5.400 ms");
}

TEST(ProbeFailureText, LimitsReadNaturally)
{
    EXPECT_EQ(formatLimit(5'000'000), "5 s");
    EXPECT_EQ(formatLimit(1'500'000), "1.5 s");
    EXPECT_EQ(formatLimit(300'000), "300 ms");
    EXPECT_EQ(formatLimit(250), "250 us");
}

TEST(ProbeFailureText, TimeoutsNameThePhaseTheyHitAndTheLimit)
{
    ProbeFailure f;
    f.curlCode = CURLE_OPERATION_TIMEDOUT;
    f.host = "api.example.test";
    f.endpoint = "10.0.0.1:443";
    f.tls = true;
    f.timeoutUs = 5'000'000;
    f.connectTimeoutUs = 2'000'000;
    EXPECT_EQ(describeFailure(f), "timed out after 2 s looking up api.example.test");
    f.dnsUs = 10;
    EXPECT_EQ(describeFailure(f), "timed out after 2 s connecting to 10.0.0.1:443");
    f.connectUs = 20;
    EXPECT_EQ(describeFailure(f), "timed out after 2 s in the TLS handshake with 10.0.0.1:443");
    f.tlsUs = 30;
    f.requestSentUs = 40;
    EXPECT_EQ(describeFailure(f), "timed out after 5 s waiting for the first byte");
    f.firstByteUs = 50;
    f.bodyBytes = 1000;
    EXPECT_EQ(describeFailure(f), "timed out after 5 s receiving the body (1000 bytes received)");
}

TEST(ProbeFailureText, ConnectionAndDnsFailures)
{
    ProbeFailure f;
    f.host = "api.example.test";
    f.endpoint = "127.0.0.1:9";
    f.curlCode = CURLE_COULDNT_RESOLVE_HOST;
    EXPECT_EQ(describeFailure(f), "DNS lookup failed for api.example.test");
    f.curlCode = CURLE_COULDNT_CONNECT;
    f.osErrno = ECONNREFUSED;
    EXPECT_EQ(describeFailure(f), "connection refused by 127.0.0.1:9");
    f.curlCode = CURLE_GOT_NOTHING;
    EXPECT_EQ(describeFailure(f), "127.0.0.1:9 closed the connection without answering");
}

TEST(ProbeFailureText, CertificateFailuresComeFromTheCapturedChain)
{
    TlsCapture capture;
    capture.verifyError = X509_V_ERR_CERT_HAS_EXPIRED;
    capture.verifyErrorDepth = 0;
    capture.failedCertificate.notAfter = "2026-01-01T00:00:00Z";
    ProbeFailure f;
    f.curlCode = CURLE_PEER_FAILED_VERIFICATION;
    f.capture = &capture;
    EXPECT_EQ(describeFailure(f), "certificate has expired (notAfter 2026-01-01)");

    capture.verifyErrorDepth = 1;
    capture.failedCertificate.subject = "CN=Example CA";
    EXPECT_EQ(describeFailure(f), "CA certificate CN=Example CA has expired (notAfter 2026-01-01)");
}
