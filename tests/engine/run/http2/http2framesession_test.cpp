// The HTTP/2 framing layer (engine/run/http2/http2framesession.h) fed server frames
// without a socket: the cases the run tests against nginx and the raw servers
// do not reach (CONTINUATION, padding, 1xx, trailers, flow control of a
// request body, GOAWAY and refused streams, malformed responses). Response
// header blocks are encoded by libnghttp2's HPACK deflater, the requests'
// blocks are read back by its inflater.

#include "http/hpackblock.h"
#include "run/http2/http2framesession.h"

#include <gtest/gtest.h>
#include <nghttp2/nghttp2.h>
#include <string>
#include <vector>

using namespace wb;

namespace {

constexpr std::string_view PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

std::string be32(uint32_t v)
{
    return { static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8), static_cast<char>(v) };
}

std::string frame(uint8_t type, uint8_t flags, uint32_t stream, std::string_view payload)
{
    std::string f { static_cast<char>(payload.size() >> 16), static_cast<char>(payload.size() >> 8),
        static_cast<char>(payload.size()), static_cast<char>(type), static_cast<char>(flags) };
    f += be32(stream);
    f += payload;
    return f;
}

std::string setting(uint16_t id, uint32_t value)
{
    return std::string { static_cast<char>(id >> 8), static_cast<char>(id) } + be32(value);
}

/// A server's HPACK encoder: libnghttp2's deflater, with the table of 0 bytes wrkbench announces.
/// Every block starts with the table size update to 0 (allowed at any block's start), so that
/// the blocks may go on the wire in any order.
class ServerHpack
{
public:
    ServerHpack()
    {
        nghttp2_hd_deflate_new(&m_deflater, 0);
        block({}); // the deflater's own size update goes into a block not sent
    }
    ~ServerHpack() { nghttp2_hd_deflate_del(m_deflater); }
    std::string block(const std::vector<std::pair<std::string, std::string>>& fields)
    {
        std::vector<nghttp2_nv> nva;
        for (const auto& [n, v] : fields)
            nva.push_back({ reinterpret_cast<uint8_t*>(const_cast<char*>(n.data())),
                reinterpret_cast<uint8_t*>(const_cast<char*>(v.data())), n.size(), v.size(), NGHTTP2_NV_FLAG_NONE });
        std::string out(nghttp2_hd_deflate_bound(m_deflater, nva.data(), nva.size()), '\0');
        const ssize_t n = nghttp2_hd_deflate_hd(
            m_deflater, reinterpret_cast<uint8_t*>(out.data()), out.size(), nva.data(), nva.size());
        out.resize(n > 0 ? static_cast<size_t>(n) : 0);
        return "\x20" + out;
    }

private:
    nghttp2_hd_deflater* m_deflater = nullptr;
};

/// The fields of one block decoded by a server's inflater (its table carried from block to block);
/// a last field "error" when the block does not decode.
std::vector<std::pair<std::string, std::string>> inflateWith(nghttp2_hd_inflater* inflater, std::string_view block)
{
    std::vector<std::pair<std::string, std::string>> out;
    auto in = reinterpret_cast<const uint8_t*>(block.data());
    size_t left = block.size();
    for (;;) {
        nghttp2_nv nv;
        int flags = 0;
        const ssize_t used = nghttp2_hd_inflate_hd2(inflater, &nv, &flags, in, left, 1);
        if (used < 0) {
            out.push_back({ "error", "" });
            break;
        }
        in += used;
        left -= static_cast<size_t>(used);
        if (flags & NGHTTP2_HD_INFLATE_EMIT)
            out.push_back({ std::string(reinterpret_cast<char*>(nv.name), nv.namelen),
                std::string(reinterpret_cast<char*>(nv.value), nv.valuelen) });
        if (flags & NGHTTP2_HD_INFLATE_FINAL) {
            nghttp2_hd_inflate_end_headers(inflater);
            break;
        }
        if (!(flags & NGHTTP2_HD_INFLATE_EMIT) && left == 0) break;
    }
    return out;
}

std::vector<std::pair<std::string, std::string>> inflate(std::string_view block)
{
    nghttp2_hd_inflater* inflater = nullptr;
    nghttp2_hd_inflate_new(&inflater);
    auto out = inflateWith(inflater, block);
    nghttp2_hd_inflate_del(inflater);
    return out;
}

struct Frame
{
    uint8_t type = 0;
    uint8_t flags = 0;
    uint32_t stream = 0;
    std::string payload;
};

