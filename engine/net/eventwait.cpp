#include "net/eventwait.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <ctime>

namespace wb {

namespace {
std::atomic<bool> g_havePwait2 { true };
}

int waitForEvents(int epollFd, epoll_event* events, int maxEvents, int64_t timeoutNs)
{
    if (g_havePwait2.load(std::memory_order_relaxed)) {
        const timespec ts { static_cast<time_t>(timeoutNs / 1'000'000'000),
            static_cast<long>(timeoutNs % 1'000'000'000) };
        const int n = epoll_pwait2(epollFd, events, maxEvents, timeoutNs < 0 ? nullptr : &ts, nullptr);
        if (n >= 0 || errno != ENOSYS) return n;
        g_havePwait2.store(false, std::memory_order_relaxed);
    }
    const int timeoutMs = timeoutNs < 0
        ? -1
        : static_cast<int>(std::min<int64_t>((timeoutNs + 999'999) / 1'000'000, int64_t { 1 } << 30));
    return epoll_wait(epollFd, events, maxEvents, timeoutMs);
}

} // namespace wb
