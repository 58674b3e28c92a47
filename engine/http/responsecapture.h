#pragma once
// What a response observer asked to see of one response: its header fields and,
// when asked, its body. Filled by the HTTP/1.1 parser (ResponseParser::setCapture)
// or by the HTTP/2 session's callbacks, only while someone observes: without a
// capture the parser skips bodies and keeps no header bytes, as it always did.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace wb {

/// One header field of a response; views into the ResponseCapture it came from.
struct HeaderField
{
    std::string_view name; ///< as sent (HTTP/2: lower case)
    std::string_view value; ///< without leading and trailing blanks
};

struct ResponseCapture
{
    bool wantBody = false; ///< keep the body (decoded from chunks); headers are always kept
    size_t bodyLimit = SIZE_MAX; ///< with wantBody: keep at most this many bytes of it
    /// The header block: HTTP/1.1 the bytes from the status line to the blank line as
    /// received; HTTP/2 "name: value\r\n" per regular field (pseudo fields left out).
    std::string head;
    std::string body; ///< the body, without chunk framing (empty unless wantBody)
    std::vector<HeaderField> fields; ///< filled by splitFields(), pointing into head

    /// Keeps what fits under bodyLimit of n more body bytes.
    void appendBody(const char* bytes, size_t n)
    {
        const size_t room = bodyLimit > body.size() ? bodyLimit - body.size() : 0;
        body.append(bytes, n < room ? n : room);
    }
    /// Splits head into fields (a status line first, if any, is skipped; an obs-fold
    /// line continues the previous value). Views stay valid until head changes.
    void splitFields();
    /// Ready for the next response (keeps the capacity: no allocation per response).
    void clear()
    {
        head.clear();
        body.clear();
        fields.clear();
    }
};

} // namespace wb