/// The frames a session wrote (after the connection preface, which is checked and skipped).
std::vector<Frame> framesOf(std::string bytes)
{
    if (bytes.starts_with(PREFACE)) bytes.erase(0, PREFACE.size());
    std::vector<Frame> out;
    size_t at = 0;
    while (bytes.size() - at >= 9) {
        auto b = reinterpret_cast<const uint8_t*>(bytes.data() + at);
        const uint32_t length = (b[0] << 16) | (b[1] << 8) | b[2];
        Frame f { b[3], b[4], ((uint32_t { b[5] } << 24) | (b[6] << 16) | (b[7] << 8) | b[8]) & 0x7FFFFFFF,
            bytes.substr(at + 9, length) };
        out.push_back(f);
        at += 9 + length;
    }
    EXPECT_EQ(at, bytes.size()) << "a frame cut short";
    return out;
}

class Collect final : public CompletionHandler
{
public:
    bool onCompletion(const Completion& c) override
    {
        done.push_back(c);
        return true;
    }
    std::vector<Completion> done;
};

/// One session on a run's configuration, its output drained into `written`.
struct Fixture
{
    explicit Fixture(uint32_t streams = 4, std::string body = {}, RequestSpec request = {})
    {
        config.request = request;
        config.request.url = *parseUrl("http://127.0.0.1:8080/path");
        config.request.body = std::move(body);
        config.httpVersion = HttpVersion::Http2;
        config.streams = streams;
        pool = std::make_unique<Http2FrameSessionPool>(config, config.requests(), nullptr, 1);
        session().onConnected();
    }
    Http2FrameSession& session() { return (*pool)[0]; }
    std::vector<Frame> drain()
    {
        std::string bytes;
        for (std::span<const char> out = session().pendingOutput(); !out.empty(); out = session().onWritten(out.size()))
            bytes.append(out.data(), out.size());
        return framesOf(bytes);
    }
    SessionResult read(std::string_view bytes, size_t piece = SIZE_MAX)
    {
        SessionResult r = SessionResult::Ok;
        for (size_t at = 0; at < bytes.size(); at += piece) {
            r = session().onRead(bytes.data() + at, std::min(piece, bytes.size() - at), handler);
            if (r != SessionResult::Ok && r != SessionResult::OkWithOutput) break;
        }
        return r;
    }
    /// The server's SETTINGS and its acknowledgement of ours.
    std::string hello(std::string settings = {})
    {
        return frame(NGHTTP2_SETTINGS, 0, 0, settings) + frame(NGHTTP2_SETTINGS, NGHTTP2_FLAG_ACK, 0, "");
    }
    std::string ok(uint32_t stream, std::string_view body = "hi")
    {
        return frame(NGHTTP2_HEADERS, NGHTTP2_FLAG_END_HEADERS, stream,
                   hpack.block({ { ":status", "200" }, { "content-length", std::to_string(body.size()) } }))
            + frame(NGHTTP2_DATA, NGHTTP2_FLAG_END_STREAM, stream, body);
    }

    RunConfig config;
    std::unique_ptr<Http2FrameSessionPool> pool;
    Collect handler;
    ServerHpack hpack;
};

bool hasFrame(const std::vector<Frame>& frames, uint8_t type, uint32_t stream, uint32_t code = UINT32_MAX)
{
    for (const Frame& f : frames)
        if (f.type == type && f.stream == stream
            && (code == UINT32_MAX || f.payload.substr(f.payload.size() - 4) == be32(code)))
            return true;
    return false;
}

} // namespace

TEST(HpackBlock, StaticTableAndLiteralsDecodeToTheFieldsGiven)
{
    const std::vector<Header> fields = { { ":method", "GET" }, { ":scheme", "https" }, { ":authority", "example.com" },
        { ":path", "/index.html" }, { ":path", "/other" }, { "user-agent", "wrkbench" },
        { "x-long", std::string(300, 'v') }, { std::string(140, 'n'), "" } };
    const std::string block = encodeStaticHpackBlock(fields);
    EXPECT_EQ(static_cast<uint8_t>(block[0]), 0x82); // :method GET, static index 2
    const auto decoded = inflate(block);
    ASSERT_EQ(decoded.size(), fields.size());
    for (size_t i = 0; i < fields.size(); ++i) {
        EXPECT_EQ(decoded[i].first, fields[i].name);
        EXPECT_EQ(decoded[i].second, fields[i].value);
    }
    // Nothing enters a dynamic table: the block decodes the same in a second context that saw it before.
    EXPECT_EQ(inflate(block + block).size(), 2 * fields.size());
}

