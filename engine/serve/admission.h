#pragma once
// serve --capacity: a target whose capacity is known in advance. Requests are admitted at a fixed
// rate by the generic cell rate algorithm (a token bucket kept as one "theoretical arrival time"),
// shared by every loop thread through one atomic, so the whole server carries the rate however
// many threads serve it. Beyond it a request is refused at once (503, the connection kept, as
// nginx's limit_req answers) or, queued, answered when its turn comes: a server that keeps up
// with nothing beyond its rate and makes the excess wait, so a latency SLO breaks instead.

#include <algorithm>
#include <atomic>
#include <cstdint>

namespace wb::serve {

class Admission
{
public:
    /// The burst a request may arrive early by without being refused or held: a loader's
    /// scheduling jitter, not a second rate. 10 ms of the rate, at least one request's interval.
    static constexpr int64_t BURST_NS = 10'000'000;
    /// Queued answers wait at most this long; a request that would wait longer is refused.
    static constexpr int64_t MAX_QUEUE_NS = 30'000'000'000;

    /// ratePerS <= 0: admission off (every request admitted at once).
    void configure(double ratePerS, bool queue)
    {
        m_intervalNs = ratePerS > 0 ? std::max<int64_t>(1, static_cast<int64_t>(1e9 / ratePerS)) : 0;
        m_toleranceNs = std::max(BURST_NS, m_intervalNs);
        m_queue = queue;
    }
    bool enabled() const { return m_intervalNs > 0; }

    /// A request arriving at nowNs: -1 when it is refused, else how long its answer waits (0 at once).
    int64_t admit(int64_t nowNs)
    {
        if (m_intervalNs == 0) return 0;
        int64_t tat = m_tatNs.load(std::memory_order_relaxed);
        for (;;) {
            const int64_t start = std::max(tat, nowNs);
            const int64_t waitNs = std::max<int64_t>(0, start - nowNs - m_toleranceNs);
            if (waitNs > 0 && (!m_queue || waitNs > MAX_QUEUE_NS)) return -1;
            // Only the admitted move the arrival time: a refused request costs the rate nothing.
            if (m_tatNs.compare_exchange_weak(tat, start + m_intervalNs, std::memory_order_relaxed)) return waitNs;
        }
    }

private:
    int64_t m_intervalNs = 0; // one request's share of a second at the rate
    int64_t m_toleranceNs = 0;
    bool m_queue = false;
    std::atomic<int64_t> m_tatNs { 0 }; // when the bucket is empty again ("theoretical arrival time")
};

} // namespace wb::serve
