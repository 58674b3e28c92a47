// libFuzzer target for the HTTP/2 receive path: bytes from a server fed into
// both client sessions bound to no socket, our framing layer
// (engine/run/http2/http2framesession.h) and libnghttp2's (engine/run/http2/http2session.h,
// the reference), one after the other. The input
// is one control byte followed by the server's byte stream:
//   byte 0: low 4 bits + 1 = streams per connection; high 4 bits pick the split size
// The session is connected, fills its streams, and reads the stream in pieces;
// each completion submits a new request (as the closed loop does), output is
// drained after every piece, and every fourth piece expires the oldest streams.
// The seam's contract must hold (in flight never above the streams, capacity
// never above the free slots, a stopped or failed session never reads on); a
// violation traps.

#include "run/http2/http2framesession.h"
#include "run/http2/http2session.h"

#include <cstddef>
#include <cstdint>

using namespace wb;

namespace {

void check(bool ok)
{
    if (!ok) __builtin_trap();
}

template<typename Session> class Resubmit final : public CompletionHandler
{
public:
    explicit Resubmit(Session& session)
        : m_session(session)
    { }
    bool onCompletion(const Completion& done) override
    {
        check(done.reset || (done.status >= 100 && done.status <= 999));
        ++completions;
        ++m_now;
        if (m_session.capacity() > 0) m_session.submit(m_now, m_now, 0);
        return true;
    }
    uint64_t completions = 0;

private:
    Session& m_session;
    uint64_t m_now = 1000;
};

const RunConfig& configFor(unsigned streams)
{
    static RunConfig configs[16];
    RunConfig& c = configs[streams - 1];
    if (c.streams != streams) {
        c.request.url = *parseUrl("http://127.0.0.1:8080/fuzz");
        c.request.headers = { { "X-Fuzz", "1" } };
        c.httpVersion = HttpVersion::Http2;
        c.streams = streams;
    }
    return c;
}

template<typename Pool> void feed(const uint8_t* data, size_t size)
{
    const unsigned streams = (data[0] & 0x0F) + 1;
    const size_t piece = size_t { 1 } << (data[0] >> 4); // 1 .. 32768 bytes per read
    const RunConfig config = configFor(streams);
    Pool pool(config, config.requests(), nullptr, 1);
    auto& session = pool[0];
    session.onConnected();
    for (uint32_t n = session.capacity(); n > 0; --n)
        session.submit(1, 1, 0);
    check(session.inFlight() <= streams);
    Resubmit handler(session);
    size_t offset = 1;
    unsigned pieces = 0;
    while (offset < size) {
        const size_t n = std::min(piece, size - offset);
        const SessionResult r = session.onRead(reinterpret_cast<const char*>(data) + offset, n, handler);
        offset += n;
        check(session.capacity() + session.inFlight() <= streams + streams); // retries wait beside the slots
        for (std::span<const char> out = session.pendingOutput(); !out.empty();)
            out = session.onWritten(out.size());
        if (r == SessionResult::ProtocolError || r == SessionResult::Finished || r == SessionResult::Truncated)
            break; // the worker closes here
        if (++pieces % 4 == 0) session.expire(UINT64_MAX / 2, 0);
    }
    session.onEof(handler);
    session.reset();
    check(session.capacity() == 0);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < 1) return 0;
    feed<Http2FrameSessionPool>(data, size);
    feed<Http2SessionPool>(data, size);
    return 0;
}
