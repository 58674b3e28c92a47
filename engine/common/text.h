#pragma once
// The one text policy for what came from outside (a peer, a scraped endpoint, a file, a session) on its way out as
// text (docs/ARCHITECTURE.md, "Text leaves through one door"). Bytes that must travel exactly (bodies, header values)
// never pass through here: they go as base64 when not UTF-8. validUtf8 is for JSON, CSV, HTML and files; terminalText
// also writes every control character as \xHH (C0 but line feed, tab and a CR before a LF; DEL; C1, which some
// terminals read as CSI and OSC), so a name can clear no screen, set no window title and write no clipboard.
// Backslashes are not escaped: a literal "\x1b" and the ESC byte look alike on a terminal, which is for reading; JSON
// and the session keep the bytes.

#include "common/utf8.h"

#include <string>
#include <string_view>

namespace wb {

inline constexpr std::string_view REPLACEMENT_CHARACTER = "\xef\xbf\xbd"; // U+FFFD in UTF-8

/// s with every byte that is not part of a valid UTF-8 sequence replaced by U+FFFD.
inline std::string validUtf8(std::string_view s)
{
    std::string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size();) {
        const size_t length = utf8SequenceLength(s, i);
        if (length == 0) {
            out += REPLACEMENT_CHARACTER;
            ++i;
        } else {
            out.append(s, i, length);
            i += length;
        }
    }
    return out;
}

/// s as it may reach a terminal: valid UTF-8 with every control character but line breaks and
/// tabs written \xHH.
inline std::string terminalText(std::string_view s)
{
    static constexpr char HEX[] = "0123456789abcdef";
    const auto escape = [](std::string& out, unsigned char c) {
        out += "\\x";
        out.push_back(HEX[c >> 4]);
        out.push_back(HEX[c & 15]);
    };
    std::string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size();) {
        const size_t length = utf8SequenceLength(s, i);
        const auto c = static_cast<unsigned char>(s[i]);
        if (length == 0) {
            out += REPLACEMENT_CHARACTER;
        } else if (length == 1) {
            const bool lineBreak = c == '\n' || c == '\t' || (c == '\r' && i + 1 < s.size() && s[i + 1] == '\n');
            if ((c < 0x20 && !lineBreak) || c == 0x7f)
                escape(out, c);
            else
                out.push_back(static_cast<char>(c));
        } else if (length == 2 && c == 0xc2 && static_cast<unsigned char>(s[i + 1]) < 0xa0) {
            escape(out, c); // C1: U+0080 to U+009F
            escape(out, static_cast<unsigned char>(s[i + 1]));
        } else {
            out.append(s, i, length);
        }
        i += length == 0 ? 1 : length;
    }
    return out;
}

/// Whether s is as terminalText leaves it: valid UTF-8 without a control character but line
/// breaks and tabs (what a test or a fuzzer asks of every text bound for a terminal).
inline bool isTerminalText(std::string_view s)
{
    for (size_t i = 0; i < s.size(); ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        const bool lineBreak = c == '\n' || c == '\t' || (c == '\r' && i + 1 < s.size() && s[i + 1] == '\n');
        if ((c < 0x20 && !lineBreak) || c == 0x7f) return false;
        if (c == 0xc2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) < 0xa0) return false;
    }
    return isValidUtf8(s);
}

/// One CSV field (RFC 4180): valid UTF-8, quoted when it holds a comma, a quote or a line break.
inline std::string csvField(std::string_view text)
{
    std::string valid = validUtf8(text);
    if (valid.find_first_of(",\"\r\n") == std::string::npos) return valid;
    std::string out = "\"";
    for (const char c : valid) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

/// How many bytes at the end of s begin a UTF-8 sequence that more bytes could complete (0 to 3):
/// what a writer that gets text in pieces holds back until the next piece.
inline size_t utf8IncompleteTail(std::string_view s)
{
    for (size_t back = 1; back <= 3 && back <= s.size(); ++back) {
        const auto c = static_cast<unsigned char>(s[s.size() - back]);
        if (c >= 0x80 && c <= 0xbf) continue; // a continuation byte: look further back for its lead
        const size_t needed = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
        return needed > back ? back : 0;
    }
    return 0;
}

} // namespace wb
