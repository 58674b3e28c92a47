// Http2SessionMemory: client sessions of one worker share nghttp2's outbound
// frame buffer. What they write, interleaved frame by frame across sessions,
// must be byte for byte what sessions with nghttp2's own allocator write;
// ASan checks that the shared buffer is never freed or used after a session ends.

#include "run/http2/http2memory.h"

#include <gtest/gtest.h>
#include <memory>
#include <string>
#include <vector>

using namespace wb;

namespace {

struct Callbacks
{
    Callbacks() { nghttp2_session_callbacks_new(&callbacks); }
    ~Callbacks() { nghttp2_session_callbacks_del(callbacks); }
    nghttp2_session_callbacks* callbacks = nullptr;
};

nghttp2_nv field(const std::string& name, const std::string& value)
{
    return { reinterpret_cast<uint8_t*>(const_cast<char*>(name.data())),
        reinterpret_cast<uint8_t*>(const_cast<char*>(value.data())), name.size(), value.size(), NGHTTP2_NV_FLAG_NONE };
}

// A session with `requests` GETs queued, one of them carrying a header of `bigHeaderBytes`
// (more than 16 KB makes a HEADERS frame continue in CONTINUATION frames).
void queueRequests(nghttp2_session* session, int requests, size_t bigHeaderBytes)
{
    const nghttp2_settings_entry settings[] = { { NGHTTP2_SETTINGS_ENABLE_PUSH, 0 } };
    ASSERT_EQ(nghttp2_submit_settings(session, NGHTTP2_FLAG_NONE, settings, 1), 0);
    const std::string method = ":method", get = "GET", path = ":path", scheme = ":scheme", http = "http",
                      authority = ":authority", host = "127.0.0.1:8080", big = "x-big";
    for (int i = 0; i < requests; ++i) {
        const std::string target = "/r" + std::to_string(i);
        const std::string bigValue(i == 1 ? bigHeaderBytes : 1, static_cast<char>('a' + i % 26));
        const nghttp2_nv nv[] = { field(method, get), field(path, target), field(scheme, http), field(authority, host),
            field(big, bigValue) };
        ASSERT_GT(nghttp2_submit_request(session, nullptr, nv, std::size(nv), nullptr, nullptr), 0);
    }
}

// One frame (one nghttp2_session_mem_send result) of `session`, copied; empty when it has no more.
std::string nextFrame(nghttp2_session* session)
{
    const uint8_t* data = nullptr;
    const ssize_t n = nghttp2_session_mem_send(session, &data);
    EXPECT_GE(n, 0);
    return n > 0 ? std::string(reinterpret_cast<const char*>(data), static_cast<size_t>(n)) : std::string();
}

std::string allOutput(nghttp2_session* session)
{
    std::string out;
    for (std::string frame = nextFrame(session); !frame.empty(); frame = nextFrame(session))
        out += frame;
    return out;
}

class Http2MemoryTest : public ::testing::TestWithParam<size_t>
{ };

TEST_P(Http2MemoryTest, InterleavedSessionsWriteWhatOwnBuffersWrite)
{
    const size_t bigHeaderBytes = GetParam();
    constexpr int SESSIONS = 3;
    constexpr int REQUESTS = 4;
    Callbacks callbacks;

    // What each session writes with nghttp2's default allocator, one after the other.
    std::vector<std::string> expected;
    for (int s = 0; s < SESSIONS; ++s) {
        nghttp2_session* session = nullptr;
        ASSERT_EQ(nghttp2_session_client_new(&session, callbacks.callbacks, nullptr), 0);
        queueRequests(session, REQUESTS + s, bigHeaderBytes);
        expected.push_back(allOutput(session));
        nghttp2_session_del(session);
    }

    // The same sessions sharing one frame buffer, asked for one frame each in turn.
    Http2SessionMemory memory;
    std::vector<nghttp2_session*> sessions(SESSIONS, nullptr);
    for (int s = 0; s < SESSIONS; ++s) {
        ASSERT_EQ(memory.newClientSession(&sessions[s], callbacks.callbacks, nullptr, nullptr), 0);
        queueRequests(sessions[s], REQUESTS + s, bigHeaderBytes);
    }
    EXPECT_EQ(memory.sharedFrameBuffers(), static_cast<uint64_t>(SESSIONS));
    std::vector<std::string> written(SESSIONS);
    for (bool more = true; more;) {
        more = false;
        for (int s = 0; s < SESSIONS; ++s) {
            const std::string frame = nextFrame(sessions[s]);
            written[s] += frame;
            more = more || !frame.empty();
        }
    }
    for (int s = 0; s < SESSIONS; ++s) {
        EXPECT_EQ(written[s].size(), expected[s].size()) << "session " << s;
        EXPECT_TRUE(written[s] == expected[s]) << "session " << s << " wrote other bytes";
    }
    // Sessions end in any order; the buffer outlives them all.
    nghttp2_session_del(sessions[1]);
    nghttp2_session_del(sessions[0]);
    nghttp2_session_del(sessions[2]);
}

// Small headers (every frame fits the shared buffer) and a 40 KB header (a HEADERS
// frame continued in CONTINUATION frames, which live in buffers of the session's own).
INSTANTIATE_TEST_SUITE_P(HeaderSizes, Http2MemoryTest, ::testing::Values(size_t { 16 }, size_t { 40000 }));

TEST(Http2Memory, SessionsCreatedAfterOthersEndedShareTheSameBuffer)
{
    Callbacks callbacks;
    Http2SessionMemory memory;
    for (int i = 0; i < 5; ++i) {
        nghttp2_session* session = nullptr;
        ASSERT_EQ(memory.newClientSession(&session, callbacks.callbacks, nullptr, nullptr), 0);
        queueRequests(session, 2, 16);
        EXPECT_FALSE(allOutput(session).empty());
        nghttp2_session_del(session);
    }
    EXPECT_EQ(memory.sharedFrameBuffers(), 5u);
}

} // namespace
