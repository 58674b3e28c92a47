#include "wrk/wrklog.h"

#include "common/utf8.h"

#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>
#include <fmt/format.h>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

// The reader is strict about the report (every line in wrk's order, every
// number readable, or the whole report is skipped with a reason) and lenient
// about the text around it. It walks the text once; a report that fails is
// read again only as plain lines, so the work stays linear.

namespace wb {

namespace {

using std::string_view;

constexpr size_t NPOS = string_view::npos;

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

// ---------------------------------------------------------------------------
// Lines

struct RawLine
{
    string_view text;
    size_t number = 0; // 1-based
};

// Walks the text one '\n'-terminated line at a time; a mark lets a failed
// report be read again as plain lines.
class LineCursor
{
public:
    struct Mark
    {
        size_t offset = 0;
        size_t lineNumber = 0;
    };

    explicit LineCursor(string_view text)
        : m_text(text)
    { }

    bool next(RawLine& line)
    {
        if (m_mark.offset >= m_text.size()) return false;
        size_t end = m_text.find('\n', m_mark.offset);
        if (end == NPOS) end = m_text.size();
        line.text = m_text.substr(m_mark.offset, end - m_mark.offset);
        line.number = ++m_mark.lineNumber;
        m_mark.offset = end + 1;
        return true;
    }
    Mark mark() const { return m_mark; }
    void reset(Mark mark) { m_mark = mark; }

private:
    string_view m_text;
    Mark m_mark;
};

// Index of the last byte of the escape sequence starting at s[i] (ESC).
size_t escapeEnd(string_view s, size_t i)
{
    if (i + 1 >= s.size()) return i;
    const char kind = s[i + 1];
    if (kind == '[') { // CSI: parameter and intermediate bytes, then one final byte
        size_t j = i + 2;
        while (j < s.size() && s[j] >= 0x20 && s[j] <= 0x3f)
            ++j;
        return j < s.size() ? j : s.size() - 1;
    }
    if (kind == ']') { // OSC (window titles, hyperlinks): up to BEL or ESC '\'
        for (size_t j = i + 2; j < s.size(); ++j) {
            if (s[j] == '\a') return j;
            if (s[j] == '\x1b' && j + 1 < s.size() && s[j + 1] == '\\') return j + 1;
        }
        return s.size() - 1;
    }
    if (kind == '(' || kind == ')') return std::min(i + 2, s.size() - 1); // character set selection
    return i + 1;
}

// Removes colour codes, control characters and byte order marks, turns tabs
// and the spaces a web page copies (NBSP, ideographic space) into plain
// spaces, and drops indentation and markdown quote markers.
std::string cleanSegment(string_view raw)
{
    std::string out;
    out.reserve(raw.size());
    for (size_t i = 0; i < raw.size(); ++i) {
        const auto c = static_cast<unsigned char>(raw[i]);
        if (c == 0x1b) {
            i = escapeEnd(raw, i);
        } else if (c == '\t') {
            out.push_back(' ');
        } else if (c == 0xc2 && i + 1 < raw.size() && static_cast<unsigned char>(raw[i + 1]) == 0xa0) {
            out.push_back(' ');
            i += 1;
        } else if (c == 0xe3 && raw.substr(i, 3) == "\xe3\x80\x80") {
            out.push_back(' ');
            i += 2;
        } else if (c == 0xef && raw.substr(i, 3) == "\xef\xbb\xbf") { // byte order mark
            i += 2;
        } else if (c >= 0x20 && c != 0x7f) {
            out.push_back(raw[i]);
        }
    }
    size_t begin = 0;
    for (;;) {
        while (begin < out.size() && out[begin] == ' ')
            ++begin;
        if (begin < out.size() && out[begin] == '>') {
            ++begin;
            continue;
        }
        break;
    }
    size_t end = out.size();
    while (end > begin && out[end - 1] == ' ')
        --end;
    return out.substr(begin, end - begin);
}

// A carriage return inside a line redraws it from the left (progress output
// in terminal captures): what follows the last one with text is what showed.
std::string cleanLine(string_view raw)
{
    while (!raw.empty() && raw.back() == '\r')
        raw.remove_suffix(1);
    for (;;) {
        const size_t cr = raw.rfind('\r');
        if (cr == NPOS) return cleanSegment(raw);
        std::string shown = cleanSegment(raw.substr(cr + 1));
        if (!shown.empty()) return shown;
        raw = raw.substr(0, cr);
    }
}

std::vector<string_view> splitWords(string_view line)
{
    std::vector<string_view> words;
    size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && line[i] == ' ')
            ++i;
        const size_t start = i;
        while (i < line.size() && line[i] != ' ')
            ++i;
        if (i > start) words.push_back(line.substr(start, i - start));
    }
    return words;
}

