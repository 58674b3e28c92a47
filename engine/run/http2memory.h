#pragma once
// The allocator of one worker's HTTP/2 client sessions: they share one
// outbound frame buffer.
//
// libnghttp2 gives every session a 16 KB buffer into which it serialises each
// outgoing frame inside nghttp2_session_mem_send(); the call hands out a
// pointer into it, which Http2Session copies into its own output at once. The
// buffer's content is never read again after that call (a header block too
// large for it continues in buffers allocated apart, which stay the session's
// own), so the sessions of one worker, which never run at the same time, can
// share it. That is two of the ~14 KB a session keeps resident; with 10,000
// connections it is the difference between ~145 MB and ~65 MB.
//
// The buffer is recognised as the first allocation of 16 KB or more made while
// a session is created; nothing else is: an nghttp2 that allocates otherwise
// just keeps one buffer per session, as before.

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
