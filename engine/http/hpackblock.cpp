#include "http/hpackblock.h"

#include <array>
#include <string_view>

namespace wb {

namespace {

struct StaticEntry
{
    std::string_view name;
    std::string_view value;
};

// RFC 7541 Appendix A: index i + 1 is kStaticTable[i].
constexpr std::array<StaticEntry, 61> kStaticTable { {
    { ":authority", "" },
    { ":method", "GET" },
    { ":method", "POST" },
    { ":path", "/" },
    { ":path", "/index.html" },
    { ":scheme", "http" },
    { ":scheme", "https" },
    { ":status", "200" },
    { ":status", "204" },
    { ":status", "206" },
    { ":status", "304" },
    { ":status", "400" },
    { ":status", "404" },
    { ":status", "500" },
    { "accept-charset", "" },
    { "accept-encoding", "gzip, deflate" },
    { "accept-language", "" },
    { "accept-ranges", "" },
    { "accept", "" },
    { "access-control-allow-origin", "" },
    { "age", "" },
    { "allow", "" },
    { "authorization", "" },
    { "cache-control", "" },
    { "content-disposition", "" },
    { "content-encoding", "" },
    { "content-language", "" },
    { "content-length", "" },
    { "content-location", "" },
    { "content-range", "" },
    { "content-type", "" },
    { "cookie", "" },
    { "date", "" },
    { "etag", "" },
    { "expect", "" },
    { "expires", "" },
    { "from", "" },
    { "host", "" },
    { "if-match", "" },
    { "if-modified-since", "" },
    { "if-none-match", "" },
    { "if-range", "" },
    { "if-unmodified-since", "" },
    { "last-modified", "" },
    { "link", "" },
    { "location", "" },
    { "max-forwards", "" },
    { "proxy-authenticate", "" },
    { "proxy-authorization", "" },
    { "range", "" },
    { "referer", "" },
    { "refresh", "" },
    { "retry-after", "" },
    { "server", "" },
    { "set-cookie", "" },
    { "strict-transport-security", "" },
    { "transfer-encoding", "" },
    { "user-agent", "" },
    { "vary", "" },
    { "via", "" },
    { "www-authenticate", "" },
} };

// RFC 7541 5.1: an integer with an N-bit prefix; `first` carries the representation's pattern bits.
void appendInteger(std::string& out, uint8_t first, unsigned prefixBits, size_t value)
{
    const size_t max = (size_t { 1 } << prefixBits) - 1;
    if (value < max) {
        out += static_cast<char>(first | value);
        return;
    }
    out += static_cast<char>(first | max);
    value -= max;
    while (value >= 128) {
        out += static_cast<char>((value & 0x7F) | 0x80);
        value >>= 7;
    }
    out += static_cast<char>(value);
}

// RFC 7541 5.2: a string literal, H bit clear (not Huffman-coded).
void appendString(std::string& out, std::string_view s)
{
    appendInteger(out, 0x00, 7, s.size());
    out += s;
}

struct StaticMatch
{
    size_t nameIndex = 0; ///< a static entry with this name (0: none)
    size_t fullIndex = 0; ///< a static entry with this name and value (0: none)
};

StaticMatch staticMatch(const Header& field)
{
    StaticMatch m;
    for (size_t i = 0; i < kStaticTable.size() && m.fullIndex == 0; ++i) {
        if (kStaticTable[i].name != field.name) continue;
        if (m.nameIndex == 0) m.nameIndex = i + 1;
        if (kStaticTable[i].value == field.value) m.fullIndex = i + 1;
    }
    return m;
}

// A literal (6.2.1 with incremental indexing: pattern 0x40, 6-bit prefix; 6.2.2 without: 0x00, 4 bits).
void appendLiteral(std::string& block, uint8_t pattern, unsigned prefixBits, size_t nameIndex, const Header& field)
{
    appendInteger(block, pattern, prefixBits, nameIndex);
    if (nameIndex == 0) appendString(block, field.name);
    appendString(block, field.value);
}

} // namespace

std::string encodeStaticHpackBlock(const std::vector<Header>& fields)
{
    std::string block;
    for (const Header& field : fields) {
        const StaticMatch m = staticMatch(field);
        if (m.fullIndex != 0)
            appendInteger(block, 0x80, 7, m.fullIndex); // 6.1 indexed field
        else
            appendLiteral(block, 0x00, 4, m.nameIndex, field); // the server's dynamic table is never touched
    }
    return block;
}

HpackIndexedBlocks encodeIndexedHpackBlocks(const std::vector<Header>& fields)
{
    HpackIndexedBlocks out;
    std::vector<bool> added(fields.size());
    size_t addedCount = 0;
    for (size_t i = 0; i < fields.size(); ++i) {
        const StaticMatch m = staticMatch(fields[i]);
        if (m.fullIndex != 0) {
            appendInteger(out.first, 0x80, 7, m.fullIndex);
            continue;
        }
        appendLiteral(out.first, 0x40, 6, m.nameIndex, fields[i]);
        out.tableBytes += fields[i].name.size() + fields[i].value.size() + 32; // RFC 7541 4.1
        added[i] = true;
        ++addedCount;
    }
    // The entry added last has the first dynamic index, 62 (2.3.3).
    size_t addedBefore = 0;
    for (size_t i = 0; i < fields.size(); ++i) {
        if (!added[i]) {
            appendInteger(out.repeat, 0x80, 7, staticMatch(fields[i]).fullIndex);
            continue;
        }
        appendInteger(out.repeat, 0x80, 7, kStaticTable.size() + addedCount - addedBefore);
        ++addedBefore;
    }
    return out;
}

} // namespace wb
