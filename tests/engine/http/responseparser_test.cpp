#include "http/responseparser.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <gtest/gtest.h>
#include <random>
#include <string>
#include <string_view>
#include <vector>

using wb::ResponseParser;
using ParseResult = ResponseParser::Result;

namespace {

// What the parser said about one response of a stream.
struct Outcome
{
    ParseResult result = ParseResult::NeedMore;
    size_t end = 0; ///< stream offset just past the response (Complete) or where parsing stopped
    int status = 0;
    int minor = -1;
    bool keepAlive = false;
    std::string error;

    bool operator==(const Outcome&) const = default;
};

std::ostream& operator<<(std::ostream& os, const Outcome& o)
{
    const char* names[] = { "NeedMore", "Complete", "Error" };
    return os << "{" << names[static_cast<int>(o.result)] << " end=" << o.end << " status=" << o.status
              << " minor=" << o.minor << " keepAlive=" << o.keepAlive << " error='" << o.error << "'}";
}

// Feeds `stream` in the pieces delimited by `cuts` (ascending offsets inside the stream),
// resetting after every complete response, like a connection does with pipelined responses.
// Each piece goes through one scratch buffer that is clobbered after every feed, so a parser
// that kept pointers into its input would read garbage. At the end, optionally signals EOF.
std::vector<Outcome> parseStream(
    std::string_view stream, std::vector<size_t> cuts, bool eof = false, const std::vector<bool>& heads = {})
{
    cuts.push_back(stream.size());
    std::vector<Outcome> outcomes;
    ResponseParser parser;
    auto headFor = [&](size_t index) { return index < heads.size() && heads[index]; };
    parser.reset(headFor(0));
    std::vector<char> scratch;
    size_t pieceStart = 0;
    for (const size_t cut : cuts) {
        scratch.assign(stream.begin() + static_cast<std::ptrdiff_t>(pieceStart),
            stream.begin() + static_cast<std::ptrdiff_t>(cut));
        size_t offset = 0;
        while (offset < scratch.size()) {
            size_t consumed = 12345;
            const ParseResult result = parser.feed(scratch.data() + offset, scratch.size() - offset, consumed);
            EXPECT_LE(consumed, scratch.size() - offset);
            offset += consumed;
            if (result == ParseResult::NeedMore) {
                EXPECT_EQ(offset, scratch.size()) << "NeedMore must consume everything";
                break;
            }
            outcomes.push_back({ result, pieceStart + offset, parser.statusCode(), parser.httpMinorVersion(),
                parser.keepAlive(), parser.errorReason() });
            if (result == ParseResult::Error) return outcomes;
            EXPECT_GT(consumed, 0u) << "a fresh response cannot complete without consuming a byte";
            parser.reset(headFor(outcomes.size()));
        }
        std::fill(scratch.begin(), scratch.end(), 'X');
        pieceStart = cut;
    }
    if (eof) {
        const bool started = parser.started();
        const ParseResult result = parser.finishOnEof();
        if (result == ParseResult::Complete || started)
            outcomes.push_back({ result, stream.size(), parser.statusCode(), parser.httpMinorVersion(),
                parser.keepAlive(), parser.errorReason() });
    }
    return outcomes;
}

std::vector<Outcome> parseWhole(std::string_view stream, bool eof = false, const std::vector<bool>& heads = {})
{
    return parseStream(stream, {}, eof, heads);
}

std::vector<Outcome> parseBytewise(std::string_view stream, bool eof = false, const std::vector<bool>& heads = {})
{
    std::vector<size_t> cuts;
    for (size_t i = 1; i < stream.size(); ++i)
        cuts.push_back(i);
    return parseStream(stream, cuts, eof, heads);
}

// Parses one response; expects exactly one outcome and returns it.
Outcome parseOne(std::string_view text, bool eof = false, bool head = false)
{
    const auto outcomes = parseWhole(text, eof, { head });
    EXPECT_EQ(outcomes.size(), 1u) << text;
    return outcomes.empty() ? Outcome {} : outcomes.front();
}

// Expects `text` to be rejected, whole and byte by byte, with the given reason.
void expectError(std::string_view text, std::string_view reason, bool eof = false)
{
    for (const auto& outcomes : { parseWhole(text, eof), parseBytewise(text, eof) }) {
        ASSERT_FALSE(outcomes.empty()) << text;
        EXPECT_EQ(outcomes.back().result, ParseResult::Error) << text;
        EXPECT_EQ(outcomes.back().error, reason) << text;
        for (size_t i = 0; i + 1 < outcomes.size(); ++i)
            EXPECT_EQ(outcomes[i].result, ParseResult::Complete);
    }
}

// A string literal that may contain NUL bytes.
template<size_t N> std::string bytesOf(const char (&literal)[N])
{
    return std::string(literal, N - 1);
}

const std::string CHUNKED_RESPONSE = "HTTP/1.1 200 OK\r\n"
                                     "Transfer-Encoding: chunked\r\n"
                                     "\r\n"
                                     "5;name=value;other\r\nhello\r\n"
                                     "1A\r\nabcdefghijklmnopqrstuvwxyz\r\n"
                                     "0003 ; ext\r\n\r\n\n\r\n"
                                     "0\r\n"
                                     "X-Checksum: abc\r\n"
                                     "Connection: close\r\n" // trailers are never interpreted
                                     "Content-Length: 1\r\n"
                                     "X-Other: 1\r\n"
                                     "\r\n";

} // namespace

