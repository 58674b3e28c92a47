// What request() returns, parsed back into requests: wrk.format's output, pipelined
// requests, bodies by Content-Length, and each malformed string refused naming why.
#include "script/rawrequest.h"

#include <gtest/gtest.h>

using namespace wb;

namespace {

Url base()
{
    Url u;
    u.scheme = "http";
    u.host = "127.0.0.1";
    u.port = 8080;
    u.target = "/";
    return u;
}

} // namespace

TEST(RawRequest, ParsesWhatWrkFormatMakes)
{
    auto r = parseRawRequests("POST /a?b=1 HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc", base());
    ASSERT_TRUE(r.ok()) << r.error();
    ASSERT_EQ(r->size(), 1u);
    EXPECT_EQ(r->front().method, "POST");
    EXPECT_EQ(r->front().url.target, "/a?b=1");
    EXPECT_EQ(r->front().url.port, 8080);
    EXPECT_EQ(r->front().body, "abc");
    ASSERT_EQ(r->front().headers.size(), 2u);
    EXPECT_EQ(r->front().headers[0], (Header { "Host", "x" }));
}

TEST(RawRequest, SeveralBackToBackArePipelined)
{
    auto r = parseRawRequests(
        "GET /1 HTTP/1.1\r\n\r\nPUT /2 HTTP/1.1\r\nContent-Length: 2\r\n\r\nhiGET /3 HTTP/1.1\r\n\r\n", base());
    ASSERT_TRUE(r.ok()) << r.error();
    ASSERT_EQ(r->size(), 3u);
    EXPECT_EQ((*r)[1].body, "hi");
    EXPECT_EQ((*r)[2].url.target, "/3");
}

TEST(RawRequest, BodyBytesAreKeptAsBytes)
{
    const std::string body("\0\xff\r\n", 4);
    auto r = parseRawRequests("POST / HTTP/1.1\r\nContent-Length: 4\r\n\r\n" + body, base());
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_EQ(r->front().body, body);
}

TEST(RawRequest, MalformedIsRefusedNamingWhy)
{
    EXPECT_EQ(parseRawRequests("", base()).error(), "an empty request");
    EXPECT_EQ(parseRawRequests("GET / HTTP/1.1", base()).error(),
        "request 1: no complete request line (it must end in \\r\\n)");
    EXPECT_EQ(parseRawRequests("GET /\r\n\r\n", base()).error(), "request 1: not a request line: 'GET /'");
    EXPECT_EQ(parseRawRequests("GET / HTTP/1.1\r\nHost: x\r\n", base()).error(),
        "request 1: the header block does not end in an empty line");
    EXPECT_EQ(parseRawRequests("GET / HTTP/1.1\r\nbad\r\n\r\n", base()).error(), "request 1: not a header line: 'bad'");
    EXPECT_EQ(parseRawRequests("GET / HTTP/1.1\r\nContent-Length: 9\r\n\r\nab", base()).error(),
        "request 1: Content-Length 9 but only 2 bytes follow");
    EXPECT_EQ(parseRawRequests("GET / HTTP/1.1\r\n\r\nxyz", base()).error(),
        "request 2: no complete request line (it must end in \\r\\n)");
}

// Found by fuzz_scriptvalue: a bare CR inside a line passed as part of the target or a field,
// and would have been sent as it was (a line ended early: a request of the script's making).
TEST(RawRequest, WhatNoOtherRequestMayCarryIsRefusedToo)
{
    const auto crInTarget = parseRawRequests("GET /a\r/ HTTP/1.1\r\nHost: x\r\n\r\n", base());
    ASSERT_FALSE(crInTarget.ok());
    EXPECT_TRUE(crInTarget.error().starts_with("request 1: ")) << crInTarget.error();
    const auto crInValue = parseRawRequests("GET / HTTP/1.1\r\nX-A: 1\rX-B: 2\r\n\r\n", base());
    ASSERT_FALSE(crInValue.ok());
    EXPECT_TRUE(crInValue.error().starts_with("request 1: ")) << crInValue.error();
    EXPECT_FALSE(parseRawRequests("G\x01T / HTTP/1.1\r\n\r\n", base()).ok());
    EXPECT_FALSE(parseRawRequests("GET / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", base()).ok());
}

// The HTTP/1.1 fast path: wrk.format()'s output (and pipelined requests back to back) goes out
// as it is, each request at its place; anything parseRawRequests would refuse or rebuild (a bare
// LF, no Host, a Content-Length that is not the body's, a smuggled line) is not taken.
TEST(ScanWireRequests, TakesWhatGoesOutAsItIsAndNothingElse)
{
    std::vector<RawRequestView> views;
    const std::string get = "GET /a HTTP/1.1\r\nHost: x\r\n\r\n";
    const std::string post = "POST /b?x=1 HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nX-A:  v \r\n\r\nabc";
    const std::string head = "HEAD / HTTP/1.1\r\nhost: x\r\n\r\n";
    ASSERT_TRUE(scanWireRequests(get + post + head, views));
    ASSERT_EQ(views.size(), 3u);
    EXPECT_EQ(views[0].offset, 0u);
    EXPECT_EQ(views[0].length, get.size());
    EXPECT_EQ(views[1].offset, get.size());
    EXPECT_EQ(views[1].length, post.size());
    EXPECT_FALSE(views[1].head);
    EXPECT_TRUE(views[2].head);
    EXPECT_EQ(views[2].offset + views[2].length, get.size() + post.size() + head.size());
    // Reused: the next call starts from an empty list.
    ASSERT_TRUE(scanWireRequests(get, views));
    EXPECT_EQ(views.size(), 1u);

    for (const std::string& no : {
             std::string(""),
             std::string("GET /a HTTP/1.1\nHost: x\n\n"), // bare LF: rebuilt with CRLF
             std::string("GET /a HTTP/1.1\r\n\r\n"), // no Host: rebuilt with the URL's
             std::string("GET /a HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nabc"),
             std::string("GET /a HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\na"),
             std::string("GET /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"),
             std::string("GET /a\rb HTTP/1.1\r\nHost: x\r\n\r\n"),
             std::string("GET /a HTTP/1.1\r\nHost: x\rEvil: 1\r\n\r\n"),
             std::string("get /a HTTP/1.1\r\nHost: x\r\n\r\n"),
             std::string("GET a HTTP/1.1\r\nHost: x\r\n\r\n"),
             std::string("GET /a HTTP/2\r\nHost: x\r\n\r\n"),
             std::string("GET /a HTTP/1.1\r\nHost: x\r\n"), // no empty line
             std::string("GET /a HTTP/1.1\r\nBad Name: x\r\nHost: x\r\n\r\n"),
         })
        EXPECT_FALSE(scanWireRequests(no, views)) << no;
}
