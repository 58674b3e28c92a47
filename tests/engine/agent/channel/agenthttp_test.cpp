// The agent's little HTTP/1.1 (agent/agenthttp.h): requests read whole or byte by
// byte, every refusal with its status, and answers read back (lengths, chunks).

#include "agent/channel/agenthttp.h"

#include <gtest/gtest.h>

using namespace wb;

namespace {

ServerRequestParser byteByByte(const std::string& text)
{
    ServerRequestParser p;
    for (char c : text)
        p.feed(std::string_view(&c, 1));
    return p;
}

TEST(AgentHttp, ReadsARequestWholeOrAByteAtATime)
{
    const std::string text
        = "POST /v1/runs/r-1/start?offset=12&x HTTP/1.1\r\nHost: a\r\nAuthorization:  Bearer t0k \r\n"
          "Content-Length: 5\r\n\r\nhello";
    for (const ServerRequestParser& p : { byteByByte(text), [&] {
                                             ServerRequestParser whole;
                                             whole.feed(text);
                                             return whole;
                                         }() }) {
        ASSERT_EQ(p.state(), ServerRequestParser::State::Done) << p.error();
        EXPECT_EQ(p.request().method, "POST");
        EXPECT_EQ(p.request().path, "/v1/runs/r-1/start");
        EXPECT_EQ(p.request().query.at("offset"), "12");
        EXPECT_EQ(p.request().query.count("x"), 1u);
        EXPECT_EQ(p.request().header("authorization"), "Bearer t0k");
        EXPECT_EQ(p.request().body, "hello");
    }
}

TEST(AgentHttp, RefusesWhatCanNeverBeARequest)
{
    auto refused = [](const std::string& text) {
        ServerRequestParser p;
        p.feed(text);
        EXPECT_EQ(p.state(), ServerRequestParser::State::Bad) << text;
        return p.status();
    };
    EXPECT_EQ(refused("POST / HTTP/1.1\r\nContent-Length: 2097152\r\n\r\n"), 413); // before reading the body
    EXPECT_EQ(refused("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"), 411);
    EXPECT_EQ(refused("GET / HTTP/2.0\r\n\r\n"), 505);
    EXPECT_EQ(refused("GET http://x/ HTTP/1.1\r\n\r\n"), 400);
    EXPECT_EQ(refused("GET / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n"), 400);
    EXPECT_EQ(refused("GET / HTTP/1.1\r\nContent-Length: -1\r\n\r\n"), 400);
    EXPECT_EQ(refused("GET / HTTP/1.1\r\nno colon\r\n\r\n"), 400);
    EXPECT_EQ(refused("GET / HTTP/1.1\r\nX: " + std::string(SERVER_MAX_HEAD_BYTES, 'a')), 431);
    // One request per connection: what follows it is never read, whole or in pieces.
    ServerRequestParser extra;
    extra.feed("GET / HTTP/1.1\r\nContent-Length: 1\r\n\r\nab");
    EXPECT_EQ(extra.state(), ServerRequestParser::State::Done);
    EXPECT_EQ(extra.request().body, "a");
    ServerRequestParser slow;
    slow.feed("GET / HTTP/1.1\r\nHost: a\r\n");
    EXPECT_EQ(slow.state(), ServerRequestParser::State::NeedMore);
}

TEST(AgentHttp, ReadsAnswersByLengthAndByChunks)
{
    AgentResponseReader whole;
    ASSERT_TRUE(whole.feed(agentResponse(409, agentErrorBody("busy: \"r-1\""))));
    EXPECT_TRUE(whole.done());
    EXPECT_EQ(whole.status(), 409);
    EXPECT_EQ(whole.body(), "{\"error\":\"busy: \\\"r-1\\\"\"}");

    const std::string stream = agentChunkedHead(200, "application/x-ndjson") + agentChunk("{\"a\":1}\n")
        + agentChunk("{\"b\"") + agentChunk(":2}\n") + agentChunk("");
    AgentResponseReader chunks;
    std::string got;
    for (char c : stream) {
        ASSERT_TRUE(chunks.feed(std::string_view(&c, 1))) << chunks.error();
        got += chunks.takeBody();
    }
    EXPECT_TRUE(chunks.done());
    EXPECT_EQ(got, "{\"a\":1}\n{\"b\":2}\n");

    AgentResponseReader bad;
    EXPECT_FALSE(bad.feed("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"));
    EXPECT_FALSE(AgentResponseReader().feed("SSH-2.0-OpenSSH\r\n\r\n"));
}

} // namespace