// Valid UTF-8 for the result (it ends up in JSON and SQLite), at most maxBytes of it.
std::string validText(string_view s, size_t maxBytes = SIZE_MAX)
{
    std::string out;
    for (size_t i = 0; i < s.size();) {
        const size_t length = utf8SequenceLength(s, i);
        const size_t taken = length ? length : 1;
        if (out.size() + taken > maxBytes) {
            out += "...";
            break;
        }
        if (length)
            out.append(s.substr(i, length));
        else
            out.push_back('?');
        i += taken;
    }
    return out;
}

// ---------------------------------------------------------------------------
// Numbers as wrk prints them

// The unsigned decimal at the start of text ("12", "5.47"), removed from it.
// wrk prints no signs or exponents, so neither is accepted.
bool takeDecimal(string_view& text, double& value)
{
    size_t n = 0;
    while (n < text.size() && isDigit(text[n]))
        ++n;
    if (n == 0) return false;
    if (n < text.size() && text[n] == '.') {
        size_t end = n + 1;
        while (end < text.size() && isDigit(text[end]))
            ++end;
        if (end == n + 1) return false;
        n = end;
    }
    const auto [end, error] = std::from_chars(text.data(), text.data() + n, value);
    if (error != std::errc() || end != text.data() + n || !std::isfinite(value)) return false;
    text.remove_prefix(n);
    return true;
}

bool readCount(string_view text, uint64_t& value)
{
    if (text.empty() || !isDigit(text[0])) return false;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    return error == std::errc() && end == text.data() + text.size();
}

bool readSmallCount(string_view text, unsigned& value)
{
    uint64_t wide = 0;
    if (!readCount(text, wide) || wide > UINT_MAX) return false;
    value = static_cast<unsigned>(wide);
    return true;
}

struct Unit
{
    string_view suffix;
    double scale;
};

constexpr double KIB = 1024.0;
// Latencies (format_time_us: "us", "ms", "s", then "m" from the seconds scale), in microseconds.
constexpr Unit TIME_UNITS[] = { { "us", 1 }, { "ms", 1e3 }, { "s", 1e6 }, { "m", 60e6 }, { "h", 3600e6 } };
// Req/Sec (format_metric, x1000); a bare number has no unit.
constexpr Unit METRIC_UNITS[] = { { "", 1 }, { "k", 1e3 }, { "M", 1e6 }, { "G", 1e9 }, { "T", 1e12 }, { "P", 1e15 } };
// Bytes (format_binary, x1024, then the "B" wrk appends).
constexpr Unit BINARY_UNITS[] = { { "B", 1 }, { "", 1 }, { "KB", KIB }, { "kB", KIB }, { "MB", KIB* KIB },
    { "GB", KIB* KIB* KIB }, { "TB", KIB* KIB* KIB* KIB }, { "PB", KIB* KIB* KIB* KIB* KIB } };
constexpr Unit PERCENT_UNITS[] = { { "%", 1 } };
constexpr Unit PLAIN_UNITS[] = { { "", 1 } };

// wrk prints "-nan" (plus the unit) for the spread of an empty or one-value
// sample; where that can happen it is read as 0.
enum class NanIs { Garbled, Zero };

bool readScaled(string_view token, std::span<const Unit> units, double& value, NanIs nan = NanIs::Garbled)
{
    double number = 0;
    if (nan == NanIs::Zero && (token.starts_with("-nan") || token.starts_with("nan"))) {
        token.remove_prefix(token[0] == '-' ? 4 : 3);
    } else if (!takeDecimal(token, number)) {
        return false;
    }
    for (const Unit& unit : units) {
        if (token == unit.suffix) {
            value = number * unit.scale;
            return std::isfinite(value);
        }
    }
    return false;
}

bool toUint64(double value, uint64_t& out)
{
    if (!(value >= 0) || value >= 9.0e18) return false;
    out = static_cast<uint64_t>(std::llround(value));
    return true;
}

