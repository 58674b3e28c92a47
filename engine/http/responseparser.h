#pragma once
// Incremental HTTP/1.x response parser. It keeps no copy of the input: bytes
// are fed as they arrive (in pieces of any size, from a buffer shared by all
// connections of a worker) and the parser only remembers the small state it
// needs: status code, version, framing (Content-Length, chunked, until-close)
// and keep-alive. Bodies are skipped, never stored, so responses of any size
// cost no memory. No allocation, no exceptions: malformed input ends in Error.
// Only when a ResponseCapture is set (someone observes the responses) are the
// header block and, if asked, the body copied into it; the parse loop is then a
// second instantiation, so the loop without one is the same code as before.

#include <cstddef>
#include <cstdint>

namespace wb {

struct ResponseCapture;

class ResponseParser
{
public:
    enum class Result {
        NeedMore, ///< all input consumed, the response is not complete yet
        Complete, ///< one response ended; `consumed` tells where (the rest is the next response)
        Error, ///< not a valid response; see errorReason()
    };

    /// Prepares for the next response. A response to HEAD has no body. Keeps the capture.
    void reset(bool responseToHead = false);
    /// From the next feed() on, copies each response's header block (and, if the capture
    /// wants it, its body) into capture, which must outlive the parser; null stops that.
    /// The caller empties the capture between responses.
    void setCapture(ResponseCapture* capture) { m_capture = capture; }
    ResponseCapture* capture() const { return m_capture; }

    /// Parses up to len bytes; sets consumed to the bytes that belong to this
    /// response. After Complete, call reset() before feeding the rest (until
    /// then feed() keeps answering Complete with consumed 0). len 0: NeedMore.
    Result feed(const char* data, size_t len, size_t& consumed);

    /// The peer closed the connection. Completes a body delimited by the close;
    /// anything else still in progress is an Error.
    Result finishOnEof();

    /// True once any byte of the current response was seen (stray CR/LF before
    /// the status line do not count: a close after them is an idle close).
    bool started() const;

    int statusCode() const { return m_status; }
    int httpMinorVersion() const { return m_minor; } ///< 0 for HTTP/1.0, 1 for HTTP/1.1
    /// Whether the connection may carry another request after this response.
    bool keepAlive() const;
    /// Short reason for the last Error, e.g. "invalid chunk size".
    const char* errorReason() const { return m_error; }

private:
    // The enums are defined in responseparser.cpp: the state is nobody else's business.
    enum class State : uint8_t;
    enum class HeaderKind : uint8_t;

    template <bool CAPTURE> Result parse(const unsigned char* data, size_t len, size_t& pos);
    Result fail(const char* reason);
    bool countHeaderBytes(size_t n, bool lineEnded);
    bool countChunkLineBytes(size_t n);
    bool headersEnded(); ///< true when the response is complete (no body)
    void startChunkSize();
    void endChunkSizeLine();
    void endListElement();

    State m_state {}; // value-initialised: the first enumerator, waiting for the status line
    HeaderKind m_headerKind {}; // the header line being parsed (or the last one, for obs-fold)
    uint8_t m_candidates = 0; // interesting header names the current name still matches (bit mask)
    uint8_t m_valueState = 0; // sub-state inside a Content-Length value or list element
    uint8_t m_listTarget = 0; // which list token the current element still matches
    bool m_started = false;
    bool m_head = false;
    bool m_inTrailers = false;
    bool m_haveContentLength = false;
    bool m_haveTransferEncoding = false;
    bool m_chunked = false; // the last transfer coding seen is "chunked"
    bool m_connectionClose = false;
    bool m_connectionKeepAlive = false;
    bool m_untilEof = false; // the body ends when the connection closes
    int m_status = 0;
    int m_minor = 1;
    uint32_t m_matchPos = 0; // position in the status line, header name, list token or chunk-size digits
    uint32_t m_lineBytes = 0; // bytes of the current header/chunk-size line
    uint32_t m_headerBytes = 0; // bytes of the current header (or trailer) block
    uint64_t m_contentLength = 0;
    uint64_t m_value = 0; // Content-Length being parsed
    uint64_t m_remaining = 0; // body or chunk bytes still to skip; chunk size while parsing it
    const char* m_error = "";
    ResponseCapture* m_capture = nullptr; // set while responses are observed
};

} // namespace wb
