// The parser's capture mode: what an observer of responses is handed. Fed whole,
// byte by byte and split at every point, as the parser's own tests do.

#include "http/responsecapture.h"
#include "http/responseparser.h"

#include <gtest/gtest.h>
#include <string>

using namespace wb;

namespace {

struct Parsed
{
    ResponseParser::Result result = ResponseParser::Result::NeedMore;
    int status = 0;
    std::vector<std::pair<std::string, std::string>> fields;
    std::string body;
};

// Feeds `wire` in pieces of `step` bytes (0: whole) until one response is complete.
Parsed parse(const std::string& wire, size_t step, bool wantBody)
{
    ResponseCapture capture;
    capture.wantBody = wantBody;
    ResponseParser parser;
    parser.setCapture(&capture);
    Parsed out;
    size_t offset = 0;
    while (offset < wire.size()) {
        const size_t n = step == 0 ? wire.size() - offset : std::min(step, wire.size() - offset);
        size_t used = 0;
        out.result = parser.feed(wire.data() + offset, n, used);
        offset += used;
        if (out.result != ResponseParser::Result::NeedMore) break;
    }
    out.status = parser.statusCode();
    capture.splitFields();
    for (const HeaderField& f : capture.fields)
        out.fields.emplace_back(std::string(f.name), std::string(f.value));
    out.body = capture.body;
    return out;
}

} // namespace

TEST(ResponseCapture, ChunkedBodyIsDecodedWhateverTheSplit)
{
    const std::string wire = "HTTP/1.1 200 OK\r\nServer: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                             "5\r\nhello\r\n1;ext=1\r\n \r\n6\r\nworld!\r\n0\r\nTrailer-Field: t\r\n\r\n";
    for (size_t step = 0; step <= wire.size(); ++step) {
        const Parsed p = parse(wire, step, true);
        ASSERT_EQ(p.result, ResponseParser::Result::Complete) << "step " << step;
        EXPECT_EQ(p.status, 200);
        EXPECT_EQ(p.body, "hello world!") << "step " << step;
        // Trailers are not the response's header fields.
        ASSERT_EQ(p.fields.size(), 2u) << "step " << step;
        EXPECT_EQ(p.fields[0], (std::pair<std::string, std::string>("Server", "x")));
        EXPECT_EQ(p.fields[1], (std::pair<std::string, std::string>("Transfer-Encoding", "chunked")));
    }
}

TEST(ResponseCapture, ContentLengthBodySplitAtEveryPoint)
{
    const std::string body(3000, 'b');
    const std::string wire = "HTTP/1.1 201 Created\r\nContent-Length: 3000\r\nX-Backend:  node-7 \r\n\r\n" + body;
    for (size_t step : { size_t { 0 }, size_t { 1 }, size_t { 7 }, size_t { 100 }, size_t { 2999 } }) {
        const Parsed p = parse(wire, step, true);
        ASSERT_EQ(p.result, ResponseParser::Result::Complete);
        EXPECT_EQ(p.status, 201);
        EXPECT_EQ(p.body, body);
        ASSERT_EQ(p.fields.size(), 2u);
        EXPECT_EQ(p.fields[1].first, "X-Backend");
        EXPECT_EQ(p.fields[1].second, "node-7"); // blanks around a value are not part of it
    }
}

TEST(ResponseCapture, HeadersOnlyWhenTheBodyIsNotWanted)
{
    const Parsed p = parse("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", 1, false);
    ASSERT_EQ(p.result, ResponseParser::Result::Complete);
    EXPECT_TRUE(p.body.empty());
    ASSERT_EQ(p.fields.size(), 1u);
}

TEST(ResponseCapture, InterimResponseFieldsAreForgotten)
{
    const std::string wire = "HTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\n"
                             "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nLink: </b.css>\r\n\r\nok";
    for (size_t step = 0; step <= wire.size(); ++step) {
        const Parsed p = parse(wire, step, true);
        ASSERT_EQ(p.result, ResponseParser::Result::Complete);
        ASSERT_EQ(p.fields.size(), 2u) << "step " << step;
        EXPECT_EQ(p.fields[1].second, "</b.css>");
        EXPECT_EQ(p.body, "ok");
    }
}

TEST(ResponseCapture, FoldedValueAndBodyUntilClose)
{
    ResponseCapture capture;
    capture.wantBody = true;
    ResponseParser parser;
    parser.setCapture(&capture);
    const std::string wire = "HTTP/1.0 200 OK\nX-Long: a\n  b\n\nuntil the close";
    size_t used = 0;
    EXPECT_EQ(parser.feed(wire.data(), wire.size(), used), ResponseParser::Result::NeedMore);
    EXPECT_EQ(parser.finishOnEof(), ResponseParser::Result::Complete);
    EXPECT_EQ(capture.body, "until the close");
    capture.splitFields();
    ASSERT_EQ(capture.fields.size(), 1u);
    EXPECT_EQ(capture.fields[0].name, "X-Long");
    EXPECT_EQ(capture.fields[0].value, "a\n  b");
}

TEST(ResponseCapture, ResetKeepsTheCaptureAndNoneKeepsNothing)
{
    ResponseCapture capture;
    capture.wantBody = true;
    ResponseParser parser;
    parser.setCapture(&capture);
    parser.reset(true); // HEAD: no body, the capture stays set
    const std::string wire = "HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\n";
    size_t used = 0;
    EXPECT_EQ(parser.feed(wire.data(), wire.size(), used), ResponseParser::Result::Complete);
    EXPECT_EQ(capture.head, wire);
    EXPECT_TRUE(capture.body.empty());

    ResponseParser plain; // without a capture: the same answers, nothing kept anywhere
    EXPECT_EQ(plain.capture(), nullptr);
    const std::string full = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";
    EXPECT_EQ(plain.feed(full.data(), full.size(), used), ResponseParser::Result::Complete);
    EXPECT_EQ(used, full.size());
}
