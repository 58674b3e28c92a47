#include "progressline.h"

#include "parse/quantity.h"
#include "report/loadersaturation.h"
#include "report/units.h"

#include <atomic>
#include <cmath>
#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>

namespace wb::cli {

namespace {

// Whether a line is on the terminal now. Observers run on the controller's thread, warnings on
// others: the flag is atomic, and a line is written in one write(2).
std::atomic<bool> g_shown { false };

void writeAll(const std::string& text)
{
    size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(STDERR_FILENO, text.data() + done, text.size() - done);
        if (n <= 0) return;
        done += static_cast<size_t>(n);
    }
}

size_t terminalColumns()
{
    winsize ws {};
    if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
    return 80;
}

std::string ms(double us)
{
    return std::isfinite(us) ? formatTimeUs(us) : std::string("-");
}

} // namespace

ProgressLine::ProgressLine(bool enabled)
    : m_enabled(enabled && ::isatty(STDERR_FILENO) == 1)
{ }

ProgressLine::~ProgressLine()
{
    if (m_enabled) erase();
}

void ProgressLine::onStarted(const RunConfig& config)
{
    m_plannedS = static_cast<double>(config.normalized().durationUs) / 1e6;
}

std::string ProgressLine::describe(const IntervalRecord& interval, double measuredS, double plannedS)
{
    // Tenths of a second: a short run moves visibly, a long one reads as wrk writes durations.
    // The planned length as typed ("500ms", "1m30s"): formatTimeS would round a short trial to "0s".
    std::string out = plannedS > 0
        ? fmt::format("{:.1f}s of {}", measuredS, durationText(static_cast<uint64_t>(std::llround(plannedS * 1e6))))
        : fmt::format("{:.1f}s", measuredS);
    out += fmt::format(", {} req/s, p50 {}, p99 {}, {} errors, {} non-2xx", formatMetric(interval.requestsPerS()),
        ms(interval.latency.p50Us), ms(interval.latency.p99Us), interval.transportErrors(), interval.non2xx());
    if (!loaderSaturationWarning(interval.loaderCost).empty()) out += ", the loader is saturated";
    return out;
}

void ProgressLine::onInterval(const IntervalRecord& interval)
{
    if (!m_enabled) return;
    std::string line = describe(interval, interval.endS, m_plannedS);
    if (!m_context.empty()) line = m_context + ": " + line;
    // One terminal row: a wrapped line could not be erased with a carriage return.
    const size_t columns = terminalColumns();
    if (line.size() >= columns) line.resize(columns > 1 ? columns - 1 : 0);
    writeAll("\r\x1b[K" + line);
    g_shown.store(true);
}

void ProgressLine::onFinished(const RunResult&)
{
    if (m_enabled) erase();
}

void ProgressLine::erase()
{
    if (g_shown.exchange(false)) writeAll("\r\x1b[K");
}

} // namespace wb::cli
