#include "http/url.h"

#include <gtest/gtest.h>

using wb::parseUrl;

TEST(Url, PlainHttpWithDefaults)
{
    auto u = parseUrl("http://example.test");
    ASSERT_TRUE(u) << u.error();
    EXPECT_EQ(u->scheme, "http");
    EXPECT_EQ(u->host, "example.test");
    EXPECT_EQ(u->port, 80);
    EXPECT_EQ(u->target, "/");
    EXPECT_EQ(u->hostHeader(), "example.test");
    EXPECT_EQ(u->toString(), "http://example.test/");
}

TEST(Url, HttpsPortPathQueryAndFragment)
{
    auto u = parseUrl("HTTPS://Api.Example.Test:8443/v1/items?id=3&x=%20#frag");
    ASSERT_TRUE(u) << u.error();
    EXPECT_TRUE(u->isTls());
    EXPECT_EQ(u->host, "api.example.test");
    EXPECT_EQ(u->port, 8443);
    EXPECT_EQ(u->target, "/v1/items?id=3&x=%20");
    EXPECT_EQ(u->hostHeader(), "api.example.test:8443");
}

TEST(Url, KeepsWhatTheUserTypedForReports)
{
    auto u = parseUrl("http://LocalHost:8080");
    ASSERT_TRUE(u);
    EXPECT_EQ(u->displayText(), "http://LocalHost:8080"); // wrk echoes the URL as given
    EXPECT_EQ(u->toString(), "http://localhost:8080/");
    wb::Url built;
    built.scheme = "http";
    built.host = "h";
    built.port = 80;
    built.target = "/";
    EXPECT_EQ(built.displayText(), "http://h/");
}

TEST(Url, QueryWithoutPath)
{
    auto u = parseUrl("http://h?q=1");
    ASSERT_TRUE(u);
    EXPECT_EQ(u->target, "/?q=1");
}

TEST(Url, Ipv4AndIpv6Literals)
{
    auto v4 = parseUrl("http://127.0.0.1:8080/a");
    ASSERT_TRUE(v4);
    EXPECT_EQ(v4->host, "127.0.0.1");
    EXPECT_FALSE(v4->isIpv6Literal());
    auto v6 = parseUrl("https://[::1]:8443/x");
    ASSERT_TRUE(v6) << v6.error();
    EXPECT_EQ(v6->host, "::1");
    EXPECT_TRUE(v6->isIpv6Literal());
    EXPECT_EQ(v6->port, 8443);
    EXPECT_EQ(v6->hostHeader(), "[::1]:8443");
    auto v6default = parseUrl("http://[fe80::1]/");
    ASSERT_TRUE(v6default);
    EXPECT_EQ(v6default->hostHeader(), "[fe80::1]");
}

TEST(Url, DefaultPortIsLeftOutOfHostHeader)
{
    EXPECT_EQ(parseUrl("https://h:443/")->hostHeader(), "h");
    EXPECT_EQ(parseUrl("http://h:443/")->hostHeader(), "h:443");
}

// Whether the text named a port (a script's wrk.port is nil otherwise), even the default one.
TEST(Url, KnowsWhetherThePortWasGiven)
{
    EXPECT_FALSE(parseUrl("http://h/")->portGiven);
    EXPECT_FALSE(parseUrl("http://[::1]/")->portGiven);
    EXPECT_TRUE(parseUrl("http://h:80/")->portGiven);
    EXPECT_TRUE(parseUrl("https://[::1]:8443/x")->portGiven);
}

struct BadUrl
{
    const char* text;
    const char* messagePart;
};

class UrlErrors : public ::testing::TestWithParam<BadUrl>
{ };

TEST_P(UrlErrors, AreRejectedWithAReason)
{
    auto u = parseUrl(GetParam().text);
    ASSERT_FALSE(u) << GetParam().text;
    EXPECT_NE(u.error().find(GetParam().messagePart), std::string::npos) << u.error();
}

INSTANTIATE_TEST_SUITE_P(Cases, UrlErrors,
    ::testing::Values(BadUrl { "", "empty URL" }, BadUrl { "example.test", "expected http://" },
        BadUrl { "ftp://h/", "unsupported scheme 'ftp'" }, BadUrl { "http:///path", "missing host" },
        BadUrl { "http://h:0/", "invalid port '0'" }, BadUrl { "http://h:65536/", "invalid port" },
        BadUrl { "http://h:80x/", "invalid port" }, BadUrl { "http://h:/", "empty port" },
        BadUrl { "http://[::1/", "missing ']'" }, BadUrl { "http://[zz]/", "not an IPv6 address" },
        BadUrl { "http://a b/", "whitespace" }, BadUrl { "http://user@h/", "user information" },
        BadUrl { "http://h$st/", "not a valid host name" }));
