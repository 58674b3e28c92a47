#pragma once
// The engine's one clock: CLOCK_MONOTONIC in microseconds (a vDSO call, ~20 ns).

#include <cstdint>
#include <ctime>

namespace wb {

inline uint64_t monotonicNowUs()
{
    timespec ts {};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<uint64_t>(ts.tv_sec) * 1'000'000u + static_cast<uint64_t>(ts.tv_nsec) / 1000u;
}

} // namespace wb
