// libFuzzer target for where a server's datagrams enter an HTTP/3 session
// (engine/run/http3/http3session.h over the QUIC adapter engine/quic): a client session
// bound to no socket, its handshake started, fed the fuzzer's datagrams. The input
// is a list of datagrams, each a 2-byte big-endian length and its bytes; a length
// with the top bit set instead runs the session's timers that many milliseconds on.
// Before the handshake only what QUIC leaves unauthenticated is reachable (packet
// headers, Version Negotiation, Retry, stateless resets, coalesced and truncated
// packets); that is where a peer can send anything, and our end handling (how the
// connection ended, what the worker is told) must hold whatever comes. A violation
// of the seam's contract traps.

#include "run/http3/http3session.h"

#include <arpa/inet.h>
#include <cstddef>
#include <cstdint>
#include <netinet/in.h>

using namespace wb;

namespace {

void check(bool ok)
{
    if (!ok) __builtin_trap();
}

class Count final : public CompletionHandler
{
public:
    bool onCompletion(const Completion& done) override
    {
        check(done.reset || (done.status >= 100 && done.status <= 999));
        return true;
    }
};

const RunConfig& config()
{
    static const RunConfig c = [] {
        RunConfig r;
        r.request.url = *parseUrl("https://localhost:4433/fuzz");
        r.httpVersion = HttpVersion::Http3;
        r.streams = 4;
        r.tls.verifyPeer = false;
        return r;
    }();
    return c;
}

sockaddr_in loopback(uint16_t port)
{
    sockaddr_in a {};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(port);
    return a;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    static Http3SessionPool pool(config(), config().requests(), nullptr, 1);
    ClientSession& session = pool.session(0);
    const sockaddr_in local = loopback(40000), remote = loopback(4433);
    uint64_t nowUs = 1'000'000;
    const Status opened = session.onDatagramOpened(reinterpret_cast<const sockaddr*>(&local), sizeof local,
        reinterpret_cast<const sockaddr*>(&remote), sizeof remote, nowUs);
    check(opened.ok());
    size_t segment = 0;
    check(!session.nextDatagrams(nowUs, segment).empty()); // the client's Initial
    Count handler;
    size_t offset = 0;
    while (offset + 2 <= size) {
        const unsigned word = (unsigned { data[offset] } << 8) | data[offset + 1];
        offset += 2;
        SessionResult r = SessionResult::Ok;
        if (word & 0x8000) {
            nowUs += (word & 0x7FFF) * 1000;
            if (nowUs >= session.nextTimerUs()) r = session.onTimer(nowUs, handler);
        } else {
            const size_t n = std::min<size_t>(word, size - offset);
            r = session.onRead(reinterpret_cast<const char*>(data) + offset, n, handler);
            offset += n;
        }
        while (!session.nextDatagrams(nowUs, segment).empty())
            check(segment > 0 && segment <= QuicConnection::MAX_DATAGRAM_BYTES);
        check(session.inFlight() <= config().streams);
        if (r == SessionResult::ProtocolError || r == SessionResult::Truncated) {
            check(!session.failure().reason.empty()); // an end is always said in words
            break;
        }
        if (r == SessionResult::Finished) break;
    }
    session.reset();
    check(session.capacity() == 0);
    return 0;
}
