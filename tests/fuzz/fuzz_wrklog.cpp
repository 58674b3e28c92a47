// libFuzzer target for the wrk log importer (and its heading tags, and run ranges). The input is any text. Checked:
//   - line numbers are in the text, reports are in order and do not overlap,
//     and no skipped report starts inside a report that was read;
//   - every number is finite and in range, every string valid UTF-8, every
//     skip has a reason;
//   - the same text with CRLF line ends, or with a blank line on top (line
//     numbers one higher), reads the same;
//   - each report read again alone (just its own lines) reads the same.
// A violation traps.

#include "common/utf8.h"
#include "parse/runranges.h"
#include "wrk/logheadings.h"
#include "wrk/wrklog.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

using wb::isValidUtf8;
using wb::WrkLogParseResult;
using wb::WrkLogReport;

namespace {

void check(bool ok)
{
    if (!ok) __builtin_trap();
}

bool isAmount(double v)
{
    return std::isfinite(v) && v >= 0;
}

void checkRow(const WrkLogReport::StatsRow& row)
{
    check(isAmount(row.avg) && isAmount(row.stdev) && isAmount(row.max) && isAmount(row.withinStdevPct));
}

void checkReport(const WrkLogReport& r, size_t lineCount)
{
    check(r.firstLine >= 1 && r.firstLine <= r.lastLine && r.lastLine <= lineCount);
    // Running, threads, Thread Stats, Latency, Req/Sec, requests, Requests/sec, Transfer/sec.
    check(r.lastLine - r.firstLine >= 7);
    check(!r.url.empty() && isValidUtf8(r.url) && isValidUtf8(r.commandLine));
    check(isAmount(r.rate) && isAmount(r.timeoutS) && isAmount(r.plannedDurationS) && isAmount(r.durationS));
    check(isAmount(r.requestsPerS) && isAmount(r.transferBytesPerS));
    checkRow(r.latencyUs);
    checkRow(r.requestsPerThread);
    for (const auto* distribution : { &r.latencyDistribution, &r.uncorrectedLatencyDistribution }) {
        for (const auto& p : *distribution)
            check(p.percentile >= 0 && p.percentile <= 100 && isAmount(p.valueUs));
    }
    for (const auto* spectrum : { &r.spectrum, &r.uncorrectedSpectrum }) {
        for (const auto& row : *spectrum)
            check(row.percentile >= 0 && row.percentile <= 1 && isAmount(row.valueUs));
    }
    if (!r.uncorrectedSpectrum.empty()) check(!r.uncorrectedLatencyDistribution.empty());
    if (!r.spectrum.empty()) check(!r.latencyDistribution.empty());
    if (!r.latencyDistribution.empty() || !r.uncorrectedLatencyDistribution.empty()) check(r.hasLatencyFlag);
    if (r.rate > 0) check(r.isWrk2);
}

// Same numbers; lines shifted by `shift`; the command only when asked (a report read alone has none).
bool sameReport(const WrkLogReport& a, const WrkLogReport& b, size_t shift, bool withCommand)
{
    const auto sameRow = [](const WrkLogReport::StatsRow& x, const WrkLogReport::StatsRow& y) {
        return x.avg == y.avg && x.stdev == y.stdev && x.max == y.max && x.withinStdevPct == y.withinStdevPct;
    };
    const auto samePercentiles = [](const auto& x, const auto& y) {
        if (x.size() != y.size()) return false;
        for (size_t i = 0; i < x.size(); ++i) {
            if (x[i].percentile != y[i].percentile || x[i].valueUs != y[i].valueUs) return false;
        }
        return true;
    };
    const auto sameSpectrum = [](const auto& x, const auto& y) {
        if (x.size() != y.size()) return false;
        for (size_t i = 0; i < x.size(); ++i) {
            if (x[i].percentile != y[i].percentile || x[i].valueUs != y[i].valueUs
                || x[i].totalCount != y[i].totalCount)
                return false;
        }
        return true;
    };
    if (withCommand
        && (a.commandLine != b.commandLine || a.rate != b.rate || a.timeoutS != b.timeoutS || a.isWrk2 != b.isWrk2
            || a.hasLatencyFlag != b.hasLatencyFlag))
        return false;
    return a.firstLine + shift == b.firstLine && a.lastLine + shift == b.lastLine && a.url == b.url
        && a.plannedDurationS == b.plannedDurationS && a.threads == b.threads && a.connections == b.connections
        && sameRow(a.latencyUs, b.latencyUs) && sameRow(a.requestsPerThread, b.requestsPerThread)
        && samePercentiles(a.latencyDistribution, b.latencyDistribution)
        && samePercentiles(a.uncorrectedLatencyDistribution, b.uncorrectedLatencyDistribution)
        && sameSpectrum(a.spectrum, b.spectrum) && sameSpectrum(a.uncorrectedSpectrum, b.uncorrectedSpectrum)
        && a.requests == b.requests && a.durationS == b.durationS && a.bytesRead == b.bytesRead
        && a.errorsConnect == b.errorsConnect && a.errorsRead == b.errorsRead && a.errorsWrite == b.errorsWrite
        && a.errorsTimeout == b.errorsTimeout && a.non2xx == b.non2xx && a.requestsPerS == b.requestsPerS
        && a.transferBytesPerS == b.transferBytesPerS;
}

bool sameResult(const WrkLogParseResult& a, const WrkLogParseResult& b, size_t shift)
{
    if (a.reports.size() != b.reports.size() || a.skipped.size() != b.skipped.size()) return false;
    for (size_t i = 0; i < a.reports.size(); ++i) {
        if (!sameReport(a.reports[i], b.reports[i], shift, true)) return false;
    }
    for (size_t i = 0; i < a.skipped.size(); ++i) {
        if (a.skipped[i].line + shift != b.skipped[i].line) return false;
    }
    return true;
}

// Byte offset where 1-based line `line` starts.
size_t lineStart(const std::string& text, size_t line)
{
    size_t offset = 0;
    for (size_t n = 1; n < line; ++n) {
        const size_t end = text.find('\n', offset);
        if (end == std::string::npos) return text.size();
        offset = end + 1;
    }
    return offset;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    size_t lineCount = 0;
    for (char c : text)
        lineCount += c == '\n';
    if (!text.empty() && text.back() != '\n') ++lineCount;

    const WrkLogParseResult result = wb::parseWrkLog(text);
    size_t previousLast = 0;
    for (const WrkLogReport& report : result.reports) {
        checkReport(report, lineCount);
        check(report.firstLine > previousLast);
        previousLast = report.lastLine;
    }
    // --tag-headings: one heading per report, each a valid tag (or none).
    const std::vector<std::string> headings = wb::reportHeadings(text, result.reports);
    check(headings.size() == result.reports.size());
    for (const std::string& h : headings)
        check(h.size() <= 100 && isValidUtf8(h) && h.find(',') == std::string::npos
            && (h.empty() || (h.front() != ' ' && h.back() != ' ')));
    // Run ranges never crash, and what they accept is positive ids, each once.
    if (text.size() < 64) {
        if (auto ids = wb::parseRunRanges(text)) {
            check(!ids->empty());
            for (int64_t id : *ids)
                check(id > 0);
        }
    }

    size_t previousSkip = 0;
    for (const wb::WrkLogSkip& skip : result.skipped) {
        check(skip.line >= 1 && skip.line <= lineCount && skip.line > previousSkip);
        check(!skip.reason.empty() && isValidUtf8(skip.reason));
        for (const WrkLogReport& report : result.reports)
            check(skip.line < report.firstLine || skip.line > report.lastLine);
        previousSkip = skip.line;
    }

    std::string crlf;
    crlf.reserve(text.size() + text.size() / 8);
    for (char c : text) {
        if (c == '\n') crlf.push_back('\r');
        crlf.push_back(c);
    }
    check(sameResult(result, wb::parseWrkLog(crlf), 0));
    check(sameResult(result, wb::parseWrkLog("\n" + text), 1));

    for (const WrkLogReport& report : result.reports) {
        const size_t begin = lineStart(text, report.firstLine);
        const size_t end = lineStart(text, report.lastLine + 1);
        const WrkLogParseResult alone = wb::parseWrkLog(text.substr(begin, end - begin));
        check(alone.reports.size() == 1 && alone.skipped.empty());
        check(sameReport(alone.reports[0], report, report.firstLine - 1, false));
    }
    return 0;
}
