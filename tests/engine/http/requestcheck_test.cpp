// The request rules every configuration is held to (http/requestcheck.h), whoever sent it:
// what would end a header line, turn a method into a request line, or frame the body
// differently from its size is refused; what the CLI has always sent still passes.

#include "common/jsondepth.h"
#include "http/fieldtext.h"
#include "http/requestcheck.h"

#include <gtest/gtest.h>

using namespace wb;

namespace {

RequestSpec spec(const std::string& url = "http://127.0.0.1:8080/a?b=1")
{
    RequestSpec r;
    r.url = *parseUrl(url);
    return r;
}

} // namespace

TEST(RequestCheck, OrdinaryRequestsPass)
{
    RequestSpec r = spec();
    EXPECT_TRUE(checkRequestSpec(r));
    r.method = "PROPFIND";
    r.headers = { { "Content-Type", "application/json" }, { "X-Tab", "a\tb" }, { "X-Utf8", "h\xc3\xa9" },
        { "Content-Length", "2" }, { "X-Empty", "" } };
    r.body = "hi";
    EXPECT_TRUE(checkRequestSpec(r)) << checkRequestSpec(r).error();
    EXPECT_TRUE(checkRequestSpec(spec("https://[::1]:8443/")));
}

TEST(RequestCheck, HeaderBytesThatEndALineAreRefused)
{
    for (const std::string& value : { std::string("a\r\n\r\nGET /SMUGGLED HTTP/1.1"), std::string("a\nb"),
             std::string("a\rb"), std::string("a\0b", 3), std::string("a\x01"), std::string("\x7f") }) {
        RequestSpec r = spec();
        r.headers = { { "X-A", value } };
        EXPECT_FALSE(checkRequestSpec(r)) << value;
    }
    for (const std::string& name : { std::string(""), std::string("X A"), std::string("X:A"), std::string("X\r\nY"),
             std::string("X\0", 2), std::string(300, 'a') }) {
        RequestSpec r = spec();
        r.headers = { { name, "v" } };
        EXPECT_FALSE(checkRequestSpec(r)) << name;
    }
}

TEST(RequestCheck, MethodsAndTargetsCannotCarryARequestLine)
{
    for (const std::string& method : { std::string(""), std::string("get"), std::string("GET / HTTP/1.1\r\nX:"),
             std::string("GET http://10.0.0.1/"), std::string(40, 'A') }) {
        RequestSpec r = spec();
        r.method = method;
        EXPECT_FALSE(checkRequestSpec(r)) << method;
    }
    RequestSpec r = spec();
    for (const std::string& target :
        { std::string(""), std::string("a"), std::string("/a b"), std::string("/a\r\n"), std::string("/\x80") }) {
        r.url.target = target;
        EXPECT_FALSE(checkRequestSpec(r)) << target;
    }
    r = spec();
    r.url.host = "";
    EXPECT_FALSE(checkRequestSpec(r));
    r.url.host = "a\r\nb";
    EXPECT_FALSE(checkRequestSpec(r));
    r.url.host = std::string("a\0b", 3); // NUL is no host character (strchr once found it in any set)
    EXPECT_FALSE(checkRequestSpec(r));
}

TEST(RequestCheck, TokenCharactersAreRfc9110s)
{
    for (char c : std::string("azAZ09!#$%&'*+-.^_`|~"))
        EXPECT_TRUE(isTokenChar(c)) << c;
    for (char c : std::string(" \t\r\n\0\"(),/:;<=>?@[\\]{}\x7f\x80", 24))
        EXPECT_FALSE(isTokenChar(c)) << static_cast<int>(static_cast<unsigned char>(c));
}

TEST(RequestCheck, FramingHeadersMustAgreeWithTheBody)
{
    RequestSpec r = spec();
    r.method = "POST";
    r.body = "GET /SMUGGLED HTTP/1.1\r\n\r\n";
    r.headers = { { "content-length", "0" } };
    EXPECT_FALSE(checkRequestSpec(r));
    r.headers = { { "Content-Length", "+26" } };
    EXPECT_FALSE(checkRequestSpec(r));
    r.headers = { { "Content-Length", std::to_string(r.body.size()) } };
    EXPECT_TRUE(checkRequestSpec(r));
    r.headers = { { "Transfer-Encoding", "chunked" } };
    EXPECT_FALSE(checkRequestSpec(r));
}

TEST(RequestCheck, TheCliHeaderParserUsesTheSameRules)
{
    EXPECT_TRUE(parseHeader("X-A: b"));
    EXPECT_FALSE(parseHeader("X-A: b\x01"));
    EXPECT_FALSE(parseHeader("X A: b"));
    const auto crlf = parseHeader("X-A: a\r\nB: c");
    ASSERT_FALSE(crlf);
    EXPECT_NE(crlf.error().find("CR, LF or NUL"), std::string::npos) << crlf.error();
}

TEST(JsonDepth, CountsBracketsOutsideStringsOnly)
{
    EXPECT_TRUE(jsonDepthWithin("{}", 1));
    EXPECT_FALSE(jsonDepthWithin("{\"a\":[]}", 1));
    EXPECT_TRUE(jsonDepthWithin("{\"a\":[]}", 2));
    EXPECT_TRUE(jsonDepthWithin("{\"a\":\"[[[[{{{{\"}", 1));
    EXPECT_TRUE(jsonDepthWithin("{\"a\":\"\\\"[[[[\"}", 1)); // an escaped quote does not end the string
    EXPECT_FALSE(jsonDepthWithin("{\"a\":\"\\\\\",\"b\":[[]]}", 2)); // an escaped backslash does
    EXPECT_FALSE(jsonDepthWithin(std::string(70'000, '[') + std::string(70'000, ']'), AGENT_MAX_JSON_DEPTH));
    EXPECT_TRUE(jsonDepthWithin("]]]]", 1)); // unbalanced: the parser's to refuse
    EXPECT_TRUE(jsonDepthWithin("", 1));
}
