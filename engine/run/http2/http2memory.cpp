#include "run/http2/http2memory.h"

#include <cstdlib>
#include <cstring>

namespace wb {

namespace {

// nghttp2's frame buffer holds a frame header, a pad length byte and a 16 KB payload.
constexpr size_t FRAME_BUFFER_MIN_BYTES = 16384;

Http2SessionMemory& memoryOf(void* self)
{
    return *static_cast<Http2SessionMemory*>(self);
}

} // namespace

Http2SessionMemory::Http2SessionMemory()
{
    m_mem.mem_user_data = this;
    m_mem.malloc = allocate;
    m_mem.free = release;
    m_mem.calloc = allocateZeroed;
    m_mem.realloc = reallocate;
}

Http2SessionMemory::~Http2SessionMemory()
{
    std::free(m_frameBuffer);
}

int Http2SessionMemory::newClientSession(nghttp2_session** session, const nghttp2_session_callbacks* callbacks,
    void* userData, const nghttp2_option* options)
{
    m_creating = true;
    const int rv = nghttp2_session_client_new3(session, callbacks, userData, options, &m_mem);
    m_creating = false;
    return rv;
}

void* Http2SessionMemory::claim(size_t size)
{
    if (!m_creating || size < FRAME_BUFFER_MIN_BYTES) return nullptr;
    m_creating = false; // one buffer per session
    if (!m_frameBuffer) {
        m_frameBuffer = std::malloc(size);
        if (!m_frameBuffer) return nullptr;
        m_frameBufferBytes = size;
    }
    if (size != m_frameBufferBytes) return nullptr; // not the buffer we know
    ++m_shared;
    return m_frameBuffer;
}

void* Http2SessionMemory::allocate(size_t size, void* self)
{
    if (void* shared = memoryOf(self).claim(size)) return shared;
    return std::malloc(size);
}

void Http2SessionMemory::release(void* ptr, void* self)
{
    if (ptr != memoryOf(self).m_frameBuffer) std::free(ptr);
}

void* Http2SessionMemory::allocateZeroed(size_t count, size_t size, void*)
{
    return std::calloc(count, size);
}

void* Http2SessionMemory::reallocate(void* ptr, size_t size, void* self)
{
    Http2SessionMemory& memory = memoryOf(self);
    if (!ptr) return allocate(size, self);
    if (ptr == memory.m_frameBuffer) {
        // The session wants a larger buffer of its own (nghttp2 does this only for padded frames).
        void* own = std::malloc(size);
        if (own) std::memcpy(own, ptr, size < memory.m_frameBufferBytes ? size : memory.m_frameBufferBytes);
        return own;
    }
    return std::realloc(ptr, size);
}

} // namespace wb