TEST(Http2FrameSession, PrefaceSettingsAndARequestWithItsBlock)
{
    Fixture f;
    f.session().submit(1, 1, 0);
    const auto frames = f.drain();
    ASSERT_GE(frames.size(), 2u);
    EXPECT_EQ(frames[0].type, NGHTTP2_SETTINGS);
    EXPECT_EQ(frames[0].payload, setting(2, 0) + setting(4, (1u << f.config.windowBits) - 1) + setting(1, 0));
    const Frame& headers = frames.back();
    EXPECT_EQ(headers.type, NGHTTP2_HEADERS);
    EXPECT_EQ(headers.stream, 1u);
    EXPECT_EQ(headers.flags, NGHTTP2_FLAG_END_HEADERS | NGHTTP2_FLAG_END_STREAM);
    const auto fields = inflate(headers.payload);
    ASSERT_GE(fields.size(), 4u);
    EXPECT_EQ(fields[0], (std::pair<std::string, std::string> { ":method", "GET" }));
    EXPECT_EQ(fields[3], (std::pair<std::string, std::string> { ":path", "/path" }));
}

TEST(Http2FrameSession, ResponsesCompleteTheSameWhateverTheReadsCutThem)
{
    for (size_t piece : { size_t { 1 }, size_t { 7 }, size_t { 9 }, size_t { 64 }, SIZE_MAX }) {
        Fixture f;
        for (int i = 0; i < 3; ++i)
            f.session().submit(1, 1, 0);
        f.drain();
        // Out of order, with a PING between them.
        const std::string in
            = f.hello(setting(3, 100)) + f.ok(3) + frame(NGHTTP2_PING, 0, 0, "12345678") + f.ok(1) + f.ok(5, "");
        const SessionResult r = f.read(in, piece);
        EXPECT_TRUE(r == SessionResult::Ok || r == SessionResult::OkWithOutput) << piece;
        ASSERT_EQ(f.handler.done.size(), 3u) << piece;
        for (const Completion& c : f.handler.done) {
            EXPECT_EQ(c.status, 200);
            EXPECT_FALSE(c.reset);
            EXPECT_GT(c.firstByteUs, 0u);
        }
        EXPECT_EQ(f.session().inFlight(), 0u);
        const auto out = f.drain();
        EXPECT_TRUE(hasFrame(out, NGHTTP2_SETTINGS, 0)); // the acknowledgement
        bool pong = false;
        for (const Frame& fr : out)
            pong |= fr.type == NGHTTP2_PING && fr.flags == NGHTTP2_FLAG_ACK && fr.payload == "12345678";
        EXPECT_TRUE(pong) << piece;
    }
}

TEST(Http2FrameSession, ContinuationPaddingPriorityInformationalAndTrailers)
{
    Fixture f;
    f.session().submit(1, 1, 0);
    f.drain();
    const std::string block = f.hpack.block({ { ":status", "200" }, { "server", "test" }, { "content-length", "2" } });
    const std::string early = f.hpack.block({ { ":status", "103" }, { "link", "</a>; rel=preload" } });
    // 103 first; then the final block in a padded HEADERS with priority and a CONTINUATION;
    // a padded DATA; a trailer block ending the stream.
    std::string padded;
    padded += static_cast<char>(3); // pad length
    padded += std::string(5, '\0'); // priority
    padded += block.substr(0, 2);
    padded += std::string(3, '\0');
    std::string data;
    data += static_cast<char>(4);
    data += "ok";
    data += std::string(4, '\0');
    const std::string in = f.hello() + frame(NGHTTP2_HEADERS, NGHTTP2_FLAG_END_HEADERS, 1, early)
        + frame(NGHTTP2_HEADERS, NGHTTP2_FLAG_PADDED | NGHTTP2_FLAG_PRIORITY, 1, padded)
        + frame(NGHTTP2_CONTINUATION, NGHTTP2_FLAG_END_HEADERS, 1, block.substr(2))
        + frame(NGHTTP2_DATA, NGHTTP2_FLAG_PADDED, 1, data)
        + frame(NGHTTP2_HEADERS, NGHTTP2_FLAG_END_HEADERS | NGHTTP2_FLAG_END_STREAM, 1,
            f.hpack.block({ { "grpc-status", "0" } }));
    EXPECT_NE(f.read(in), SessionResult::ProtocolError);
    ASSERT_EQ(f.handler.done.size(), 1u);
    EXPECT_EQ(f.handler.done[0].status, 200);
    EXPECT_FALSE(f.handler.done[0].reset);
}

