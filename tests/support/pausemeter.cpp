#include "pausemeter.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <time.h>
#include <tuple>

namespace wb::test {
namespace {

constexpr int64_t SLEEP_US = 1000;
/// An oversleep shorter than this is the scheduler's ordinary latency, not a pause.
constexpr int64_t PAUSE_MIN_US = 5000;

int64_t nowUs()
{
    timespec ts {};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<int64_t>(ts.tv_sec) * 1'000'000 + ts.tv_nsec / 1000;
}

/// The machine's steal and total jiffies, from the first line of /proc/stat (0, 0 when unreadable).
std::pair<uint64_t, uint64_t> stealAndTotal()
{
    std::ifstream in("/proc/stat");
    std::string cpu;
    in >> cpu;
    if (cpu != "cpu") return { 0, 0 };
    uint64_t total = 0, steal = 0, v = 0;
    for (int field = 0; field < 8 && in >> v; ++field) {
        total += v; // user nice system idle iowait irq softirq steal (guest is inside user)
        if (field == 7) steal = v;
    }
    return { steal, total };
}

} // namespace

bool Pauses::material() const
{
    return pausedMs > 0.01 * elapsedMs || longestMs >= 20 || stealShare >= 0.05;
}

std::string Pauses::text() const
{
    char buf[256];
    std::snprintf(buf, sizeof buf,
        "the machine paused this test %.0f ms of %.0f (longest %.0f ms) and %.0f%% of its CPU time was stolen: "
        "time bounds are not judged on such a run",
        pausedMs, elapsedMs, longestMs, stealShare * 100);
    return buf;
}

void TimeBounds::near(const std::string& what, double actual, double expected, double tolerance)
{
    if (std::abs(actual - expected) <= tolerance) return;
    char buf[200];
    std::snprintf(buf, sizeof buf, "%s %g, not within %g of %g", what.c_str(), actual, tolerance, expected);
    m_missed.emplace_back(buf);
}

void TimeBounds::atLeast(const std::string& what, double actual, double bound)
{
    if (actual >= bound) return;
    char buf[200];
    std::snprintf(buf, sizeof buf, "%s %g < %g", what.c_str(), actual, bound);
    m_missed.emplace_back(buf);
}

void TimeBounds::atMost(const std::string& what, double actual, double bound)
{
    if (actual <= bound) return;
    char buf[200];
    std::snprintf(buf, sizeof buf, "%s %g > %g", what.c_str(), actual, bound);
    m_missed.emplace_back(buf);
}

std::string TimeBounds::text() const
{
    std::string out;
    for (const std::string& m : m_missed)
        out += (out.empty() ? "" : "; ") + m;
    return out;
}

PauseMeter::PauseMeter()
    : m_startUs(nowUs())
{
    std::tie(m_stealStart, m_totalStart) = stealAndTotal();
    m_thread = std::thread([this] {
        int64_t before = nowUs();
        while (!m_stop.load(std::memory_order_relaxed)) {
            const timespec ts { 0, SLEEP_US * 1000 };
            nanosleep(&ts, nullptr);
            const int64_t after = nowUs();
            const int64_t over = after - before - SLEEP_US;
            before = after;
            if (over < PAUSE_MIN_US) continue;
            m_pausedUs.fetch_add(over, std::memory_order_relaxed);
            if (over > m_longestUs.load(std::memory_order_relaxed)) m_longestUs.store(over, std::memory_order_relaxed);
        }
    });
}

PauseMeter::~PauseMeter()
{
    stop();
}

Pauses PauseMeter::stop()
{
    if (m_stopped) return m_result;
    m_stopped = true;
    m_stop = true;
    m_thread.join();
    const auto [steal, total] = stealAndTotal();
    m_result.elapsedMs = static_cast<double>(nowUs() - m_startUs) / 1000;
    m_result.pausedMs = static_cast<double>(m_pausedUs.load()) / 1000;
    m_result.longestMs = static_cast<double>(m_longestUs.load()) / 1000;
    if (total > m_totalStart)
        m_result.stealShare = static_cast<double>(steal - m_stealStart) / static_cast<double>(total - m_totalStart);
    return m_result;
}

} // namespace wb::test
