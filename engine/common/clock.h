#pragma once
// The engine's clocks: CLOCK_MONOTONIC in microseconds (a vDSO call, ~20 ns) for
// everything measured, and the wall clock in milliseconds for what a person or
// another loader reads (when a run or an interval began).

#include <cstdint>
#include <ctime>

namespace wb {

inline uint64_t monotonicNowUs()
{
    timespec ts {};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<uint64_t>(ts.tv_sec) * 1'000'000u + static_cast<uint64_t>(ts.tv_nsec) / 1000u;
}

/// Milliseconds since the Unix epoch, now.
inline int64_t wallClockNowMs()
{
    timespec ts {};
    clock_gettime(CLOCK_REALTIME, &ts);
    return static_cast<int64_t>(ts.tv_sec) * 1000 + static_cast<int64_t>(ts.tv_nsec) / 1'000'000;
}

/// Microseconds since the Unix epoch, now (a common start of several loaders).
inline int64_t wallClockNowUs()
{
    timespec ts {};
    clock_gettime(CLOCK_REALTIME, &ts);
    return static_cast<int64_t>(ts.tv_sec) * 1'000'000 + static_cast<int64_t>(ts.tv_nsec) / 1000;
}

} // namespace wb