TEST(ResponseParser, ContentLength)
{
    const std::string text
        = "HTTP/1.1 200 OK\r\nServer: t\r\nContent-Length: 5\r\nContent-Type: text/plain\r\n\r\nhello";
    const Outcome o = parseOne(text);
    EXPECT_EQ(o.result, ParseResult::Complete);
    EXPECT_EQ(o.end, text.size());
    EXPECT_EQ(o.status, 200);
    EXPECT_EQ(o.minor, 1);
    EXPECT_TRUE(o.keepAlive);
}

TEST(ResponseParser, ContentLengthCompletesWithoutTouchingTheNextResponse)
{
    ResponseParser parser;
    const std::string text = "HTTP/1.1 404 Not Found\r\ncontent-LENGTH:  \t3 \r\n\r\nabcHTTP/1.1";
    size_t consumed = 0;
    EXPECT_EQ(parser.feed(text.data(), text.size(), consumed), ParseResult::Complete);
    EXPECT_EQ(consumed, text.size() - 8);
    EXPECT_EQ(parser.statusCode(), 404);
    // Until reset() the parser stays complete and takes nothing more.
    EXPECT_EQ(parser.feed(text.data() + consumed, 8, consumed), ParseResult::Complete);
    EXPECT_EQ(consumed, 0u);
    EXPECT_EQ(parser.finishOnEof(), ParseResult::Complete);
}

TEST(ResponseParser, ZeroContentLength)
{
    const std::string text = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n";
    const auto outcomes = parseWhole(text + text);
    ASSERT_EQ(outcomes.size(), 2u);
    EXPECT_EQ(outcomes[0].end, text.size());
    EXPECT_EQ(outcomes[1].end, 2 * text.size());
    EXPECT_EQ(outcomes[1].result, ParseResult::Complete);
}

TEST(ResponseParser, IdenticalDuplicateContentLengthIsAccepted)
{
    const std::string text = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nab";
    const Outcome o = parseOne(text + "HTTP");
    EXPECT_EQ(o.result, ParseResult::Complete);
    EXPECT_EQ(o.end, text.size());
}

TEST(ResponseParser, ChunkedWithExtensionsAndTrailers)
{
    const Outcome o = parseOne(CHUNKED_RESPONSE + "HTTP/1.1 200 OK\r\n");
    EXPECT_EQ(o.result, ParseResult::Complete);
    EXPECT_EQ(o.end, CHUNKED_RESPONSE.size());
    EXPECT_EQ(o.status, 200);
    EXPECT_TRUE(o.keepAlive);
}

TEST(ResponseParser, ChunkedSplitAtEveryBoundary)
{
    const auto whole = parseWhole(CHUNKED_RESPONSE);
    ASSERT_EQ(whole.size(), 1u);
    ASSERT_EQ(whole[0].result, ParseResult::Complete);
    for (size_t split = 1; split < CHUNKED_RESPONSE.size(); ++split)
        EXPECT_EQ(parseStream(CHUNKED_RESPONSE, { split }), whole) << "split at " << split;
    EXPECT_EQ(parseBytewise(CHUNKED_RESPONSE), whole);
}

TEST(ResponseParser, ContentLengthSplitAtEveryBoundary)
{
    const std::string text = "HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 10\r\n\r\n0123456789";
    const auto whole = parseWhole(text);
    ASSERT_EQ(whole.size(), 1u);
    EXPECT_TRUE(whole[0].keepAlive);
    for (size_t split = 1; split < text.size(); ++split)
        EXPECT_EQ(parseStream(text, { split }), whole) << "split at " << split;
    EXPECT_EQ(parseBytewise(text), whole);
}

