#pragma once
// How long the machine kept this process off its CPUs while a test measured time: a hypervisor's
// steal (13-45% on the CI machines at times), a host that swapped, a stop signal. A loader that
// is paused adds the pause to every latency in flight and falls behind its schedule, so a test
// that bounds a latency or a rate can only judge the bound on a run the machine let through.
//
// A thread sleeps 1 ms at a time and counts what it overslept (a busy neighbour process delays
// such a sleeper by well under PAUSE_MIN_MS: the scheduler favours a thread that slept), and the
// machine's steal is read from /proc/stat (a paused vCPU the sleeper was not on).
//
//   auto [r, pauses] = test::untilUnpaused(run, [](const RunResult& r) { return boundsOf(r).ok(); });
//   EXPECT_EQ(r.errors, 0u);                        // what no pause changes, always
//   const test::TimeBounds bounds = boundsOf(r);
//   if (!bounds.ok() && pauses.material()) GTEST_SKIP() << bounds.text() << "; " << pauses.text();
//   EXPECT_TRUE(bounds.ok()) << bounds.text();

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace wb::test {

/// What a PauseMeter saw over its life.
struct Pauses
{
    double elapsedMs = 0;
    double pausedMs = 0; ///< oversleeps of PAUSE_MIN_MS or more, summed
    double longestMs = 0;
    double stealShare = 0; ///< of the machine's CPU time, from /proc/stat
    /// Enough to move a p99 or a rate by more than the tests' bounds allow: pauses over 1% of
    /// the time, one of 20 ms, or 5% steal.
    bool material() const;
    std::string text() const; ///< "the machine paused this test 412 ms of 5020 (longest 23 ms), 38% steal: ..."
};

class PauseMeter
{
public:
    PauseMeter();
    ~PauseMeter();
    PauseMeter(const PauseMeter&) = delete;
    PauseMeter& operator=(const PauseMeter&) = delete;
    Pauses stop();

private:
    std::atomic<bool> m_stop { false };
    std::atomic<int64_t> m_pausedUs { 0 };
    std::atomic<int64_t> m_longestUs { 0 };
    int64_t m_startUs = 0;
    uint64_t m_stealStart = 0, m_totalStart = 0;
    std::thread m_thread;
    bool m_stopped = false;
    Pauses m_result;
};

/// Bounds on what a pause can move (a latency, a rate, a count by a deadline), checked together so a
/// test can tell a paused run from a wrong one before it fails.
class TimeBounds
{
public:
    void near(const std::string& what, double actual, double expected, double tolerance);
    void atLeast(const std::string& what, double actual, double bound);
    void atMost(const std::string& what, double actual, double bound);
    bool ok() const { return m_missed.empty(); }
    std::string text() const; ///< every bound missed, "p99 42.1 > 35 ms; ..."

private:
    std::vector<std::string> m_missed;
};

/// Runs attempt() up to `tries` times, again only while its result is not good(result) and
/// disturbed(result, pauses) says the machine disturbed it (a test whose child process measures its
/// own lateness adds that to the pauses seen here); returns the last result and what paused it.
template<class Attempt, class Good, class Disturbed>
auto untilUndisturbed(Attempt&& attempt, Good&& good, Disturbed&& disturbed, int tries = 3)
{
    for (int i = 1;; ++i) {
        PauseMeter meter;
        auto result = attempt();
        Pauses pauses = meter.stop();
        if (good(result) || i >= tries || !disturbed(result, pauses)) return std::make_pair(std::move(result), pauses);
    }
}

/// untilUndisturbed, disturbed when the machine paused the attempt materially.
template<class Attempt, class Good> auto untilUnpaused(Attempt&& attempt, Good&& good, int tries = 3)
{
    return untilUndisturbed(
        std::forward<Attempt>(attempt), std::forward<Good>(good),
        [](const auto&, const Pauses& pauses) { return pauses.material(); }, tries);
}

} // namespace wb::test
