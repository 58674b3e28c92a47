#pragma once

#include <cstdint>
#include <limits>
#include <sys/epoll.h>

namespace wb {

/// No deadline: wait until an event arrives.
inline constexpr int64_t WAIT_FOREVER_NS = -1;

/// epoll_wait with a nanosecond timeout. The open model's schedule and the built-in server's
/// delays need sub-millisecond waits, which only epoll_pwait2 (Linux 5.11) gives. Where it is
/// missing (older kernels, as on some loader VMs and Kubernetes nodes, or under valgrind) the
/// first call finds out and every later call waits with epoll_wait, the timeout rounded up to the
/// next millisecond so a due event is never early. Returns what epoll_wait returns.
int waitForEvents(int epollFd, epoll_event* events, int maxEvents, int64_t timeoutNs);

} // namespace wb