// Command-line arguments as wrk's scan_metric and scan_time take them (case-insensitive units).
bool readArgument(string_view text, std::span<const Unit> units, double& value)
{
    double number = 0;
    if (!takeDecimal(text, number)) return false;
    for (const Unit& unit : units) {
        if (text.size() != unit.suffix.size()) continue;
        bool same = true;
        for (size_t i = 0; i < text.size(); ++i)
            same = same && (text[i] | 0x20) == (unit.suffix[i] | 0x20);
        if (same) {
            value = number * unit.scale;
            return std::isfinite(value);
        }
    }
    return false;
}

constexpr Unit ARG_COUNT_UNITS[] = { { "", 1 }, { "k", 1e3 }, { "m", 1e6 }, { "g", 1e9 }, { "t", 1e12 } };
constexpr Unit ARG_SECONDS_UNITS[]
    = { { "", 1 }, { "s", 1 }, { "m", 60 }, { "h", 3600 }, { "ms", 1e-3 }, { "us", 1e-6 } };

// ---------------------------------------------------------------------------
// The command line above a report

struct ShellWord
{
    std::string text; // without quotes
    size_t begin = 0;
    bool quoted = false;
};

std::vector<ShellWord> shellWords(string_view line)
{
    std::vector<ShellWord> words;
    size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && line[i] == ' ')
            ++i;
        if (i == line.size()) break;
        ShellWord word;
        word.begin = i;
        while (i < line.size() && line[i] != ' ') {
            if (line[i] == '\'' || line[i] == '"') {
                const char quote = line[i];
                const size_t close = line.find(quote, i + 1);
                const size_t end = close == NPOS ? line.size() : close;
                word.text.append(line.substr(i + 1, end - i - 1));
                word.quoted = true;
                i = close == NPOS ? end : end + 1;
            } else {
                word.text.push_back(line[i++]);
            }
        }
        words.push_back(std::move(word));
    }
    return words;
}

bool isWrkProgram(string_view word)
{
    const size_t slash = word.rfind('/');
    const string_view base = slash == NPOS ? word : word.substr(slash + 1);
    return base == "wrk" || base == "wrk2";
}

// What may stand right before the program: a prompt ("$", "[root@host dir]#",
// "user@host:~%", "PS C:\>") or a wrapper ("sudo", "time", "FOO=1").
bool isPromptOrWrapper(const ShellWord& word)
{
    const string_view w = word.text;
    if (w.empty() || word.quoted) return false;
    const char last = w.back();
    if (last == '$' || last == '#' || last == '%' || last == '>') return true;
    if (w == "sudo" || w == "time" || w == "nohup" || w == "exec" || w == "env" || w == "command") return true;
    return w.find('=') != NPOS && w[0] != '-';
}

bool isPromptSymbol(string_view w)
{
    return w == "\xe2\x9e\x9c" || w == "\xe2\x9d\xaf" || w == "\xce\xbb"; // oh-my-zsh arrow, starship, lambda
}

// Index of the word that runs wrk in a shell line, or NPOS for prose that merely names wrk.
size_t wrkWordIndex(const std::vector<ShellWord>& words)
{
    for (size_t k = 0; k < words.size(); ++k) {
        if (!isWrkProgram(words[k].text) || words[k].quoted) continue;
        if (k == 0 || isPromptOrWrapper(words[k - 1]) || isPromptSymbol(words[0].text)) return k;
    }
    return NPOS;
}

bool isShellOperator(const ShellWord& word)
{
    const string_view w = word.text;
    if (word.quoted || w.empty()) return false;
    if (w[0] == '|' || w[0] == '&' || w[0] == ';' || w[0] == '>' || w[0] == '<') return true;
    return w.size() > 1 && isDigit(w[0]) && w[1] == '>';
}

struct Command
{
    std::string text;
    bool wrk2Program = false;
    bool latency = false;
    double rate = 0;
    double timeoutS = 0;
    bool complete = false; // has a URL, no option waits for its value, no trailing backslash
    bool plausible = false; // has an option or a URL with a scheme, as a real invocation does
};

void applyOption(Command& command, string_view name, string_view value)
{
    if (name == "rate")
        readArgument(value, ARG_COUNT_UNITS, command.rate);
    else if (name == "timeout")
        readArgument(value, ARG_SECONDS_UNITS, command.timeoutS);
    else if (name == "latency" || name == "u_latency")
        command.latency = true;
}

bool optionTakesValue(string_view name)
{
    return name == "threads" || name == "connections" || name == "duration" || name == "script" || name == "header"
        || name == "timeout" || name == "rate";
}

