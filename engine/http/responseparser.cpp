#include "http/responseparser.h"

#include "http/responsecapture.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <string_view>

namespace wb {

// Every state consumes as many bytes as it can in a tight loop; the outer loop
// only dispatches. Header values nobody cares about are skipped with memchr.
enum class ResponseParser::State : uint8_t {
    Start, // skipping stray CR/LF before the status line
    StatusLine, // "HTTP/1.x NNN", position in m_matchPos
    Reason,
    StatusLf, // CR seen at the end of the status line
    LineStart, // start of a header or trailer line, or of the blank line
    BlankLf, // CR seen at the start of a line
    Name,
    ValueSkip, // a header we do not interpret
    ValueContentLength,
    ValueList, // Connection or Transfer-Encoding: comma-separated tokens
    BodyLength,
    BodyUntilEof,
    ChunkSize,
    ChunkSizeWs, // whitespace after the size, before ';' or the line end
    ChunkExt, // ";name=value" after the size: ignored
    ChunkSizeLf,
    ChunkData,
    ChunkDataEnd, // CRLF after the chunk data
    ChunkDataLf,
    Done,
    Error,
};

enum class ResponseParser::HeaderKind : uint8_t {
    None, // no header line yet in this block: a folded line here is invalid
    Other,
    ContentLength,
    Connection,
    TransferEncoding,
};

namespace {

// An endless header line or block would otherwise keep a connection busy forever.
constexpr uint32_t MAX_LINE_BYTES = 64 * 1024;
constexpr uint32_t MAX_HEADER_BYTES = 1024 * 1024;
constexpr uint64_t MAX_U64 = std::numeric_limits<uint64_t>::max();

constexpr char STATUS_PREFIX[] = "HTTP/1.";
constexpr uint32_t STATUS_PREFIX_LEN = 7;
// Status line positions after the prefix: minor digit, space, three code digits, then SP/CR/LF.
constexpr uint32_t POS_MINOR = STATUS_PREFIX_LEN;
constexpr uint32_t POS_SPACE = POS_MINOR + 1;
constexpr uint32_t POS_CODE = POS_SPACE + 1;
constexpr uint32_t POS_AFTER_CODE = POS_CODE + 3;

struct Literal
{
    const char* text; // lower case
    uint32_t length;
};

// Header names that matter, matched while the name streams by (bit i of m_candidates).
constexpr std::array<Literal, 3> HEADER_NAMES { { { "content-length", 14 }, { "connection", 10 },
    { "transfer-encoding", 17 } } };
constexpr uint8_t ALL_CANDIDATES = 0x7;

// List tokens that matter (m_listTarget; 0 means the element matches none).
enum ListToken : uint8_t { NO_TOKEN, TOKEN_CLOSE, TOKEN_KEEP_ALIVE, TOKEN_CHUNKED };
constexpr std::array<Literal, 4> LIST_TOKENS { { { "", 0 }, { "close", 5 }, { "keep-alive", 10 }, { "chunked", 7 } } };

// Sub-states of a Content-Length value.
enum : uint8_t { CL_LEADING, CL_DIGITS, CL_TRAILING };
// Sub-states of a list element.
enum : uint8_t { ELEMENT_LEADING, ELEMENT_TOKEN, ELEMENT_AFTER_TOKEN, ELEMENT_IGNORED };

constexpr std::array<bool, 256> makeTokenTable()
{
    std::array<bool, 256> table {};
    for (int c = '0'; c <= '9'; ++c)
        table[c] = true;
    for (int c = 'a'; c <= 'z'; ++c)
        table[c] = table[c - 'a' + 'A'] = true;
    for (const char c : std::string_view("!#$%&'*+-.^_`|~"))
        table[static_cast<unsigned char>(c)] = true;
    return table;
}
constexpr std::array<bool, 256> IS_TOKEN = makeTokenTable();

constexpr unsigned char toLower(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') ? c + ('a' - 'A') : c;
}
constexpr bool isDigit(unsigned char c)
{
    return c >= '0' && c <= '9';
}
constexpr bool isBlank(unsigned char c)
{
    return c == ' ' || c == '\t';
}
// CR is treated as whitespace inside values: lenient, and it always precedes LF in valid input.
constexpr bool isValueSpace(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

constexpr int hexValue(unsigned char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

} // namespace

void ResponseParser::reset(bool responseToHead)
{
    ResponseCapture* capture = m_capture;
    *this = ResponseParser();
    m_head = responseToHead;
    m_capture = capture;
}

bool ResponseParser::started() const
{
    return m_started;
}

bool ResponseParser::keepAlive() const
{
    if (m_state == State::Error || m_untilEof || m_status == 101) return false;
    // RFC 9112 6.1: Transfer-Encoding in an HTTP/1.0 message means faulty framing; close after it.
    if (m_haveTransferEncoding && m_minor == 0) return false;
    if (m_connectionClose) return false;
    return m_minor == 1 || m_connectionKeepAlive;
}

ResponseParser::Result ResponseParser::feed(const char* data, size_t len, size_t& consumed)
{
    consumed = 0;
    if (m_state == State::Error) return Result::Error;
    if (m_state == State::Done) return Result::Complete;
    if (len == 0) return Result::NeedMore;
    size_t pos = 0;
    const auto* p = reinterpret_cast<const unsigned char*>(data);
    const Result result = m_capture ? parse<true>(p, len, pos) : parse<false>(p, len, pos);
    consumed = pos;
    return result;
}

ResponseParser::Result ResponseParser::finishOnEof()
{
    switch (m_state) {
    case State::Error:
        return Result::Error;
    case State::Done:
        return Result::Complete;
    case State::BodyUntilEof:
        m_state = State::Done;
        return Result::Complete;
    default:
        return fail(m_started ? "connection closed before the response was complete" : "connection closed");
    }
}

ResponseParser::Result ResponseParser::fail(const char* reason)
{
    m_error = reason;
    m_state = State::Error;
    return Result::Error;
}

bool ResponseParser::countHeaderBytes(size_t n, bool lineEnded)
{
    if (n > MAX_LINE_BYTES - m_lineBytes) {
        m_error = "header line too long";
        return false;
    }
    if (n > MAX_HEADER_BYTES - m_headerBytes) {
        m_error = "headers too large";
        return false;
    }
    m_headerBytes += static_cast<uint32_t>(n);
    m_lineBytes = lineEnded ? 0 : m_lineBytes + static_cast<uint32_t>(n);
    return true;
}

bool ResponseParser::countChunkLineBytes(size_t n)
{
    if (n > MAX_LINE_BYTES - m_lineBytes) {
        m_error = "chunk size line too long";
        return false;
    }
    m_lineBytes += static_cast<uint32_t>(n);
    return true;
}

void ResponseParser::startChunkSize()
{
    m_state = State::ChunkSize;
    m_remaining = 0;
    m_matchPos = 0;
    m_lineBytes = 0;
}

void ResponseParser::endChunkSizeLine()
{
    m_lineBytes = 0;
    if (m_remaining != 0) {
        m_state = State::ChunkData;
        return;
    }
    // Last chunk: trailers follow, a header block of their own, then the blank line.
    m_state = State::LineStart;
    m_inTrailers = true;
    m_headerKind = HeaderKind::None;
    m_headerBytes = 0;
}

void ResponseParser::endListElement()
{
    if (m_valueState == ELEMENT_LEADING) return; // empty list elements are allowed and mean nothing
    const bool matched = m_listTarget != NO_TOKEN && m_matchPos == LIST_TOKENS[m_listTarget].length;
    if (m_headerKind == HeaderKind::TransferEncoding) {
        m_chunked = matched; // only the last coding decides the framing
    } else if (matched) {
        if (m_listTarget == TOKEN_CLOSE) m_connectionClose = true;
        if (m_listTarget == TOKEN_KEEP_ALIVE) m_connectionKeepAlive = true;
    }
}

bool ResponseParser::headersEnded()
{
    m_lineBytes = 0;
    if (m_inTrailers) {
        m_state = State::Done;
        return true;
    }
    if (m_status < 200 && m_status != 101) {
        // Interim response (100 Continue, 103 Early Hints): forget its headers and wait for the
        // final one. m_headerBytes keeps counting so endless interim responses still hit the limit.
        m_state = State::Start;
        if (m_capture) m_capture->head.clear(); // an observer sees the final response's fields
        m_headerKind = HeaderKind::None;
        m_haveContentLength = m_haveTransferEncoding = m_chunked = false;
        m_connectionClose = m_connectionKeepAlive = false;
        m_contentLength = 0;
        return false;
    }
    // RFC 9112 6.3: these never have a body, whatever the headers say.
    if (m_head || m_status < 200 || m_status == 204 || m_status == 304) {
        m_state = State::Done;
        return true;
    }
    if (m_haveTransferEncoding) { // overrides Content-Length
        if (m_chunked) {
            startChunkSize();
        } else {
            m_state = State::BodyUntilEof;
            m_untilEof = true;
        }
        return false;
    }
    if (m_haveContentLength) {
        if (m_contentLength == 0) {
            m_state = State::Done;
            return true;
        }
        m_state = State::BodyLength;
        m_remaining = m_contentLength;
        return false;
    }
    m_state = State::BodyUntilEof;
    m_untilEof = true;
    return false;
}

// CAPTURE: the bytes of the header block (not of trailers) are copied into m_capture as
// they are consumed: from where a header state began in this input to where the block
// ended or the input did (flushHead); body bytes are copied where they are skipped.
template<bool CAPTURE> ResponseParser::Result ResponseParser::parse(const unsigned char* p, size_t len, size_t& pos)
{
    [[maybe_unused]] size_t headFrom = SIZE_MAX;
    [[maybe_unused]] auto flushHead = [&] {
        if constexpr (CAPTURE) {
            if (headFrom != SIZE_MAX)
                m_capture->head.append(reinterpret_cast<const char*>(p) + headFrom, pos - headFrom);
            headFrom = SIZE_MAX;
        }
    };
    [[maybe_unused]] auto keepBody = [&](size_t n) {
        if constexpr (CAPTURE) {
            if (m_capture->wantBody) m_capture->appendBody(reinterpret_cast<const char*>(p) + pos, n);
        }
    };
    while (pos < len) {
        if constexpr (CAPTURE) {
            if (headFrom == SIZE_MAX && m_state <= State::ValueList && !m_inTrailers) headFrom = pos;
        }
        switch (m_state) {
        case State::Start: {
            const unsigned char c = p[pos];
            if (c != '\r' && c != '\n') {
                m_started = true;
                m_state = State::StatusLine;
                m_matchPos = 0;
                m_status = 0;
                break;
            }
            ++pos;
            if (!countHeaderBytes(1, c == '\n')) return fail(m_error);
            break;
        }
        case State::StatusLine: {
            const size_t start = pos;
            bool lineEnded = false;
            while (pos < len && m_state == State::StatusLine) {
                const unsigned char c = p[pos++];
                const uint32_t i = m_matchPos++;
                if (i < STATUS_PREFIX_LEN) {
                    if (c != static_cast<unsigned char>(STATUS_PREFIX[i]))
                        return fail(i >= 5 ? "unsupported HTTP version" : "invalid status line");
                } else if (i == POS_MINOR) {
                    if (c != '0' && c != '1') return fail("unsupported HTTP version");
                    m_minor = c - '0';
                } else if (i == POS_SPACE) {
                    if (c != ' ') return fail("invalid status line");
                } else if (i < POS_AFTER_CODE) {
                    if (!isDigit(c) || (i == POS_CODE && c == '0')) return fail("invalid status code");
                    m_status = m_status * 10 + (c - '0');
                } else if (c == ' ') {
                    m_state = State::Reason;
                } else if (c == '\r') {
                    m_state = State::StatusLf;
                } else if (c == '\n') {
                    lineEnded = true;
                    m_state = State::LineStart;
                    m_headerKind = HeaderKind::None;
                } else {
                    return fail("invalid status code");
                }
            }
            if (!countHeaderBytes(pos - start, lineEnded)) return fail(m_error);
            break;
        }
        case State::Reason: {
            const size_t start = pos;
            bool lineEnded = false;
            while (pos < len) {
                const unsigned char c = p[pos++];
                if (c == '\n') {
                    lineEnded = true;
                    m_state = State::LineStart;
                    m_headerKind = HeaderKind::None;
                    break;
                }
                if (c == '\r') {
                    m_state = State::StatusLf;
                    break;
                }
                if ((c < 0x20 && c != '\t') || c == 0x7f) return fail("invalid status line");
            }
            if (!countHeaderBytes(pos - start, lineEnded)) return fail(m_error);
            break;
        }
        case State::StatusLf:
            if (p[pos++] != '\n') return fail("invalid status line");
            if (!countHeaderBytes(1, true)) return fail(m_error);
            m_state = State::LineStart;
            m_headerKind = HeaderKind::None;
            break;
        case State::LineStart: {
            const unsigned char c = p[pos];
            if (c == '\r' || c == '\n') {
                ++pos;
                if (!countHeaderBytes(1, c == '\n')) return fail(m_error);
                if (c == '\r') {
                    m_state = State::BlankLf;
                } else {
                    flushHead();
                    if (headersEnded()) return Result::Complete;
                }
            } else if (isBlank(c)) {
                // obs-fold: continues the previous header's value (RFC 9112 5.2). The value
                // states treat the leading whitespace like any other.
                switch (m_headerKind) {
                case HeaderKind::None:
                    return fail("invalid header line");
                case HeaderKind::Other:
                    m_state = State::ValueSkip;
                    break;
                case HeaderKind::ContentLength:
                    m_state = State::ValueContentLength;
                    m_valueState = CL_TRAILING; // more digits would be a second number
                    break;
                case HeaderKind::Connection:
                case HeaderKind::TransferEncoding:
                    m_state = State::ValueList;
                    m_valueState = ELEMENT_LEADING;
                    break;
                }
            } else {
                m_state = State::Name;
                m_matchPos = 0;
                m_candidates = m_inTrailers ? 0 : ALL_CANDIDATES; // trailers are parsed, never interpreted
            }
            break;
        }
        case State::BlankLf:
            if (p[pos++] != '\n') return fail("invalid header line");
            if (!countHeaderBytes(1, true)) return fail(m_error);
            flushHead();
            if (headersEnded()) return Result::Complete;
            break;
        case State::Name: {
            const size_t start = pos;
            bool colon = false;
            while (pos < len) {
                const unsigned char c = p[pos];
                if (c == ':') {
                    colon = true;
                    ++pos;
                    break;
                }
                if (!IS_TOKEN[c])
                    return fail(c == '\n' || c == '\r' ? "header line without colon" : "invalid header name");
                if (m_candidates) {
                    const unsigned char lower = toLower(c);
                    for (uint32_t k = 0; k < HEADER_NAMES.size(); ++k) {
                        const uint8_t bit = static_cast<uint8_t>(1u << k);
                        if ((m_candidates & bit)
                            && (m_matchPos >= HEADER_NAMES[k].length || HEADER_NAMES[k].text[m_matchPos] != lower))
                            m_candidates &= static_cast<uint8_t>(~bit);
                    }
                }
                ++m_matchPos;
                ++pos;
            }
            if (!countHeaderBytes(pos - start, false)) return fail(m_error);
            if (!colon) break;
            if (m_matchPos == 0) return fail("invalid header name");
            m_headerKind = HeaderKind::Other;
            m_state = State::ValueSkip;
            for (uint32_t k = 0; k < HEADER_NAMES.size(); ++k) {
                if (!(m_candidates & (1u << k)) || m_matchPos != HEADER_NAMES[k].length) continue;
                if (k == 0) {
                    m_headerKind = HeaderKind::ContentLength;
                    m_state = State::ValueContentLength;
                    m_valueState = CL_LEADING;
                    m_value = 0;
                } else {
                    m_headerKind = k == 1 ? HeaderKind::Connection : HeaderKind::TransferEncoding;
                    m_haveTransferEncoding = m_haveTransferEncoding || k == 2;
                    m_state = State::ValueList;
                    m_valueState = ELEMENT_LEADING;
                }
            }
            break;
        }
        case State::ValueSkip: {
            const void* lf = std::memchr(p + pos, '\n', len - pos);
            const size_t n
                = lf ? static_cast<size_t>(static_cast<const unsigned char*>(lf) - (p + pos)) + 1 : len - pos;
            if (!countHeaderBytes(n, lf != nullptr)) return fail(m_error);
            pos += n;
            if (lf) m_state = State::LineStart;
            break;
        }
        case State::ValueContentLength: {
            const size_t start = pos;
            bool lineEnded = false;
            while (pos < len) {
                const unsigned char c = p[pos++];
                if (c == '\n') {
                    lineEnded = true;
                    break;
                }
                if (isDigit(c)) {
                    if (m_valueState == CL_TRAILING) return fail("invalid Content-Length");
                    m_valueState = CL_DIGITS;
                    const unsigned digit = c - '0';
                    if (m_value > (MAX_U64 - digit) / 10) return fail("Content-Length overflow");
                    m_value = m_value * 10 + digit;
                } else if (isValueSpace(c)) {
                    if (m_valueState == CL_DIGITS) m_valueState = CL_TRAILING;
                } else {
                    return fail("invalid Content-Length");
                }
            }
            if (!countHeaderBytes(pos - start, lineEnded)) return fail(m_error);
            if (!lineEnded) break;
            if (m_valueState == CL_LEADING) return fail("invalid Content-Length");
            if (m_haveContentLength && m_contentLength != m_value) return fail("conflicting Content-Length");
            m_haveContentLength = true;
            m_contentLength = m_value;
            m_state = State::LineStart;
            break;
        }
        case State::ValueList: {
            const size_t start = pos;
            bool lineEnded = false;
            while (pos < len) {
                const unsigned char c = p[pos++];
                if (c == '\n') {
                    lineEnded = true;
                    break;
                }
                if (c == ',') {
                    endListElement();
                    m_valueState = ELEMENT_LEADING;
                    continue;
                }
                const bool space = isValueSpace(c);
                switch (m_valueState) {
                case ELEMENT_LEADING:
                    if (space) break;
                    m_valueState = ELEMENT_TOKEN;
                    m_matchPos = 0;
                    if (m_headerKind == HeaderKind::TransferEncoding)
                        m_listTarget = TOKEN_CHUNKED;
                    else
                        m_listTarget = toLower(c) == 'c' ? TOKEN_CLOSE : TOKEN_KEEP_ALIVE;
                    [[fallthrough]];
                case ELEMENT_TOKEN:
                    if (space) {
                        m_valueState = ELEMENT_AFTER_TOKEN;
                    } else if (c == ';') {
                        m_valueState = ELEMENT_IGNORED; // parameters
                    } else if (m_listTarget != NO_TOKEN) {
                        const Literal& token = LIST_TOKENS[m_listTarget];
                        if (m_matchPos < token.length
                            && static_cast<unsigned char>(token.text[m_matchPos]) == toLower(c))
                            ++m_matchPos;
                        else
                            m_listTarget = NO_TOKEN;
                    }
                    break;
                case ELEMENT_AFTER_TOKEN:
                    if (space) break;
                    if (c != ';') m_listTarget = NO_TOKEN; // "close foo" is not "close"
                    m_valueState = ELEMENT_IGNORED;
                    break;
                default: // ELEMENT_IGNORED
                    break;
                }
            }
            if (!countHeaderBytes(pos - start, lineEnded)) return fail(m_error);
            if (!lineEnded) break;
            endListElement();
            m_state = State::LineStart;
            break;
        }
        case State::BodyLength: {
            const uint64_t n = std::min<uint64_t>(m_remaining, len - pos);
            keepBody(static_cast<size_t>(n));
            pos += static_cast<size_t>(n);
            m_remaining -= n;
            if (m_remaining == 0) {
                m_state = State::Done;
                return Result::Complete;
            }
            break;
        }
        case State::BodyUntilEof:
            keepBody(len - pos);
            pos = len;
            break;
        case State::ChunkSize: {
            const size_t start = pos;
            while (pos < len) {
                const int digit = hexValue(p[pos]);
                if (digit < 0) break;
                if (m_remaining > (MAX_U64 >> 4)) return fail("chunk size overflow");
                m_remaining = (m_remaining << 4) | static_cast<uint64_t>(digit);
                ++m_matchPos;
                ++pos;
            }
            if (!countChunkLineBytes(pos - start)) return fail(m_error);
            if (pos == len) break;
            const unsigned char c = p[pos++];
            if (m_matchPos == 0) return fail("invalid chunk size");
            if (!countChunkLineBytes(1)) return fail(m_error);
            if (c == ';') {
                m_state = State::ChunkExt;
            } else if (isBlank(c)) {
                m_state = State::ChunkSizeWs;
            } else if (c == '\r') {
                m_state = State::ChunkSizeLf;
            } else if (c == '\n') {
                endChunkSizeLine();
            } else {
                return fail("invalid chunk size");
            }
            break;
        }
        case State::ChunkSizeWs: {
            const unsigned char c = p[pos++];
            if (!countChunkLineBytes(1)) return fail(m_error);
            if (c == ';') {
                m_state = State::ChunkExt;
            } else if (c == '\r') {
                m_state = State::ChunkSizeLf;
            } else if (c == '\n') {
                endChunkSizeLine();
            } else if (!isBlank(c)) {
                return fail("invalid chunk size");
            }
            break;
        }
        case State::ChunkExt: {
            const void* lf = std::memchr(p + pos, '\n', len - pos);
            const size_t n
                = lf ? static_cast<size_t>(static_cast<const unsigned char*>(lf) - (p + pos)) + 1 : len - pos;
            if (!countChunkLineBytes(n)) return fail(m_error);
            pos += n;
            if (lf) endChunkSizeLine();
            break;
        }
        case State::ChunkSizeLf:
            if (p[pos++] != '\n') return fail("invalid chunk size");
            endChunkSizeLine();
            break;
        case State::ChunkData: {
            const uint64_t n = std::min<uint64_t>(m_remaining, len - pos);
            keepBody(static_cast<size_t>(n));
            pos += static_cast<size_t>(n);
            m_remaining -= n;
            if (m_remaining == 0) m_state = State::ChunkDataEnd;
            break;
        }
        case State::ChunkDataEnd: {
            const unsigned char c = p[pos++];
            if (c == '\r')
                m_state = State::ChunkDataLf;
            else if (c == '\n')
                startChunkSize();
            else
                return fail("missing CRLF after chunk data");
            break;
        }
        case State::ChunkDataLf:
            if (p[pos++] != '\n') return fail("missing CRLF after chunk data");
            startChunkSize();
            break;
        case State::Done:
            return Result::Complete;
        case State::Error:
            return Result::Error;
        }
    }
    flushHead();
    return Result::NeedMore;
}

} // namespace wb
