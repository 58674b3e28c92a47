#include "http/request.h"

#include <gtest/gtest.h>

using namespace wb;

TEST(Request, GetHasHostAndNoContentLength)
{
    RequestSpec spec;
    spec.url = *parseUrl("http://127.0.0.1:8080/a?b=1");
    EXPECT_EQ(buildRequest(spec), "GET /a?b=1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n");
}

TEST(Request, BodyGetsContentLengthAndUserHeadersComeInOrder)
{
    RequestSpec spec;
    spec.method = "POST";
    spec.url = *parseUrl("https://api.test/items");
    spec.headers = { *parseHeader("Content-Type: application/json"), *parseHeader("X-Trace:  abc  ") };
    spec.body = "{\"a\":1}";
    EXPECT_EQ(buildRequest(spec),
        "POST /items HTTP/1.1\r\nHost: api.test\r\nContent-Type: application/json\r\nX-Trace: abc\r\n"
        "Content-Length: 7\r\n\r\n{\"a\":1}");
}

TEST(Request, UserHostAndContentLengthReplaceDefaults)
{
    RequestSpec spec;
    spec.method = "PUT";
    spec.url = *parseUrl("http://10.0.0.1/");
    spec.headers = { *parseHeader("host: ingress.example"), *parseHeader("Content-Length: 2") };
    spec.body = "hi";
    EXPECT_EQ(buildRequest(spec), "PUT / HTTP/1.1\r\nhost: ingress.example\r\nContent-Length: 2\r\n\r\nhi");
}

TEST(Request, HeaderParsing)
{
    auto h = parseHeader("Authorization: Bearer x:y");
    ASSERT_TRUE(h);
    EXPECT_EQ(h->name, "Authorization");
    EXPECT_EQ(h->value, "Bearer x:y");
    auto empty = parseHeader("X-Empty:");
    ASSERT_TRUE(empty);
    EXPECT_EQ(empty->value, "");
    EXPECT_FALSE(parseHeader("no colon"));
    EXPECT_FALSE(parseHeader(": value"));
    EXPECT_FALSE(parseHeader("Bad Name: v"));
    EXPECT_FALSE(parseHeader("X: a\r\nInjected: yes"));
    EXPECT_NE(parseHeader("nocolon").error().find("expected 'Name: value'"), std::string::npos);
}
