#pragma once
// serve --capacity: a target whose capacity is known in advance. Requests are admitted at a fixed
// rate by the generic cell rate algorithm (a token bucket kept as one "theoretical arrival time"),
// shared by every loop thread through one atomic, so the whole server carries the rate however
// many threads serve it. Beyond it a request is refused at once (503, the connection kept, as
// nginx's limit_req answers) or, queued, answered when its turn comes: a server that keeps up
// with nothing beyond its rate and makes the excess wait, so a latency SLO breaks instead.

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>

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

/// What a built-in server admits: its own rate (--capacity) and the route /capacity/N's, N req/s
/// for the requests to that path (refused beyond, never queued): a front door of known capacity
/// the window's demo session reaches without starting a server of its own.
class Admissions
{
public:
    /// Distinct /capacity/N rates one server keeps; a request for another rate is refused.
    static constexpr size_t MAX_ROUTE_RATES = 16;

    void configure(double ratePerS, bool queue) { m_server.configure(ratePerS, queue); }
    bool enabled() const { return m_server.enabled(); }
    /// -1 when refused, else how long the answer waits. routeRatePerS > 0: a /capacity/N request.
    int64_t admit(int64_t nowNs, uint64_t routeRatePerS = 0)
    {
        if (routeRatePerS > 0) {
            Admission* route = routeAdmission(routeRatePerS);
            if (!route || route->admit(nowNs) < 0) return -1;
        }
        return m_server.admit(nowNs);
    }

private:
    Admission* routeAdmission(uint64_t ratePerS)
    {
        std::lock_guard lock(m_mutex);
        for (size_t i = 0; i < m_routeCount; ++i)
            if (m_routes[i].first == ratePerS) return m_routes[i].second.get();
        if (m_routeCount == MAX_ROUTE_RATES) return nullptr;
        auto admission = std::make_unique<Admission>();
        admission->configure(static_cast<double>(ratePerS), false);
        m_routes[m_routeCount] = { ratePerS, std::move(admission) };
        return m_routes[m_routeCount++].second.get();
    }

    Admission m_server;
    std::mutex m_mutex; // guards the route table's growth; each Admission admits lock-free
    std::array<std::pair<uint64_t, std::unique_ptr<Admission>>, MAX_ROUTE_RATES> m_routes;
    size_t m_routeCount = 0;
};

} // namespace wb::serve