TEST(Http2FrameSession, AMalformedResponseResetsItsStreamAndKeepsTheConnection)
{
    Fixture f;
    for (int i = 0; i < 3; ++i)
        f.session().submit(1, 1, 0);
    f.drain();
    const std::string in = f.hello()
        // A body shorter than its content-length.
        + frame(NGHTTP2_HEADERS, NGHTTP2_FLAG_END_HEADERS, 1,
            f.hpack.block({ { ":status", "200" }, { "content-length", "10" } }))
        + frame(NGHTTP2_DATA, NGHTTP2_FLAG_END_STREAM, 1, "short")
        // An upper-case field name.
        + frame(NGHTTP2_HEADERS, NGHTTP2_FLAG_END_HEADERS | NGHTTP2_FLAG_END_STREAM, 3,
            f.hpack.block({ { ":status", "200" }, { "X-Upper", "1" } }))
        + f.ok(5);
    EXPECT_NE(f.read(in), SessionResult::ProtocolError);
    ASSERT_EQ(f.handler.done.size(), 3u);
    EXPECT_TRUE(f.handler.done[0].reset);
    EXPECT_TRUE(f.handler.done[1].reset);
    EXPECT_EQ(f.handler.done[2].status, 200);
    const auto out = f.drain();
    EXPECT_TRUE(hasFrame(out, NGHTTP2_RST_STREAM, 1, NGHTTP2_PROTOCOL_ERROR));
    EXPECT_TRUE(hasFrame(out, NGHTTP2_RST_STREAM, 3, NGHTTP2_PROTOCOL_ERROR));
}

