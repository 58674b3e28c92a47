// libFuzzer target for the response parser. The input is two control bytes
// followed by a byte stream from a server:
//   byte 0: bit i set = response i of the stream answers a HEAD request (i < 8)
//   byte 1: seed for the split points
// The stream is parsed whole, in two pieces, byte by byte and in pseudo-random
// pieces, resetting after every complete response (pipelining) and signalling
// EOF at the end. Every way must give the same responses, and the API contract
// (consumed <= len, NeedMore consumes everything, progress on every call, status
// codes in range, sticky Error and Complete) must hold; a violation traps.

#include "http/responseparser.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

using wb::ResponseParser;
using Result = ResponseParser::Result;

namespace {

void check(bool ok)
{
    if (!ok) __builtin_trap();
}

struct Event
{
    Result result;
    size_t end; // stream offset after a complete response; 0 for errors (their offset may differ by split)
    int status;
    int minor;
    bool keepAlive;
    bool operator==(const Event&) const = default;
};

// Splits the stream into pieces; `next(offset)` returns the end of the piece starting at offset.
struct Splitter
{
    enum Mode { WHOLE, TWO_PIECES, BYTEWISE, RANDOM } mode;
    size_t splitPoint;
    uint32_t state;

    size_t next(size_t offset, size_t size)
    {
        switch (mode) {
        case WHOLE:
            return size;
        case TWO_PIECES:
            return offset < splitPoint ? splitPoint : size;
        case BYTEWISE:
            return offset + 1;
        case RANDOM:
            state = state * 1103515245u + 12345u; // any cheap deterministic generator will do
            return offset + 1 + (state >> 16) % 64;
        }
        return size;
    }
};

Event eventFor(const ResponseParser& parser, Result result, size_t end)
{
    return { result, result == Result::Error ? 0 : end, parser.statusCode(), parser.httpMinorVersion(),
        parser.keepAlive() };
}

void checkComplete(const ResponseParser& parser)
{
    const int status = parser.statusCode();
    check(status == 101 || (status >= 200 && status <= 999)); // interim 1xx responses are never reported
    check(parser.httpMinorVersion() == 0 || parser.httpMinorVersion() == 1);
    if (status == 101) check(!parser.keepAlive());
}

std::vector<Event> parse(const uint8_t* stream, size_t size, uint8_t headMask, Splitter splitter)
{
    std::vector<Event> events;
    ResponseParser parser;
    auto headFor = [&](size_t index) { return index < 8 && (headMask >> index) & 1; };
    parser.reset(headFor(0));
    const char* data = reinterpret_cast<const char*>(stream);
    size_t offset = 0;
    size_t calls = 0;
    while (offset < size) {
        size_t pieceEnd = splitter.next(offset, size);
        if (pieceEnd > size) pieceEnd = size;
        while (offset < pieceEnd) {
            // Every call consumes bytes or completes a response that consumed some: bounded by size.
            check(++calls <= 2 * size + 2);
            size_t consumed = ~size_t(0);
            const size_t len = pieceEnd - offset;
            const Result result = parser.feed(data + offset, len, consumed);
            check(consumed <= len);
            offset += consumed;
            if (result == Result::NeedMore) {
                check(consumed == len);
                check(parser.feed(data, 0, consumed) == Result::NeedMore && consumed == 0);
                continue;
            }
            events.push_back(eventFor(parser, result, offset));
            if (result == Result::Error) {
                check(parser.errorReason() != nullptr && parser.errorReason()[0] != '\0');
                check(parser.feed(data, size, consumed) == Result::Error && consumed == 0);
                check(parser.finishOnEof() == Result::Error);
                return events;
            }
            // A fresh parser cannot complete a response without taking at least one byte of it.
            check(consumed > 0);
            checkComplete(parser);
            check(parser.feed(data, size, consumed) == Result::Complete && consumed == 0); // sticky until reset
            parser.reset(headFor(events.size()));
        }
    }
    const bool started = parser.started();
    const bool keepAliveBefore = parser.keepAlive();
    const Result result = parser.finishOnEof();
    if (result == Result::Complete) {
        checkComplete(parser);
        check(!parser.keepAlive() && !keepAliveBefore); // only a body delimited by the close ends at EOF
        events.push_back(eventFor(parser, result, size));
    } else {
        check(result == Result::Error);
        check(std::strcmp(parser.errorReason(), "connection closed") == 0 || started);
        if (started) events.push_back(eventFor(parser, result, size));
    }
    return events;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < 2) return 0;
    const uint8_t headMask = data[0];
    const uint8_t seed = data[1];
    const uint8_t* stream = data + 2;
    const size_t streamSize = size - 2;

    const auto whole = parse(stream, streamSize, headMask, { Splitter::WHOLE, 0, 0 });
    const size_t splitPoint = streamSize ? 1 + (seed * 257u) % streamSize : 0;
    check(parse(stream, streamSize, headMask, { Splitter::TWO_PIECES, splitPoint, 0 }) == whole);
    check(parse(stream, streamSize, headMask, { Splitter::BYTEWISE, 0, 0 }) == whole);
    check(parse(stream, streamSize, headMask, { Splitter::RANDOM, 0, seed }) == whole);
    return 0;
}