struct ShortOption
{
    char letter;
    string_view name;
};

constexpr ShortOption SHORT_OPTIONS[]
    = { { 't', "threads" }, { 'c', "connections" }, { 'd', "duration" }, { 's', "script" }, { 'H', "header" },
          { 'T', "timeout" }, { 'R', "rate" }, { 'L', "latency" }, { 'U', "u_latency" } };

string_view shortOptionName(char letter)
{
    for (const ShortOption& option : SHORT_OPTIONS) {
        if (option.letter == letter) return option.name;
    }
    return {};
}

// Reads wrk's options the way its getopt_long does: "-t12", "-t 12",
// "--threads 12", "--threads=12", clustered flags ("-LU"); the first other
// word is the URL, the rest go to the script. A shell operator ends it.
Command parseCommand(string_view text)
{
    Command command;
    const std::vector<ShellWord> words = shellWords(text);
    if (words.empty()) return command;
    command.wrk2Program = words[0].text.ends_with("wrk2");
    size_t cut = text.size();
    std::string pending; // an option still waiting for its value
    bool hasUrl = false;
    for (size_t i = 1; i < words.size(); ++i) {
        const ShellWord& word = words[i];
        const string_view w = word.text;
        if (isShellOperator(word)) {
            cut = word.begin;
            break;
        }
        if (w == "\\" && !word.quoted) continue;
        if (!pending.empty()) {
            applyOption(command, pending, w);
            pending.clear();
        } else if (w.starts_with("--") && w.size() > 2) {
            command.plausible = true;
            const string_view option = w.substr(2);
            const size_t equals = option.find('=');
            if (equals != NPOS)
                applyOption(command, option.substr(0, equals), option.substr(equals + 1));
            else if (optionTakesValue(option))
                pending = option;
            else
                applyOption(command, option, "");
        } else if (w.size() > 1 && w[0] == '-') {
            command.plausible = true;
            for (size_t c = 1; c < w.size(); ++c) {
                const string_view name = shortOptionName(w[c]);
                if (!optionTakesValue(name)) {
                    applyOption(command, name, "");
                    continue;
                }
                if (c + 1 < w.size())
                    applyOption(command, name, w.substr(c + 1));
                else
                    pending = name;
                break;
            }
        } else if (!hasUrl) {
            hasUrl = true;
            command.plausible = command.plausible || w.find("://") != NPOS;
        }
    }
    string_view kept = text.substr(0, cut);
    while (!kept.empty() && kept.back() == ' ')
        kept.remove_suffix(1);
    const bool backslash = kept.ends_with('\\');
    command.complete = hasUrl && pending.empty() && !backslash;
    command.text = std::string(kept);
    return command;
}

bool looksLikeContinuation(string_view line)
{
    return line.starts_with('-') || line.find("://") != NPOS;
}

// The last few non-blank lines before a report: where its command line may be.
class RecentLines
{
public:
    static constexpr size_t CAPACITY = 4;

    void push(string_view raw)
    {
        const size_t first = raw.find_first_not_of(" \t\r");
        if (first == NPOS) return;
        const string_view shown = raw.substr(first);
        if (shown.starts_with("```") || shown.starts_with("~~~")) return; // markdown fences are no content
        m_lines[m_next % CAPACITY] = raw;
        ++m_next;
    }
    void clear() { m_next = 0; }

    // The command nearest to the report, joined with the lines it wraps onto.
    std::optional<Command> command() const
    {
        std::vector<std::string> lines; // oldest first
        for (size_t i = m_next > CAPACITY ? m_next - CAPACITY : 0; i < m_next; ++i) {
            std::string line = cleanLine(m_lines[i % CAPACITY]);
            if (!line.empty()) lines.push_back(std::move(line));
        }
        for (size_t index = lines.size(); index-- > 0;) {
            const std::vector<ShellWord> words = shellWords(lines[index]);
            const size_t k = wrkWordIndex(words);
            if (k == NPOS) continue;
            std::string text = lines[index].substr(words[k].begin);
            Command command = parseCommand(text);
            for (size_t next = index + 1; !command.complete && next < lines.size(); ++next) {
                if (!command.text.ends_with('\\') && !looksLikeContinuation(lines[next])) break;
                if (command.text.ends_with('\\')) command.text.pop_back();
                while (!command.text.empty() && command.text.back() == ' ')
                    command.text.pop_back();
                command = parseCommand(command.text + ' ' + lines[next]);
            }
            if (!command.plausible) continue; // "wrk" alone printed its usage; "wrk results:" is prose
            return command;
        }
        return std::nullopt;
    }

private:
    string_view m_lines[CAPACITY];
    size_t m_next = 0;
};