TEST(ResponseParser, PipelinedResponsesBackToBack)
{
    const std::string a = "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nabcd";
    const std::string b = CHUNKED_RESPONSE;
    const std::string c = "HTTP/1.1 204 No Content\r\nContent-Length: 99\r\n\r\n";
    const std::string d = "HTTP/1.1 503 Busy\r\nContent-Length: 1\r\nConnection: close\r\n\r\nx";
    const std::string stream = a + b + c + d;
    const auto outcomes = parseWhole(stream);
    ASSERT_EQ(outcomes.size(), 4u);
    EXPECT_EQ(outcomes[0].end, a.size());
    EXPECT_EQ(outcomes[1].end, a.size() + b.size());
    EXPECT_EQ(outcomes[2].end, a.size() + b.size() + c.size());
    EXPECT_EQ(outcomes[3].end, stream.size());
    EXPECT_EQ(outcomes[2].status, 204);
    EXPECT_EQ(outcomes[3].status, 503);
    EXPECT_TRUE(outcomes[2].keepAlive);
    EXPECT_FALSE(outcomes[3].keepAlive);
    EXPECT_EQ(parseBytewise(stream), outcomes);
}

TEST(ResponseParser, InterimResponsesAreSkipped)
{
    const std::string text = "HTTP/1.1 100 Continue\r\n\r\n"
                             "HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\nContent-Length: 7\r\n\r\n"
                             "HTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok";
    const auto outcomes = parseWhole(text + "HTTP");
    ASSERT_EQ(outcomes.size(), 1u);
    EXPECT_EQ(outcomes[0].result, ParseResult::Complete);
    EXPECT_EQ(outcomes[0].status, 201);
    EXPECT_EQ(outcomes[0].end, text.size());
    EXPECT_EQ(parseBytewise(text), outcomes);
}

TEST(ResponseParser, InterimResponseThenEofIsAnError)
{
    ResponseParser parser;
    const std::string text = "HTTP/1.1 100 Continue\r\n\r\n";
    size_t consumed = 0;
    EXPECT_EQ(parser.feed(text.data(), text.size(), consumed), ParseResult::NeedMore);
    EXPECT_TRUE(parser.started());
    EXPECT_EQ(parser.finishOnEof(), ParseResult::Error);
}

TEST(ResponseParser, SwitchingProtocolsCompletesWithoutBody)
{
    const std::string text = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n";
    const auto outcomes = parseWhole(text + "\x81\x05hello");
    ASSERT_GE(outcomes.size(), 1u);
    EXPECT_EQ(outcomes[0].result, ParseResult::Complete);
    EXPECT_EQ(outcomes[0].status, 101);
    EXPECT_EQ(outcomes[0].end, text.size());
    EXPECT_FALSE(outcomes[0].keepAlive);
}

TEST(ResponseParser, HeadResponseHasNoBody)
{
    const std::string head = "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n";
    const std::string headChunked = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
    const std::string get = "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc";
    const std::string stream = head + headChunked + get;
    const std::vector<bool> heads { true, true, false };
    const auto outcomes = parseWhole(stream, false, heads);
    ASSERT_EQ(outcomes.size(), 3u);
    EXPECT_EQ(outcomes[0].end, head.size());
    EXPECT_EQ(outcomes[1].end, head.size() + headChunked.size());
    EXPECT_EQ(outcomes[2].end, stream.size());
    EXPECT_TRUE(outcomes[0].keepAlive);
    EXPECT_EQ(parseBytewise(stream, false, heads), outcomes);
    // Without the HEAD flag the same bytes are the start of a 1000-byte body.
    EXPECT_TRUE(parseWhole(stream).empty());
}

TEST(ResponseParser, NoBodyStatuses)
{
    for (const int status : { 204, 304 }) {
        const std::string text
            = "HTTP/1.1 " + std::to_string(status) + " X\r\nContent-Length: 10\r\nTransfer-Encoding: chunked\r\n\r\n";
        const auto outcomes = parseWhole(text + text);
        ASSERT_EQ(outcomes.size(), 2u) << status;
        EXPECT_EQ(outcomes[0].end, text.size());
        EXPECT_EQ(outcomes[0].status, status);
        EXPECT_TRUE(outcomes[0].keepAlive);
    }
}

