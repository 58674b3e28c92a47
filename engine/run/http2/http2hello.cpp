#include "run/http2/http2hello.h"

#include "common/clock.h"
#include "net/tlstransport.h"
#include "run/http2/http2session.h"

#include <cerrno>
#include <poll.h>
#include <unistd.h>

namespace wb {

namespace {

class IgnoreCompletions final : public CompletionHandler
{
public:
    bool onCompletion(const Completion&) override { return true; }
};

IoStatus readSome(int fd, TlsTransport* tls, char* buffer, size_t length, size_t& n)
{
    if (tls) return tls->read(buffer, length, n);
    const ssize_t r = ::read(fd, buffer, length);
    if (r > 0) {
        n = static_cast<size_t>(r);
        return IoStatus::Ok;
    }
    if (r == 0) return IoStatus::Closed;
    return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? IoStatus::WantRead : IoStatus::Error;
}

IoStatus writeSome(int fd, TlsTransport* tls, const char* data, size_t length, size_t& n)
{
    if (tls) return tls->write(data, length, n);
    const ssize_t r = ::write(fd, data, length);
    if (r >= 0) {
        n = static_cast<size_t>(r);
        return IoStatus::Ok;
    }
    return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? IoStatus::WantWrite : IoStatus::Error;
}

std::string notHttp2(const RunConfig& config)
{
    return config.request.url.isTls()
        ? "the server selected h2 by ALPN but did not answer the HTTP/2 connection preface with SETTINGS"
        : "the server did not answer the HTTP/2 connection preface (h2c with prior knowledge) with SETTINGS";
}

} // namespace

Result<Http2Hello> exchangeHttp2Settings(const RunConfig& config, int fd, TlsTransport* tls, int timeoutMs)
{
    RunConfig one = config;
    one.streams = 1;
    Http2SessionPool pool(one, { one.request }, nullptr, 1);
    Http2Session& session = pool[0];
    session.onConnected();
    IgnoreCompletions ignore;
    const uint64_t deadlineUs = monotonicNowUs() + static_cast<uint64_t>(timeoutMs) * 1000;
    char buffer[16 * 1024];
    for (;;) {
        for (std::span<const char> out = session.pendingOutput(); !out.empty();) {
            size_t n = 0;
            const IoStatus st = writeSome(fd, tls, out.data(), out.size(), n);
            if (st == IoStatus::Ok) {
                out = session.onWritten(n);
            } else if (st == IoStatus::WantWrite || st == IoStatus::WantRead) {
                break; // poll below waits for either
            } else {
                return Error { "the server closed the connection on the HTTP/2 connection preface" };
            }
        }
        size_t n = 0;
        const IoStatus st = readSome(fd, tls, buffer, sizeof buffer, n);
        if (st == IoStatus::Ok) {
            const SessionResult r = session.onRead(buffer, n, ignore);
            if (session.answeredWithHttp1())
                return Error { "the server answered the HTTP/2 connection preface with HTTP/1.x: it does not speak "
                               "h2c with prior knowledge (use an https URL for h2 by ALPN, or leave out --http2)" };
            if (session.settingsReceived()) {
                Http2Hello hello;
                hello.maxConcurrentStreams = session.serverLimit();
                return hello;
            }
            if (r == SessionResult::ProtocolError || r == SessionResult::Finished) return Error { notHttp2(config) };
            continue;
        }
        if (st == IoStatus::Closed || st == IoStatus::Error)
            return Error { "the server closed the connection after the HTTP/2 connection preface without SETTINGS" };
        const uint64_t now = monotonicNowUs();
        if (now >= deadlineUs)
            return Error { "the server sent no HTTP/2 SETTINGS within " + std::to_string(timeoutMs)
                + " ms of the connection preface" };
        pollfd p { fd, static_cast<short>(POLLIN | (session.hasOutput() ? POLLOUT : 0)), 0 };
        ::poll(&p, 1, static_cast<int>((deadlineUs - now) / 1000 + 1));
    }
}

} // namespace wb
