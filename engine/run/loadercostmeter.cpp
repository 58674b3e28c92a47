#include "run/loadercostmeter.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

namespace wb {

namespace {

uint64_t microseconds(const timeval& tv)
{
    return static_cast<uint64_t>(tv.tv_sec) * 1'000'000u + static_cast<uint64_t>(tv.tv_usec);
}

uint64_t since(uint64_t now, uint64_t before)
{
    return now > before ? now - before : 0; // a counter read by another means may step back by a tick
}

uint64_t ticksToUs(uint64_t ticks)
{
    static const long TICKS_PER_S = [] {
        const long hz = sysconf(_SC_CLK_TCK);
        return hz > 0 ? hz : 100;
    }();
    return ticks * 1'000'000u / static_cast<uint64_t>(TICKS_PER_S);
}

} // namespace

ThreadCostMeter::~ThreadCostMeter()
{
    if (m_schedstatFd >= 0) ::close(m_schedstatFd);
}

void ThreadCostMeter::start(uint64_t nowUs)
{
    // "cpu time (ns), run-queue wait (ns), timeslices": present where the kernel has
    // CONFIG_SCHED_INFO (Debian's does); without it the wait stays 0 and only CPU time counts.
    if (m_schedstatFd < 0) m_schedstatFd = ::open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
    m_last = read(nowUs);
    m_started = true;
}

ThreadCostMeter::Reading ThreadCostMeter::read(uint64_t nowUs) const
{
    Reading r;
    r.wallUs = nowUs;
    timespec ts {};
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
        r.cpuUs = static_cast<uint64_t>(ts.tv_sec) * 1'000'000u + static_cast<uint64_t>(ts.tv_nsec) / 1000u;
    rusage usage {};
    if (getrusage(RUSAGE_THREAD, &usage) == 0) r.involuntarySwitches = static_cast<uint64_t>(usage.ru_nivcsw);
    if (m_schedstatFd >= 0) {
        char text[96];
        const ssize_t n = ::pread(m_schedstatFd, text, sizeof text - 1, 0);
        if (n > 0) {
            text[n] = '\0';
            char* end = nullptr;
            std::strtoull(text, &end, 10); // the CPU time: CLOCK_THREAD_CPUTIME_ID has it
            r.waitUs = std::strtoull(end, nullptr, 10) / 1000u;
        }
    }
    return r;
}

void ThreadCostMeter::takeInto(LoaderCost& into, uint64_t nowUs)
{
    if (!m_started) return;
    const Reading now = read(nowUs);
    into.workerWallUs += since(now.wallUs, m_last.wallUs);
    into.workerCpuUs += since(now.cpuUs, m_last.cpuUs);
    into.workerWaitUs += since(now.waitUs, m_last.waitUs);
    into.workerInvoluntarySwitches += since(now.involuntarySwitches, m_last.involuntarySwitches);
    m_last = now;
}

bool parseProcStatCpuLine(const char* text, MachineTicks& out)
{
    if (std::strncmp(text, "cpu ", 4) != 0) return false;
    const char* p = text + 4;
    // user nice system idle iowait irq softirq steal (guest and guest_nice are inside user and nice)
    uint64_t field[8] = {};
    int count = 0;
    for (; count < 8; ++count) {
        char* end = nullptr;
        field[count] = std::strtoull(p, &end, 10);
        if (end == p) break;
        p = end;
    }
    if (count < 4) return false;
    out.total = 0;
    for (int i = 0; i < count; ++i)
        out.total += field[i];
    out.busy = field[0] + field[1] + field[2] + field[5] + field[6];
    out.steal = field[7];
    return true;
}

void ProcessCostMeter::start(uint64_t nowUs)
{
    m_last = read(nowUs);
    m_started = true;
}

ProcessCostMeter::Reading ProcessCostMeter::read(uint64_t nowUs)
{
    Reading r;
    r.wallUs = nowUs;
    rusage usage {};
    if (getrusage(RUSAGE_SELF, &usage) == 0) {
        r.cpuUs = microseconds(usage.ru_utime) + microseconds(usage.ru_stime);
        r.involuntarySwitches = static_cast<uint64_t>(usage.ru_nivcsw);
    }
    if (std::FILE* f = std::fopen("/proc/stat", "re")) {
        char line[256];
        MachineTicks ticks;
        if (std::fgets(line, sizeof line, f) && parseProcStatCpuLine(line, ticks)) {
            r.machineTicks = ticks.total;
            r.busyTicks = ticks.busy;
            r.stealTicks = ticks.steal;
        }
        std::fclose(f);
    }
    return r;
}

void ProcessCostMeter::takeInto(LoaderCost& into, uint64_t nowUs)
{
    if (!m_started) return;
    const Reading now = read(nowUs);
    into.processWallUs += since(now.wallUs, m_last.wallUs);
    into.processCpuUs += since(now.cpuUs, m_last.cpuUs);
    into.processInvoluntarySwitches += since(now.involuntarySwitches, m_last.involuntarySwitches);
    into.machineCpuUs += ticksToUs(since(now.machineTicks, m_last.machineTicks));
    into.machineBusyUs += ticksToUs(since(now.busyTicks, m_last.busyTicks));
    into.machineStealUs += ticksToUs(since(now.stealTicks, m_last.stealTicks));
    const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    into.machineCpus = std::max<uint32_t>(into.machineCpus, cpus > 0 ? static_cast<uint32_t>(cpus) : 0);
    m_last = now;
}

} // namespace wb