TEST(ResponseParser, Http10KeepAlive)
{
    const Outcome plain = parseOne("HTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\nx");
    EXPECT_EQ(plain.result, ParseResult::Complete);
    EXPECT_EQ(plain.minor, 0);
    EXPECT_FALSE(plain.keepAlive);

    const Outcome ka = parseOne("HTTP/1.0 200 OK\r\nConnection: KEEP-ALIVE\r\nContent-Length: 1\r\n\r\nx");
    EXPECT_EQ(ka.result, ParseResult::Complete);
    EXPECT_TRUE(ka.keepAlive);

    // Transfer-Encoding in HTTP/1.0 is faulty framing: parse it, but close afterwards.
    const Outcome te
        = parseOne("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n");
    EXPECT_EQ(te.result, ParseResult::Complete);
    EXPECT_FALSE(te.keepAlive);
}

TEST(ResponseParser, ConnectionTokens)
{
    struct Case
    {
        const char* value;
        bool keepAlive;
    };
    for (const Case& c : { Case { "close", false }, Case { "Close", false }, Case { "upgrade, CLOSE", false },
             Case { " keep-alive ,close ", false }, Case { "closed", true }, Case { "clos", true },
             Case { "close-ish", true }, Case { "close foo", true }, Case { ",,keep-alive,,", true }, Case { "", true },
             Case { "TE, close;x", false } }) {
        const Outcome o
            = parseOne(std::string("HTTP/1.1 200 OK\r\nConnection: ") + c.value + "\r\nContent-Length: 0\r\n\r\n");
        EXPECT_EQ(o.result, ParseResult::Complete) << c.value;
        EXPECT_EQ(o.keepAlive, c.keepAlive) << c.value;
    }
    const Outcome folded = parseOne("HTTP/1.1 200 OK\r\nConnection: upgrade,\r\n close\r\nContent-Length: 0\r\n\r\n");
    EXPECT_EQ(folded.result, ParseResult::Complete);
    EXPECT_FALSE(folded.keepAlive);
}

TEST(ResponseParser, TransferEncodingFraming)
{
    // The last coding decides; chunked overrides Content-Length; anything else reads until close.
    const std::string chunkedBody = "3\r\nabc\r\n0\r\n\r\n";
    const std::string gzipChunkedText
        = "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, CHUNKED\r\nContent-Length: 3\r\n\r\n" + chunkedBody;
    const Outcome gzipChunked = parseOne(gzipChunkedText + "HTTP");
    EXPECT_EQ(gzipChunked.result, ParseResult::Complete);
    EXPECT_EQ(gzipChunked.end, gzipChunkedText.size());
    EXPECT_TRUE(gzipChunked.keepAlive);

    const Outcome twoHeaders
        = parseOne("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n" + chunkedBody);
    EXPECT_EQ(twoHeaders.result, ParseResult::Complete);

    const std::string untilClose = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, gzip\r\nContent-Length: 3\r\n\r\n";
    EXPECT_TRUE(parseWhole(untilClose + "abcdef").empty());
    const Outcome closed = parseOne(untilClose + "abcdef", true);
    EXPECT_EQ(closed.result, ParseResult::Complete);
    EXPECT_FALSE(closed.keepAlive);
}

TEST(ResponseParser, BodyUntilEof)
{
    const std::string text = "HTTP/1.1 200 OK\r\nServer: old\r\n\r\nbody bytes HTTP/1.1 200 OK\r\n";
    ResponseParser parser;
    size_t consumed = 0;
    EXPECT_EQ(parser.feed(text.data(), text.size(), consumed), ParseResult::NeedMore);
    EXPECT_EQ(consumed, text.size());
    EXPECT_FALSE(parser.keepAlive());
    EXPECT_EQ(parser.finishOnEof(), ParseResult::Complete);
    EXPECT_EQ(parser.statusCode(), 200);
    EXPECT_FALSE(parser.keepAlive());

    // Headers ending exactly at EOF: an empty body.
    EXPECT_EQ(parseOne("HTTP/1.0 200 OK\r\n\r\n", true).result, ParseResult::Complete);
}

TEST(ResponseParser, LfOnlyLineEndings)
{
    const std::string cl = "HTTP/1.1 200 OK\nContent-Length: 2\nX: y\n\nok";
    const std::string chunked = "HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n2\nok\n0\nTrailer: x\n\n";
    const auto outcomes = parseWhole(cl + chunked);
    ASSERT_EQ(outcomes.size(), 2u);
    EXPECT_EQ(outcomes[0].end, cl.size());
    EXPECT_EQ(outcomes[1].end, cl.size() + chunked.size());
    EXPECT_EQ(parseBytewise(cl + chunked), outcomes);
}

