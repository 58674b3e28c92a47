#include "wrk/logheadings.h"

#include "common/utf8.h"

#include <algorithm>
#include <cctype>

namespace wb {

namespace {

constexpr size_t MAX_TAG_CHARS = 100;

std::string trimmed(const std::string& s)
{
    const size_t a = s.find_first_not_of(" \t\r");
    if (a == std::string::npos) return {};
    return s.substr(a, s.find_last_not_of(" \t\r") - a + 1);
}

bool endsWith(const std::string& s, const std::string& suffix)
{
    return s.size() >= suffix.size()
        && std::equal(suffix.rbegin(), suffix.rend(), s.rbegin(),
            [](char suffixChar, char c) { return std::tolower(static_cast<unsigned char>(c)) == suffixChar; });
}

// A valid tag: commas (the list separator) become spaces, control characters go,
// invalid UTF-8 becomes '?', runs of spaces fold, and it is cut at a character boundary.
std::string asTag(const std::string& text)
{
    std::string out;
    for (size_t i = 0; i < text.size();) {
        const size_t length = utf8SequenceLength(text, i);
        if (length == 0) {
            out += '?';
            ++i;
            continue;
        }
        char c = text[i];
        if (length > 1) {
            out.append(text, i, length);
            i += length;
            continue;
        }
        ++i;
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x20 || u == 0x7f) continue;
        if (c == ',' || c == '\t') c = ' ';
        if (c == ' ' && (out.empty() || out.back() == ' ')) continue;
        out += c;
    }
    out = trimmed(out);
    if (out.size() > MAX_TAG_CHARS) {
        size_t cut = MAX_TAG_CHARS;
        while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80)
            --cut; // not inside a UTF-8 sequence
        out = trimmed(out.substr(0, cut));
    }
    return out;
}

} // namespace

std::string headingOf(const std::string& rawLine)
{
    std::string line = trimmed(rawLine);
    while (!line.empty() && line.front() == '>') // a quoted paste
        line = trimmed(line.substr(1));
    if (line.empty()) return {};
    if (line.front() == '#') {
        const size_t text = line.find_first_not_of('#');
        if (text == std::string::npos || text > 6 || (line[text] != ' ' && line[text] != '\t')) return {};
        const std::string heading = trimmed(line.substr(text));
        // "# wrk -t2 -c10 URL" is a root shell prompt with the command, not a heading.
        for (const char* command : { "wrk ", "wrk2 ", "./wrk ", "./wrk2 ", "wrkbench-cli " })
            if (heading.rfind(command, 0) == 0) return {};
        return asTag(heading);
    }
    std::string name = line;
    if (name.back() == ':') name.pop_back();
    name = trimmed(name);
    if (name.find(' ') != std::string::npos && name.find('/') == std::string::npos) {
        // "see results.md" is prose; a bare file name (or a path) is a heading.
        return {};
    }
    for (const char* ext : { ".md", ".txt" }) {
        if (!endsWith(name, ext)) continue;
        const size_t slash = name.find_last_of('/');
        std::string stem = name.substr(slash == std::string::npos ? 0 : slash + 1);
        stem.resize(stem.size() - std::string(ext).size());
        return asTag(stem);
    }
    return {};
}

std::vector<std::string> reportHeadings(const std::string& text, const std::vector<WrkLogReport>& reports)
{
    std::vector<std::string> out(reports.size());
    std::string current;
    size_t lineNo = 0;
    size_t next = 0; // the next report to label
    size_t pos = 0;
    while (next < reports.size() && pos <= text.size()) {
        const size_t end = std::min(text.find('\n', pos), text.size());
        ++lineNo;
        while (next < reports.size() && reports[next].firstLine == lineNo)
            out[next++] = current;
        const bool insideReport = next > 0 && lineNo <= reports[next - 1].lastLine;
        if (!insideReport) {
            const std::string h = headingOf(text.substr(pos, end - pos));
            if (!h.empty()) current = h;
        }
        if (end == text.size()) break;
        pos = end + 1;
    }
    return out;
}

} // namespace wb
