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

} // namespace

std::string encodeStaticHpackBlock(const std::vector<Header>& fields)
{
    std::string block;
    for (const Header& field : fields) {
        size_t nameIndex = 0;
        size_t fullIndex = 0;
        for (size_t i = 0; i < kStaticTable.size() && fullIndex == 0; ++i) {
            if (kStaticTable[i].name != field.name) continue;
            if (nameIndex == 0) nameIndex = i + 1;
            if (kStaticTable[i].value == field.value) fullIndex = i + 1;
        }
        if (fullIndex != 0) {
            appendInteger(block, 0x80, 7, fullIndex); // 6.1 indexed field
        } else {
            // 6.2.2 literal without indexing: the server's dynamic table is never touched.
            appendInteger(block, 0x00, 4, nameIndex);
            if (nameIndex == 0) appendString(block, field.name);
            appendString(block, field.value);
        }
    }
    return block;
}

} // namespace wb