TEST(ResponseParser, ReasonPhraseIsOptional)
{
    for (const char* line : { "HTTP/1.1 200\r\n", "HTTP/1.1 200 \r\n", "HTTP/1.1 999 Whatever\tit is \xC3\xA9\r\n" }) {
        const Outcome o = parseOne(std::string(line) + "Content-Length: 0\r\n\r\n");
        EXPECT_EQ(o.result, ParseResult::Complete) << line;
    }
    EXPECT_EQ(parseOne("HTTP/1.1 999 X\r\nContent-Length: 0\r\n\r\n").status, 999);
    EXPECT_EQ(parseOne("HTTP/1.1 100 X\r\n\r\nHTTP/1.1 100 X\r\n\r\nHTTP/1.1 299\n\n", true).status, 299);
}

TEST(ResponseParser, StrayLineBreaksBeforeTheStatusLine)
{
    const auto outcomes = parseWhole("\r\n\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n\r\n", true);
    ASSERT_EQ(outcomes.size(), 1u) << "a close after stray CRLF is an idle close, not an error";
    EXPECT_EQ(outcomes[0].result, ParseResult::Complete);

    ResponseParser parser;
    size_t consumed = 0;
    EXPECT_EQ(parser.feed("\r\n", 2, consumed), ParseResult::NeedMore);
    EXPECT_FALSE(parser.started());
    EXPECT_EQ(parser.feed("H", 1, consumed), ParseResult::NeedMore);
    EXPECT_TRUE(parser.started());
}

TEST(ResponseParser, ObsFoldedHeaders)
{
    const Outcome o = parseOne("HTTP/1.1 200 OK\r\nX-Long: a\r\n\tb\r\n c\r\nContent-Length: 1\r\n \r\n\r\nx");
    EXPECT_EQ(o.result, ParseResult::Complete);
    expectError("HTTP/1.1 200 OK\r\n folded: first\r\n\r\n", "invalid header line");
    expectError("HTTP/1.1 200 OK\r\nContent-Length: 1\r\n 2\r\n\r\n", "invalid Content-Length");
}

TEST(ResponseParser, LargeBodySkippedInPieces)
{
    // The connection's read buffer is reused for every piece, as in a worker.
    constexpr size_t BODY_BYTES = 10 * 1000 * 1000;
    constexpr size_t PIECE_BYTES = 64 * 1024;
    const std::string headers = "HTTP/1.1 200 OK\r\nContent-Length: " + std::to_string(BODY_BYTES) + "\r\n\r\n";
    std::vector<char> buffer(PIECE_BYTES, 'b');
    std::copy(headers.begin(), headers.end(), buffer.begin());
    const size_t total = headers.size() + BODY_BYTES;

    ResponseParser parser;
    size_t fed = 0;
    ParseResult result = ParseResult::NeedMore;
    while (fed < total && result == ParseResult::NeedMore) {
        const size_t piece = std::min(PIECE_BYTES, total + 5 - fed); // 5 extra bytes: the next response
        size_t consumed = 0;
        result = parser.feed(buffer.data(), piece, consumed);
        fed += consumed;
        if (result == ParseResult::NeedMore) {
            EXPECT_EQ(consumed, piece);
        }
        buffer.assign(PIECE_BYTES, 'b');
    }
    EXPECT_EQ(result, ParseResult::Complete);
    EXPECT_EQ(fed, total);
}

TEST(ResponseParser, LargeChunk)
{
    ResponseParser parser;
    const std::string head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n989680\r\n"; // 10,000,000
    size_t consumed = 0;
    ASSERT_EQ(parser.feed(head.data(), head.size(), consumed), ParseResult::NeedMore);
    std::vector<char> buffer(64 * 1024, 'z');
    size_t body = 0;
    while (body < 10'000'000) {
        const size_t piece = std::min(buffer.size(), 10'000'000 - body);
        ASSERT_EQ(parser.feed(buffer.data(), piece, consumed), ParseResult::NeedMore);
        ASSERT_EQ(consumed, piece);
        body += piece;
    }
    EXPECT_EQ(parser.feed("\r\n0\r\n\r\nHTTP", 11, consumed), ParseResult::Complete);
    EXPECT_EQ(consumed, 7u);
}

TEST(ResponseParser, EmptyFeedAndErrorIsSticky)
{
    ResponseParser parser;
    size_t consumed = 99;
    EXPECT_EQ(parser.feed("", 0, consumed), ParseResult::NeedMore);
    EXPECT_EQ(consumed, 0u);
    EXPECT_FALSE(parser.started());

    EXPECT_EQ(parser.feed("SPDY/3 200 OK\r\n", 15, consumed), ParseResult::Error);
    EXPECT_STREQ(parser.errorReason(), "invalid status line");
    EXPECT_FALSE(parser.keepAlive());
    const std::string valid = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n";
    EXPECT_EQ(parser.feed(valid.data(), valid.size(), consumed), ParseResult::Error);
    EXPECT_EQ(parser.feed("", 0, consumed), ParseResult::Error);
    EXPECT_EQ(parser.finishOnEof(), ParseResult::Error);

    parser.reset();
    EXPECT_EQ(parser.feed(valid.data(), valid.size(), consumed), ParseResult::Complete);
    EXPECT_EQ(consumed, valid.size());
}

