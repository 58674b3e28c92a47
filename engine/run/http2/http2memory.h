#pragma once
// The allocator of one worker's libnghttp2 client sessions (http2session.h): they share one outbound frame buffer.
// libnghttp2 serialises each outgoing frame into a 16 KB buffer of the session's, and Http2Session copies it out at
// once; the buffer is never read again after nghttp2_session_mem_send() (a larger header block continues in buffers of
// the session's own), and a worker's sessions never run at the same time, so one buffer serves them all (what that
// saves: docs/PERFORMANCE.md, "10,000 HTTP/2 connections"). It is recognised as the first allocation of 16 KB or more
// while a session is created; an nghttp2 that allocates otherwise just keeps one buffer per session.

#include <cstddef>
#include <cstdint>
#include <nghttp2/nghttp2.h>

namespace wb {

class Http2SessionMemory
{
public:
    Http2SessionMemory();
    ~Http2SessionMemory();
    Http2SessionMemory(const Http2SessionMemory&) = delete;
    Http2SessionMemory& operator=(const Http2SessionMemory&) = delete;

    /// nghttp2_session_client_new3 with this allocator. Returns nghttp2's error code (0 = created).
    int newClientSession(nghttp2_session** session, const nghttp2_session_callbacks* callbacks, void* userData,
        const nghttp2_option* options);

    /// Sessions created so far whose frame buffer is the shared one (tests read it).
    uint64_t sharedFrameBuffers() const { return m_shared; }

private:
    static void* allocate(size_t size, void* self);
    static void release(void* ptr, void* self);
    static void* allocateZeroed(size_t count, size_t size, void* self);
    static void* reallocate(void* ptr, size_t size, void* self);
    /// The shared buffer, when a session being created asks for its frame buffer; else nullptr.
    void* claim(size_t size);

    nghttp2_mem m_mem {};
    void* m_frameBuffer = nullptr;
    size_t m_frameBufferBytes = 0;
    bool m_creating = false; ///< inside newClientSession, before the frame buffer was claimed
    uint64_t m_shared = 0;
};

} // namespace wb