TEST(Http2FrameSession, ARequestBodyWaitsForTheServersWindow)
{
    const std::string body(100'000, 'b');
    RequestSpec post;
    post.method = "POST";
    Fixture f(1, body, post);
    f.session().submit(1, 1, 0);
    auto sent = [](const std::vector<Frame>& frames, bool* ended) {
        size_t n = 0;
        for (const Frame& fr : frames)
            if (fr.type == NGHTTP2_DATA) {
                n += fr.payload.size();
                *ended |= (fr.flags & NGHTTP2_FLAG_END_STREAM) != 0;
            }
        return n;
    };
    bool ended = false;
    EXPECT_EQ(sent(f.drain(), &ended), 65'535u); // the default windows
    EXPECT_FALSE(ended);
    // The stream's window opens first: still held by the connection's.
    f.read(f.hello() + frame(NGHTTP2_WINDOW_UPDATE, 0, 1, be32(50'000)));
    EXPECT_EQ(sent(f.drain(), &ended), 0u);
    f.read(frame(NGHTTP2_WINDOW_UPDATE, 0, 0, be32(50'000)));
    EXPECT_EQ(sent(f.drain(), &ended), 100'000u - 65'535u);
    EXPECT_TRUE(ended);
    f.read(f.ok(1));
    ASSERT_EQ(f.handler.done.size(), 1u);
    EXPECT_EQ(f.handler.done[0].status, 200);
}

TEST(Http2FrameSession, GoawayAndRefusedStreamsAreSentAgainWithTheirDueTimes)
{
    Fixture f(4);
    for (uint64_t due = 10; due < 14; ++due)
        f.session().submit(due, due, 0);
    f.drain();
    // Stream 3 refused on a kept connection: sent again at once, as stream 9.
    f.read(f.hello() + frame(NGHTTP2_RST_STREAM, 0, 3, be32(NGHTTP2_REFUSED_STREAM)));
    EXPECT_TRUE(f.handler.done.empty());
    EXPECT_EQ(f.session().inFlight(), 4u);
    EXPECT_TRUE(hasFrame(f.drain(), NGHTTP2_HEADERS, 9));
    // GOAWAY: stream 1 and 5 processed, 7 and 9 not.
    const SessionResult r = f.read(frame(NGHTTP2_GOAWAY, 0, 0, be32(5) + be32(0)) + f.ok(1) + f.ok(5));
    EXPECT_EQ(r, SessionResult::Finished);
    EXPECT_EQ(f.handler.done.size(), 2u);
    EXPECT_EQ(f.session().inFlight(), 2u);
    EXPECT_EQ(f.session().capacity(), 0u);
    std::vector<uint64_t> dues;
    f.session().forEachInFlight([&](const InFlightRequest& request) { dues.push_back(request.dueUs); });
    std::sort(dues.begin(), dues.end());
    EXPECT_EQ(dues, (std::vector<uint64_t> { 11, 13 }));
    // A new connection sends them first, from stream 1 again.
    f.session().onConnected();
    const auto out = f.drain();
    EXPECT_TRUE(hasFrame(out, NGHTTP2_HEADERS, 1));
    EXPECT_TRUE(hasFrame(out, NGHTTP2_HEADERS, 3));
    EXPECT_EQ(f.session().inFlight(), 2u);
}

TEST(Http2FrameSession, ATimedOutStreamIsResetAndWhatFollowsForItDropped)
{
    Fixture f(2);
    f.session().submit(1, 1, 0);
    f.session().submit(1, 1'000'000, 0);
    f.drain();
    const Expiry e = f.session().expire(500'000, 100'000);
    EXPECT_EQ(e.timedOut, 1u);
    EXPECT_FALSE(e.closeConnection);
    EXPECT_TRUE(hasFrame(f.drain(), NGHTTP2_RST_STREAM, 1, NGHTTP2_CANCEL));
    EXPECT_EQ(f.session().capacity(), 1u);
    // Its late answer still passes through the HPACK context; the other stream completes.
    f.read(f.hello() + f.ok(1) + f.ok(3));
    ASSERT_EQ(f.handler.done.size(), 1u);
    EXPECT_EQ(f.handler.done[0].request.sentUs, 1'000'000u);
}

TEST(Http2FrameSession, TheServersLimitAndFrameSizeAreHonoured)
{
    RequestSpec big;
    big.headers = { { "x-big", std::string(40'000, 'x') } };
    Fixture f(8, {}, big);
    f.drain();
    f.read(f.hello(setting(3, 2) + setting(5, 20'000)));
    EXPECT_EQ(f.session().capacity(), 2u);
    EXPECT_EQ(f.session().serverLimit(), 2u);
    f.session().submit(1, 1, 0);
    const auto out = f.drain();
    // 40 KB of header block in frames of at most 20,000 bytes: HEADERS and two CONTINUATIONs.
    std::string block;
    std::vector<uint8_t> types;
    for (const Frame& fr : out)
        if (fr.stream == 1) {
            EXPECT_LE(fr.payload.size(), 20'000u);
            types.push_back(fr.type);
            block += fr.payload;
        }
    EXPECT_EQ(types, (std::vector<uint8_t> { NGHTTP2_HEADERS, NGHTTP2_CONTINUATION, NGHTTP2_CONTINUATION }));
    EXPECT_EQ(inflate(block).back().second, std::string(40'000, 'x'));
}

TEST(Http2FrameSession, ProtocolBreachesEndTheConnectionWithGoaway)
{
    const std::vector<std::pair<const char*, std::string>> breaches = {
        { "push promise", frame(NGHTTP2_PUSH_PROMISE, NGHTTP2_FLAG_END_HEADERS, 1, be32(2)) },
        { "window update of 0", frame(NGHTTP2_WINDOW_UPDATE, 0, 0, be32(0)) },
        { "headers on a stream never opened", frame(NGHTTP2_HEADERS, NGHTTP2_FLAG_END_HEADERS, 7, "\x88") },
        { "data without continuation", frame(NGHTTP2_HEADERS, 0, 1, "\x88") + frame(NGHTTP2_DATA, 0, 1, "x") },
        { "settings of 5 bytes", frame(NGHTTP2_SETTINGS, 0, 0, "12345") },
        { "a frame above 16384 bytes", frame(NGHTTP2_DATA, 0, 1, std::string(16'385, 'x')) },
        { "not HPACK", frame(NGHTTP2_HEADERS, NGHTTP2_FLAG_END_HEADERS, 1, "\xff\xff\xff\xff\xff\xff") },
    };
    for (const auto& [what, bytes] : breaches) {
        Fixture f;
        f.session().submit(1, 1, 0);
        f.drain();
        EXPECT_EQ(f.read(frame(NGHTTP2_SETTINGS, 0, 0, "") + bytes), SessionResult::ProtocolError) << what;
        EXPECT_EQ(f.session().capacity(), 0u) << what;
    }
}

TEST(Http2FrameSession, ASettingsFloodIsRefused)
{
    Fixture f;
    std::string flood;
    for (int i = 0; i < 2000; ++i)
        flood += frame(NGHTTP2_SETTINGS, 0, 0, "");
    EXPECT_EQ(f.read(flood), SessionResult::ProtocolError);
}

TEST(HpackBlock, TheIndexedPairAddsOnceThenNamesByIndex)
{
    const std::vector<Header> fields = { { ":method", "GET" }, { ":scheme", "http" },
        { ":authority", "127.0.0.1:8080" }, { ":path", "/a" }, { "x-one", "1" }, { "accept", "*/*" } };
    const HpackIndexedBlocks blocks = encodeIndexedHpackBlocks(fields);
    EXPECT_EQ(blocks.tableBytes, (10 + 14 + 32) + (5 + 2 + 32) + (5 + 1 + 32) + (6 + 3 + 32));
    EXPECT_EQ(blocks.repeat.size(), fields.size()); // one byte a field
    // One decoder, as the server's, fed in wire order: the repeats decode to the same fields.
    const auto decoded = inflate(blocks.first + blocks.repeat + blocks.repeat);
    ASSERT_EQ(decoded.size(), 3 * fields.size());
    for (size_t i = 0; i < decoded.size(); ++i) {
        EXPECT_EQ(decoded[i].first, fields[i % fields.size()].name) << i;
        EXPECT_EQ(decoded[i].second, fields[i % fields.size()].value) << i;
    }
    // Without the first block the repeat names entries that do not exist.
    EXPECT_EQ(inflate(blocks.repeat).back().first, "error");
}

TEST(Http2FrameSession, OneRequestUsesTheTableUntilTheServerShrinksIt)
{
    Fixture f(4);
    f.session().submit(1, 1, 0);
    f.session().submit(1, 1, 0);
    auto blocksOf = [](const std::vector<Frame>& frames) {
        std::vector<std::string> out;
        for (const Frame& fr : frames)
            if (fr.type == NGHTTP2_HEADERS) out.push_back(fr.payload);
        return out;
    };
    const auto before = blocksOf(f.drain());
    ASSERT_EQ(before.size(), 2u);
    const HpackIndexedBlocks pair = encodeIndexedHpackBlocks(buildHttp2Fields(f.config.request).fields);
    EXPECT_EQ(before[0], pair.first);
    EXPECT_EQ(before[1], pair.repeat);
    // The server allows no table: the next block says so and is the static one.
    f.read(frame(NGHTTP2_SETTINGS, 0, 0, setting(1, 0)));
    f.session().submit(1, 1, 0);
    f.session().submit(1, 1, 0);
    const auto after = blocksOf(f.drain());
    ASSERT_EQ(after.size(), 2u);
    const std::string staticBlock = encodeStaticHpackBlock(buildHttp2Fields(f.config.request).fields);
    EXPECT_EQ(after[0], "\x20" + staticBlock);
    EXPECT_EQ(after[1], staticBlock);
    // What the server's decoder makes of the four, its table shrunk when our ACK arrived.
    nghttp2_hd_inflater* server = nullptr;
    nghttp2_hd_inflate_new(&server);
    size_t fields = 0;
    for (size_t i = 0; i < 4; ++i) {
        if (i == 2) {
            ASSERT_EQ(nghttp2_hd_inflate_change_table_size(server, 0), 0);
        }
        const auto decoded = inflateWith(server, i < 2 ? before[i] : after[i - 2]);
        ASSERT_FALSE(decoded.empty());
        ASSERT_NE(decoded.back().first, "error") << "block " << i;
        fields += decoded.size();
    }
    nghttp2_hd_inflate_del(server);
    EXPECT_EQ(fields, 4 * buildHttp2Fields(f.config.request).fields.size());
}

TEST(Http2FrameSession, AMixSendsTheStaticBlocks)
{
    RunConfig config;
    config.request.url = *parseUrl("http://127.0.0.1:8080/one");
    config.httpVersion = HttpVersion::Http2;
    config.streams = 2;
    RequestSpec second = config.request;
    second.url = *parseUrl("http://127.0.0.1:8080/two");
    const std::vector<RequestSpec> table = { config.request, second };
    Http2FrameSessionPool pool(config, table, nullptr, 1);
    pool[0].onConnected();
    pool[0].submit(1, 1, 1);
    std::string bytes;
    for (std::span<const char> out = pool[0].pendingOutput(); !out.empty(); out = pool[0].onWritten(out.size()))
        bytes.append(out.data(), out.size());
    const auto frames = framesOf(bytes);
    ASSERT_EQ(frames.back().type, NGHTTP2_HEADERS);
    EXPECT_EQ(frames.back().payload, encodeStaticHpackBlock(buildHttp2Fields(second).fields));
}