TEST(ResponseParser, EofBeforeAnyByte)
{
    ResponseParser parser;
    EXPECT_FALSE(parser.started());
    EXPECT_EQ(parser.finishOnEof(), ParseResult::Error);
    EXPECT_STREQ(parser.errorReason(), "connection closed");
}

TEST(ResponseParser, EofInTheMiddle)
{
    const char* reason = "connection closed before the response was complete";
    expectError("HTTP/1.1 200", reason, true);
    expectError("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n", reason, true);
    expectError("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nabcd", reason, true);
    expectError("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nabcde\r\n", reason, true);
    expectError("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nTrailer: 1\r\n", reason, true);
    expectError("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\nH", reason, true); // next response started
}

TEST(ResponseParser, InvalidStatusLines)
{
    expectError("HTTP/1.1 20 OK\r\n\r\n", "invalid status code");
    expectError("HTTP/1.1 2000 OK\r\n\r\n", "invalid status code");
    expectError("HTTP/1.1 099 Low\r\n\r\n", "invalid status code");
    expectError("HTTP/1.1 2x0 OK\r\n\r\n", "invalid status code");
    expectError("HTTP/1.1  200 OK\r\n\r\n", "invalid status code");
    expectError("HTTP/1.1\r\n\r\n", "invalid status line");
    expectError("http/1.1 200 OK\r\n\r\n", "invalid status line");
    expectError("ICY 200 OK\r\n\r\n", "invalid status line");
    expectError("HTTP/2 200\r\n\r\n", "unsupported HTTP version");
    expectError("HTTP/1.2 200 OK\r\n\r\n", "unsupported HTTP version");
    expectError("HTTP/1.1 200 O\x01K\r\n\r\n", "invalid status line");
    expectError(bytesOf("HTTP/1.1 200 O\0K\r\n\r\n"), "invalid status line");
    expectError("HTTP/1.1 200 OK\rX\n\r\n", "invalid status line");
    expectError("\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03", "invalid status line"); // a TLS hello
}

TEST(ResponseParser, InvalidHeaders)
{
    expectError("HTTP/1.1 200 OK\r\nBad Name: x\r\n\r\n", "invalid header name");
    expectError("HTTP/1.1 200 OK\r\nContent-Length : 1\r\n\r\n", "invalid header name");
    expectError(bytesOf("HTTP/1.1 200 OK\r\nX\0Y: 1\r\n\r\n"), "invalid header name");
    expectError("HTTP/1.1 200 OK\r\n: empty\r\n\r\n", "invalid header name");
    expectError("HTTP/1.1 200 OK\r\nno colon\r\n\r\n", "invalid header name");
    expectError("HTTP/1.1 200 OK\r\nnocolon\r\n\r\n", "header line without colon");
    expectError("HTTP/1.1 200 OK\r\n\rX", "invalid header line");
}

TEST(ResponseParser, InvalidContentLength)
{
    for (const char* value : { "", " ", "12a", "-1", "+1", "1 2", "0x10", "1,1", "1.0" })
        expectError(std::string("HTTP/1.1 200 OK\r\nContent-Length: ") + value + "\r\n\r\n", "invalid Content-Length");
    expectError("HTTP/1.1 200 OK\r\nContent-Length: 18446744073709551616\r\n\r\n", "Content-Length overflow");
    expectError("HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999999\r\n\r\n", "Content-Length overflow");
    expectError("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", "conflicting Content-Length");
    // The largest value still parses (and would take forever to arrive).
    EXPECT_TRUE(parseWhole("HTTP/1.1 200 OK\r\nContent-Length: 18446744073709551615\r\n\r\nabc").empty());
}