// ---------------------------------------------------------------------------
// The report

constexpr string_view RUNNING = "Running ";
constexpr string_view TEST_AT = " test @";

// "Running 30s test @ http://host/": the test length is one word starting with a digit.
bool isRunningLine(string_view line)
{
    if (!line.starts_with(RUNNING)) return false;
    const size_t at = line.find(TEST_AT, RUNNING.size());
    if (at == NPOS || at == RUNNING.size()) return false;
    const string_view length = line.substr(RUNNING.size(), at - RUNNING.size());
    return length.find(' ') == NPOS && isDigit(length[0]);
}

bool isDashes(string_view line)
{
    return line.size() >= 3 && line.find_first_not_of('-') == NPOS;
}

class ReportReader
{
public:
    ReportReader(LineCursor& cursor, WrkLogReport& report)
        : m_cursor(cursor)
        , m_report(report)
    { }

    bool read(const std::string& runningLine, size_t lineNumber)
    {
        m_line = runningLine;
        m_lineNumber = lineNumber;
        m_report.firstLine = m_report.lastLine = lineNumber;
        if (!readRunning() || !readThreads() || !readStatsHeader()
            || !readRow("Latency", TIME_UNITS, m_report.latencyUs)
            || !readRow("Req/Sec", METRIC_UNITS, m_report.requestsPerThread) || !readDistributions() || !readTotals()
            || !readRates())
            return false;
        m_report.isWrk2 = m_report.isWrk2 || m_wrk2Output;
        m_report.hasLatencyFlag
            = !m_report.latencyDistribution.empty() || !m_report.uncorrectedLatencyDistribution.empty();
        return true;
    }

    const std::string& failure() const { return m_failure; }

private:
    // The next non-blank line of this report, not yet consumed. False at the
    // end of the text and at the next report's "Running" line.
    bool peek()
    {
        if (m_peeked) return true;
        RawLine raw;
        for (;;) {
            const LineCursor::Mark before = m_cursor.mark();
            if (!m_cursor.next(raw)) return false;
            std::string line = cleanLine(raw.text);
            if (line.empty()) continue;
            if (isRunningLine(line)) {
                m_cursor.reset(before);
                return false;
            }
            m_line = std::move(line);
            m_lineNumber = raw.number;
            m_words = splitWords(m_line);
            m_peeked = true;
            return true;
        }
    }
    void take()
    {
        m_peeked = false;
        m_report.lastLine = m_lineNumber;
    }
    bool require(string_view what) { return peek() || fail(fmt::format("report ends before {}", what)); }
    bool fail(std::string reason)
    {
        m_failure = std::move(reason);
        return false;
    }
    bool unexpected(string_view what)
    {
        return fail(fmt::format("line {}: expected {}, found '{}'", m_lineNumber, what, validText(m_line, 60)));
    }
    bool garbled(string_view what)
    {
        return fail(fmt::format("line {}: cannot read {} in '{}'", m_lineNumber, what, validText(m_line, 60)));
    }

    bool readRunning()
    {
        const size_t at = m_line.find(TEST_AT);
        const string_view length = string_view(m_line).substr(RUNNING.size(), at - RUNNING.size());
        double us = 0;
        if (!readScaled(length, TIME_UNITS, us)) return garbled("the test length");
        m_report.plannedDurationS = us / 1e6;
        string_view url = string_view(m_line).substr(at + TEST_AT.size());
        while (!url.empty() && url.front() == ' ')
            url.remove_prefix(1);
        if (url.empty()) return garbled("the URL after '@'");
        m_report.url = validText(url);
        return true;
    }

    bool readThreads()
    {
        const char* what = "'N threads and M connections'";
        if (!require(what)) return false;
        const std::vector<string_view>& w = m_words;
        if (w.size() != 5 || w[1] != "threads" || w[2] != "and" || w[4] != "connections") return unexpected(what);
        if (!readSmallCount(w[0], m_report.threads)) return garbled("the thread count");
        if (!readSmallCount(w[3], m_report.connections)) return garbled("the connection count");
        take();
        return true;
    }

