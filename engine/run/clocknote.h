#pragma once
// Whether this machine's wall clock can be trusted to agree with other loaders':
// a common start (--start-at) is only as good as the loaders' clocks. Read from
// the kernel's NTP state (adjtimex), which chrony, ntpd and systemd-timesyncd set.

#include <string>

namespace wb {

/// One line for the loaders table, e.g. "synchronized (est. error 0.3 ms, max 12 ms)" or
/// "not synchronized".
std::string systemClockNote();

} // namespace wb
