// What --backend-from and --upstream-time read out of a response, and how bad specs are refused.

#include "run/responsenoter.h"

#include <gtest/gtest.h>

using namespace wb;

namespace {

ObservedResponse response(const std::vector<HeaderField>& headers, std::string_view body = {})
{
    ObservedResponse r;
    r.status = 200;
    r.headers = headers;
    r.body = body;
    return r;
}

} // namespace

TEST(BackendFrom, ParsesTheThreeSourcesAndRefusesTheRest)
{
    EXPECT_EQ(parseBackendFrom("body")->source, BackendFrom::Source::Body);
    auto header = parseBackendFrom("header:X-Pod");
    ASSERT_TRUE(header.ok());
    EXPECT_EQ(header->name, "X-Pod");
    auto regex = parseBackendFrom("body-regex:pod=(\\w+)");
    ASSERT_TRUE(regex.ok());
    EXPECT_EQ(backendFromText(*regex), "body-regex:pod=(\\w+)");

    auto bad = parseBackendFrom("body-regex:pod=(\\w+");
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().find("is not a regular expression"), std::string::npos) << bad.error();
    EXPECT_FALSE(parseBackendFrom("header:").ok());
    EXPECT_FALSE(parseBackendFrom("header:a b").ok());
    EXPECT_FALSE(parseBackendFrom("cookie:x").ok());
}

TEST(UpstreamTime, ParsesUnitsAndRefusesTheRest)
{
    auto envoy = parseUpstreamTime("header:x-envoy-upstream-service-time");
    ASSERT_TRUE(envoy.ok());
    EXPECT_DOUBLE_EQ(envoy->unitUs, 1000) << "milliseconds by default";
    auto nginx = parseUpstreamTime("header:X-Upstream-Time:s");
    ASSERT_TRUE(nginx.ok());
    EXPECT_EQ(nginx->name, "X-Upstream-Time");
    EXPECT_DOUBLE_EQ(nginx->unitUs, 1e6);
    EXPECT_EQ(upstreamTimeText(*nginx), "header:X-Upstream-Time:s");
    EXPECT_EQ(parseUpstreamTime("server-timing:upstream")->source, UpstreamTimeFrom::Source::ServerTiming);
    EXPECT_FALSE(parseUpstreamTime("header:X:minutes").ok());
    EXPECT_FALSE(parseUpstreamTime("server-timing:").ok());
    EXPECT_FALSE(parseUpstreamTime("x-envoy-upstream-service-time").ok());
}

TEST(ResponseNoter, NamesFromBodyHeaderAndRegex)
{
    const std::vector<HeaderField> headers { { "Content-Type", "text/plain" }, { "x-pod", "pod-7" } };
    EXPECT_EQ(ResponseNoter::nameOf(*parseBackendFrom("body"), nullptr, response(headers, "  web-5d9f\r\nmore\n")),
        "web-5d9f");
    EXPECT_EQ(ResponseNoter::nameOf(*parseBackendFrom("header:X-Pod"), nullptr, response(headers)), "pod-7");
    EXPECT_EQ(ResponseNoter::nameOf(*parseBackendFrom("header:X-Node"), nullptr, response(headers)), "");
    const UserPattern re = *UserPattern::compile("served by ([a-z0-9-]+)");
    EXPECT_EQ(ResponseNoter::nameOf(*parseBackendFrom("body-regex:served by ([a-z0-9-]+)"), &re,
                  response(headers, "<p>served by api-3</p>")),
        "api-3");
    EXPECT_EQ(ResponseNoter::nameOf(*parseBackendFrom("body-regex:x"), &re, response(headers, "nothing")), "");
    // Bytes outside printable ASCII are written \xHH: two byte strings stay two names.
    EXPECT_EQ(ResponseNoter::nameOf(*parseBackendFrom("body"), nullptr, response(headers, "p\xff\\")), "p\\xff\\x5c");
}

TEST(ResponseNoter, UpstreamTimeFromHeaderAndServerTiming)
{
    uint64_t us = 0;
    const std::vector<HeaderField> envoy { { "x-envoy-upstream-service-time", "12" } };
    ASSERT_TRUE(
        ResponseNoter::upstreamUsOf(*parseUpstreamTime("header:x-envoy-upstream-service-time"), response(envoy), us));
    EXPECT_EQ(us, 12'000u);
    // nginx: several upstreams tried, comma- and colon-separated, in seconds: summed.
    const std::vector<HeaderField> nginx { { "X-Upstream-Time", "0.012, 0.003 : 0.001" } };
    ASSERT_TRUE(ResponseNoter::upstreamUsOf(*parseUpstreamTime("header:x-upstream-time:s"), response(nginx), us));
    EXPECT_EQ(us, 16'000u);
    const std::vector<HeaderField> none { { "X-Upstream-Time", "-" } };
    EXPECT_FALSE(ResponseNoter::upstreamUsOf(*parseUpstreamTime("header:x-upstream-time:s"), response(none), us));
    const std::vector<HeaderField> timing { { "Server-Timing", "cache;desc=\"Cache Read\";dur=23.2, db;dur=53.5" },
        { "Server-Timing", "upstream;dur=\"7.25\"" } };
    ASSERT_TRUE(ResponseNoter::upstreamUsOf(*parseUpstreamTime("server-timing:db"), response(timing), us));
    EXPECT_EQ(us, 53'500u);
    ASSERT_TRUE(ResponseNoter::upstreamUsOf(*parseUpstreamTime("server-timing:upstream"), response(timing), us));
    EXPECT_EQ(us, 7'250u);
    EXPECT_FALSE(ResponseNoter::upstreamUsOf(*parseUpstreamTime("server-timing:app"), response(timing), us));
}

TEST(ResponseNoter, BoundsTheNamesAndAsksOnlyForTheBytesItNeeds)
{
    BackendFrom spec = *parseBackendFrom("body");
    spec.maxBackends = 2;
    ResponseNoter noter(spec, {}, nullptr);
    EXPECT_TRUE(noter.wantsBody());
    EXPECT_EQ(noter.bodyBytesWanted(), BACKEND_BODY_LINE_BYTES);
    const std::vector<HeaderField> none;
    EXPECT_EQ(noter.note(response(none, "a\n")).backend, 0);
    EXPECT_EQ(noter.note(response(none, "b\n")).backend, 1);
    EXPECT_EQ(noter.note(response(none, "a\n")).backend, 0);
    EXPECT_FALSE(noter.overflowed());
    const uint16_t other = noter.note(response(none, "c\n")).backend;
    EXPECT_EQ(noter.note(response(none, "d\n")).backend, other);
    EXPECT_TRUE(noter.overflowed());
    EXPECT_EQ(noter.names().at(other), OTHER_BACKEND);
    EXPECT_EQ(noter.note(response(none, "")).backend, ResponseNote::NO_BACKEND);

    ResponseNoter headerOnly(*parseBackendFrom("header:x-pod"), {}, nullptr);
    EXPECT_FALSE(headerOnly.wantsBody()) << "a header name needs no body";
}
