#pragma once
// Private to the target server: one connection that opened with the HTTP/2
// connection preface (h2c with prior knowledge, as h2load and
// `curl --http2-prior-knowledge` speak it) on the same port as HTTP/1.1. A
// libnghttp2 server session answers each stream with the same routes and
// bodies as HTTP/1.1 (serve/response.h); delays are due times the loop's timer
// releases. Output is pulled by the loop after every read or timer.

#include "serve/admission.h"
#include "serve/requesthead.h"
#include "serve/response.h"

#include <cstdint>
#include <nghttp2/nghttp2.h>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace wb::serve {

/// True when `bytes` (the first bytes of a connection) begin the HTTP/2 preface, or may still.
bool startsHttp2Preface(std::string_view bytes);

class H2ServerConnection
{
public:
    H2ServerConnection(const Responder& responder, int64_t delayNs, Admissions* admission = nullptr);
    ~H2ServerConnection();
    H2ServerConnection(const H2ServerConnection&) = delete;
    H2ServerConnection& operator=(const H2ServerConnection&) = delete;

    /// Feeds bytes read from the client at nowNs. False: the client broke the protocol
    /// (after a GOAWAY of ours is in the output) or the session is over.
    bool receive(const char* data, size_t size, int64_t nowNs);
    /// Answers whose delay has passed go out.
    void releaseDue(int64_t nowNs);
    /// The earliest due time of a delayed answer, 0 when none.
    int64_t nextDueNs() const;
    /// Appends the frames ready to send to `out`.
    void takeOutput(std::string& out);
    /// The session neither reads nor writes any more: close the connection.
    bool finished() const;
    /// Final answers submitted since the last call.
    uint64_t takeAnswered();

    // nghttp2 callbacks land here.
    void onHeader(int32_t stream, std::string_view name, std::string_view value);
    void onBeginStream(int32_t stream);
    void onData(int32_t stream, const uint8_t* data, size_t size);
    void onRequestComplete(int32_t stream, int64_t nowNs);
    void onStreamClose(int32_t stream);
    ssize_t readBody(int32_t stream, uint8_t* buffer, size_t size, uint32_t* flags);

private:
    struct Stream
    {
        RequestHead request;
        std::string echo;
        Body body;
        uint64_t sent = 0;
        int64_t dueNs = 0; ///< a delayed answer not submitted yet
    };
    void answer(int32_t id, Stream& s);

    const Responder& m_responder;
    int64_t m_delayNs;
    Admissions* m_admission; ///< --capacity and /capacity/N; null: every request admitted
    int64_t m_nowNs = 0;
    nghttp2_session* m_session = nullptr;
    std::unordered_map<int32_t, Stream> m_streams;
    std::vector<int32_t> m_delayed; ///< streams with a due answer
    uint64_t m_answered = 0;
};

} // namespace wb::serve