TEST(ResponseParser, InvalidChunks)
{
    const std::string head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
    expectError(head + "zz\r\n", "invalid chunk size");
    expectError(head + "\r\n", "invalid chunk size");
    expectError(head + ";ext\r\n", "invalid chunk size");
    expectError(head + "5 x\r\n", "invalid chunk size");
    expectError(head + "-5\r\n", "invalid chunk size");
    expectError(head + "5\rX", "invalid chunk size");
    expectError(head + "10000000000000000\r\n", "chunk size overflow");
    expectError(head + "3\r\nabcX\r\n", "missing CRLF after chunk data");
    expectError(head + "3\r\nabc\rX", "missing CRLF after chunk data");
    expectError(head + "1;" + std::string(70 * 1024, 'e') + "\r\n", "chunk size line too long");
    expectError(head + "0\r\nBad Trailer: x\r\n\r\n", "invalid header name");
    // Leading zeros are fine as long as the line stays short.
    EXPECT_EQ(parseOne(head + "000000000000000000000001\r\nx\r\n0\r\n\r\n").result, ParseResult::Complete);
}

TEST(ResponseParser, HeaderLimits)
{
    const std::string status = "HTTP/1.1 200 OK\r\n";
    expectError(status + "X-Big: " + std::string(70 * 1024, 'v') + "\r\n\r\n", "header line too long");
    expectError(status + "X-" + std::string(70 * 1024, 'n') + ": v\r\n\r\n", "header line too long");
    expectError("HTTP/1.1 200 " + std::string(70 * 1024, 'r') + "\r\n\r\n", "header line too long");
    std::string many = status;
    while (many.size() < 1100 * 1024)
        many += "X-Filler: " + std::string(1000, 'f') + "\r\n";
    expectError(many + "\r\n", "headers too large");
    // Endless interim responses count towards the same limit.
    std::string interim;
    while (interim.size() < 1100 * 1024)
        interim += "HTTP/1.1 100 Continue\r\n\r\n";
    expectError(interim, "headers too large");
    // Just under the line limit is fine.
    EXPECT_EQ(parseOne(status + "X-Big: " + std::string(60 * 1024, 'v') + "\r\nContent-Length: 0\r\n\r\n").result,
        ParseResult::Complete);
}

TEST(ResponseParser, GarbageIsRejected)
{
    std::mt19937 rng(42);
    for (int i = 0; i < 200; ++i) {
        std::string garbage(1 + rng() % 300, '\0');
        for (char& c : garbage)
            c = static_cast<char>(rng());
        if (garbage[0] == 'H' || garbage[0] == '\r' || garbage[0] == '\n') garbage[0] = 'G';
        const auto outcomes = parseWhole(garbage, true);
        ASSERT_EQ(outcomes.size(), 1u);
        EXPECT_EQ(outcomes[0].result, ParseResult::Error);
    }
}

namespace {

// A random valid response and what the parser must report for it.
struct Generated
{
    std::string bytes;
    int status = 0;
    int minor = 1;
    bool head = false;
    bool untilEof = false;
    bool keepAlive = true;
};

struct Generator
{
    std::mt19937 rng;

    size_t below(size_t n) { return rng() % n; }
    bool chance(size_t oneIn) { return below(oneIn) == 0; }
    std::string eol() { return chance(4) ? "\n" : "\r\n"; }
    std::string randomCase(std::string s)
    {
        for (char& c : s)
            if (chance(2)) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        return s;
    }
    std::string ows() { return std::string(below(3), chance(2) ? ' ' : '\t'); }
    std::string bytes(size_t n)
    {
        static const std::string pieces[]
            = { "\r\n", "\n", "0\r\n\r\n", "HTTP/1.1 200 OK\r\n", std::string(1, '\0'), "x" };
        std::string out;
        while (out.size() < n)
            out += chance(3) ? pieces[below(6)] : std::string(1, static_cast<char>(rng()));
        out.resize(n);
        return out;
    }
    std::string otherHeader()
    {
        static const char* names[] = { "Server", "Date", "Content-Type", "X-Request-Id", "Content-Lengthy", "Conn",
            "Transfer-Encodings", "Keep-Alive", "Vary", "C", "T" };
        std::string value;
        for (size_t n = below(40); n > 0; --n)
            value += static_cast<char>(0x20 + below(0x5f));
        std::string line = std::string(names[below(11)]) + ":" + ows() + value + eol();
        if (chance(10)) line += " folded" + eol();
        return line;
    }