    // wrk2 prints one calibration line per thread before the table.
    bool readStatsHeader()
    {
        for (;;) {
            if (!require("the 'Thread Stats' header")) return false;
            if (m_line.starts_with("Thread calibration:")) {
                m_wrk2Output = true;
                take();
                continue;
            }
            if (!m_line.starts_with("Thread Stats")) return unexpected("the 'Thread Stats' header");
            take();
            return true;
        }
    }

    bool readRow(string_view name, std::span<const Unit> units, WrkLogReport::StatsRow& row)
    {
        const std::string what = fmt::format("the '{}' row", name);
        if (!require(what)) return false;
        if (m_words.size() != 5 || m_words[0] != name) return unexpected(what);
        if (!readScaled(m_words[1], units, row.avg, NanIs::Zero)) return garbled(fmt::format("the {} average", name));
        if (!readScaled(m_words[2], units, row.stdev, NanIs::Zero)) return garbled(fmt::format("the {} stdev", name));
        if (!readScaled(m_words[3], units, row.max)) return garbled(fmt::format("the {} max", name));
        if (!readScaled(m_words[4], PERCENT_UNITS, row.withinStdevPct, NanIs::Zero))
            return garbled(fmt::format("the {} +/- Stdev", name));
        take();
        return true;
    }

    // wrk --latency: "Latency Distribution" and four rows. wrk2 -L/-U: one or
    // two "(HdrHistogram - ...)" blocks with eight rows, each followed by the
    // detailed spectrum and a line of dashes.
    bool readDistributions()
    {
        while (peek()) {
            if (isDashes(m_line)) {
                take();
                continue;
            }
            if (!m_line.starts_with("Latency Distribution")) return true;
            const bool uncorrected = m_line.find("Uncorrected") != NPOS;
            m_wrk2Output = m_wrk2Output || m_line.find("HdrHistogram") != NPOS;
            auto& percentiles = uncorrected ? m_report.uncorrectedLatencyDistribution : m_report.latencyDistribution;
            auto& spectrum = uncorrected ? m_report.uncorrectedSpectrum : m_report.spectrum;
            if (!percentiles.empty()) return unexpected("one block of each kind of 'Latency Distribution'");
            const size_t headerLine = m_lineNumber;
            take();
            if (!readPercentiles(percentiles)) return false;
            if (percentiles.empty())
                return fail(fmt::format("line {}: 'Latency Distribution' has no rows", headerLine));
            if (peek() && m_line == "Detailed Percentile spectrum:") {
                take();
                if (!readSpectrum(spectrum)) return false;
            }
        }
        return true;
    }

    bool readPercentiles(std::vector<WrkLogReport::Percentile>& rows)
    {
        while (peek() && m_words.size() == 2 && m_words[0].ends_with('%')) {
            WrkLogReport::Percentile row;
            if (!readScaled(m_words[0], PERCENT_UNITS, row.percentile) || row.percentile > 100)
                return garbled("the percentile");
            if (!readScaled(m_words[1], TIME_UNITS, row.valueUs)) return garbled("the latency at a percentile");
            rows.push_back(row);
            take();
        }
        return true;
    }

    // hdr_percentiles_print's classic table: value in milliseconds,
    // percentile as a fraction, count so far, 1/(1-percentile) ("inf" last),
    // then "#[Mean = ...]" footer lines.
    bool readSpectrum(std::vector<WrkLogReport::SpectrumRow>& rows)
    {
        const char* header = "'Value Percentile TotalCount 1/(1-Percentile)'";
        if (!require(header)) return false;
        if (m_words.size() != 4 || m_words[0] != "Value" || m_words[1] != "Percentile") return unexpected(header);
        take();
        while (peek() && m_words.size() == 4 && isDigit(m_words[0][0])) {
            WrkLogReport::SpectrumRow row;
            double valueMs = 0;
            double inverse = 0;
            string_view inverseText = m_words[3];
            if (!readScaled(m_words[0], PLAIN_UNITS, valueMs) || !readScaled(m_words[1], PLAIN_UNITS, row.percentile)
                || row.percentile > 1 || !readCount(m_words[2], row.totalCount)
                || (inverseText != "inf" && !takeDecimal(inverseText, inverse)))
                return garbled("a spectrum row");
            if (inverseText != "inf" && !inverseText.empty()) return garbled("a spectrum row");
            row.valueUs = valueMs * 1000;
            rows.push_back(row);
            take();
        }
        while (peek() && m_line.starts_with("#["))
            take();
        return true;
    }