    Generated response(bool allowUntilEof)
    {
        Generated g;
        g.minor = static_cast<int>(below(2));
        const std::string version = g.minor ? "HTTP/1.1 " : "HTTP/1.0 ";
        if (chance(6))
            g.bytes += version + (chance(2) ? "100 Continue" : "103 Early Hints") + eol() + otherHeader() + eol();
        static const int statuses[] = { 200, 200, 200, 201, 204, 206, 301, 304, 404, 500, 101, 999 };
        g.status = statuses[below(12)];
        g.head = chance(6);
        g.bytes += version + std::to_string(g.status) + (chance(3) ? "" : " Reason phrase") + eol();

        const bool noBody = g.head || g.status == 204 || g.status == 304 || g.status == 101;
        enum { LENGTH, CHUNKED, UNTIL_EOF } framing = LENGTH;
        const size_t choice = below(allowUntilEof ? 3 : 2);
        framing = choice == 0 ? LENGTH : choice == 1 ? CHUNKED : UNTIL_EOF;

        std::vector<std::string> lines;
        for (size_t n = below(5); n > 0; --n)
            lines.push_back(otherHeader());
        bool close = false;
        bool keepAliveToken = false;
        if (chance(3)) {
            static const char* tokens[] = { "close", "keep-alive", "upgrade", "te" };
            std::string value;
            for (size_t n = 1 + below(3); n > 0; --n) {
                const size_t t = below(4);
                close = close || t == 0;
                keepAliveToken = keepAliveToken || t == 1;
                value += (value.empty() ? "" : ",") + ows() + randomCase(tokens[t]) + ows();
            }
            lines.push_back(randomCase("connection") + ":" + value + eol());
        }
        const size_t bodyLength = chance(20) ? below(70000) : below(300);
        std::string body;
        bool transferEncoding = false;
        if (framing == LENGTH) {
            const std::string cl
                = randomCase("content-length") + ":" + ows() + std::to_string(bodyLength) + ows() + eol();
            lines.push_back(cl);
            if (chance(5)) lines.push_back(cl);
            body = bytes(bodyLength);
        } else if (framing == CHUNKED) {
            transferEncoding = true;
            lines.push_back(randomCase("transfer-encoding") + ":" + ows() + (chance(3) ? "gzip, " : "")
                + randomCase("chunked") + ows() + eol());
            if (chance(4)) lines.push_back("Content-Length: " + std::to_string(below(1000)) + eol());
            for (size_t left = bodyLength; left > 0;) {
                const size_t n = 1 + below(std::min<size_t>(left, 5000));
                char size[32];
                std::snprintf(size, sizeof size, chance(2) ? "%zx" : "%zX", n);
                body += std::string(below(2), '0') + size + (chance(4) ? ";ext=1" : "") + eol() + bytes(n) + eol();
                left -= n;
            }
            body += "0" + eol();
            for (size_t n = below(3); n > 0; --n)
                body += otherHeader();
            body += eol();
        } else if (chance(2)) {
            transferEncoding = true;
            lines.push_back("Transfer-Encoding: gzip" + eol());
        }
        std::shuffle(lines.begin(), lines.end(), rng);
        for (const auto& line : lines)
            g.bytes += line;
        g.bytes += eol();
        if (!noBody) {
            g.untilEof = framing == UNTIL_EOF;
            if (g.untilEof) body = bytes(bodyLength);
            g.bytes += body;
        }
        g.keepAlive = !g.untilEof && g.status != 101 && !(transferEncoding && g.minor == 0) && !close
            && (g.minor == 1 || keepAliveToken);
        return g;
    }
};

} // namespace

TEST(ResponseParser, RandomResponsesParseTheSameWhateverTheSplit)
{
    Generator gen { std::mt19937(20240601) };
    for (int round = 0; round < 1500; ++round) {
        std::string stream;
        std::vector<bool> heads;
        std::vector<Outcome> expected;
        const size_t count = 1 + gen.below(4);
        bool eof = false;
        for (size_t i = 0; i < count; ++i) {
            const Generated g = gen.response(i + 1 == count);
            stream += g.bytes;
            heads.push_back(g.head);
            expected.push_back({ ParseResult::Complete, stream.size(), g.status, g.minor, g.keepAlive, "" });
            eof = g.untilEof || gen.chance(4);
        }
        const auto whole = parseWhole(stream, eof, heads);
        ASSERT_EQ(whole, expected) << "round " << round << ":\n" << stream;

        for (int split = 0; split < 3; ++split) {
            std::vector<size_t> cuts;
            for (size_t n = gen.below(8); n > 0; --n)
                cuts.push_back(1 + gen.below(stream.size()));
            std::sort(cuts.begin(), cuts.end());
            cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
            if (!cuts.empty() && cuts.back() >= stream.size()) cuts.pop_back();
            ASSERT_EQ(parseStream(stream, cuts, eof, heads), expected) << "round " << round;
        }
        if (round % 10 == 0 && stream.size() < 20000) {
            ASSERT_EQ(parseBytewise(stream, eof, heads), expected) << "round " << round;
        }
    }
}