    bool readTotals()
    {
        const char* what = "the 'N requests in T, B read' line";
        if (!require(what)) return false;
        const std::vector<string_view>& w = m_words; // follows each peek()
        if (w.size() != 6 || w[1] != "requests" || w[2] != "in" || w[5] != "read" || !w[3].ends_with(','))
            return unexpected(what);
        if (!readCount(w[0], m_report.requests)) return garbled("the request count");
        double us = 0;
        if (!readScaled(w[3].substr(0, w[3].size() - 1), TIME_UNITS, us)) return garbled("the measured duration");
        m_report.durationS = us / 1e6;
        double bytes = 0;
        if (!readScaled(w[4], BINARY_UNITS, bytes) || !toUint64(bytes, m_report.bytesRead))
            return garbled("the bytes read");
        take();

        if (peek() && m_line.starts_with("Socket errors:")) {
            uint64_t* counters[]
                = { &m_report.errorsConnect, &m_report.errorsRead, &m_report.errorsWrite, &m_report.errorsTimeout };
            constexpr string_view NAMES[] = { "connect", "read", "write", "timeout" };
            if (w.size() != 10) return garbled("the socket errors");
            for (size_t i = 0; i < 4; ++i) {
                string_view value = w[3 + 2 * i];
                if (i < 3 && value.ends_with(',')) value.remove_suffix(1);
                if (w[2 + 2 * i] != NAMES[i] || !readCount(value, *counters[i])) return garbled("the socket errors");
            }
            take();
        }
        if (peek() && m_line.starts_with("Non-2xx or 3xx responses:")) {
            if (w.size() != 5 || !readCount(w[4], m_report.non2xx)) return garbled("the non-2xx count");
            take();
        }
        return true;
    }

    bool readRates()
    {
        if (!require("'Requests/sec:'")) return false;
        if (m_words.size() != 2 || m_words[0] != "Requests/sec:") return unexpected("'Requests/sec:'");
        string_view rate = m_words[1];
        if (!takeDecimal(rate, m_report.requestsPerS) || !rate.empty()) return garbled("Requests/sec");
        take();
        if (!require("'Transfer/sec:'")) return false;
        if (m_words.size() != 2 || m_words[0] != "Transfer/sec:") return unexpected("'Transfer/sec:'");
        if (!readScaled(m_words[1], BINARY_UNITS, m_report.transferBytesPerS)) return garbled("Transfer/sec");
        take();
        return true;
    }

    LineCursor& m_cursor;
    WrkLogReport& m_report;
    std::string m_line;
    std::vector<string_view> m_words; // into m_line
    size_t m_lineNumber = 0;
    bool m_peeked = false;
    bool m_wrk2Output = false;
    std::string m_failure;
};

void applyCommand(const Command& command, WrkLogReport& report)
{
    report.commandLine = validText(command.text);
    report.hasLatencyFlag = report.hasLatencyFlag || command.latency;
    report.rate = command.rate;
    report.timeoutS = command.timeoutS;
    report.isWrk2 = report.isWrk2 || command.wrk2Program || command.rate > 0;
}

void parseInto(const std::string& text, WrkLogParseResult& result)
{
    LineCursor cursor(text);
    RecentLines recent;
    RawLine raw;
    while (cursor.next(raw)) {
        // Cheap test first: most lines are not the start of a report.
        if (raw.text.find("Running") == NPOS && raw.text.find('\x1b') == NPOS) {
            recent.push(raw.text);
            continue;
        }
        const std::string line = cleanLine(raw.text);
        if (!isRunningLine(line)) {
            recent.push(raw.text);
            continue;
        }
        const LineCursor::Mark afterRunning = cursor.mark();
        WrkLogReport report;
        ReportReader reader(cursor, report);
        if (reader.read(line, raw.number)) {
            if (const std::optional<Command> command = recent.command()) applyCommand(*command, report);
            result.reports.push_back(std::move(report));
        } else {
            result.skipped.push_back({ raw.number, reader.failure() });
            cursor.reset(afterRunning); // what follows may hold the next report
        }
        recent.clear();
    }
}

} // namespace

WrkLogParseResult parseWrkLog(const std::string& text)
{
    WrkLogParseResult result;
    try {
        parseInto(text, result);
    } catch (...) {
        // Only allocation can throw here; keep what was read rather than lose it all.
    }
    return result;
}

} // namespace wb
