#pragma once
// A stop that can be pulled from any thread or a signal handler, before or
// during a run: the CLI's Ctrl-C, the GUI's Stop, an experiment's cancel. The
// run in progress attaches its runner; pull() stops it at once, or, pulled
// before the load starts, the run ends before it begins. The pre-run probe
// watches flag().
//
// pull() marks itself busy before it reads the runner pointer, and detach()
// waits for that mark to clear, so a runner is never used after it is gone.

#include "run/loadrunner.h"

#include <atomic>
#include <thread>

namespace wb {

class StopSwitch
{
public:
    /// Async-signal-safe (lock-free atomics only).
    void pull()
    {
        m_pulled.store(true);
        m_busy.fetch_add(1);
        if (LoadRunner* runner = m_runner.load()) runner->stop();
        m_busy.fetch_sub(1);
    }
    bool pulled() const { return m_pulled.load(); }
    /// For the probe's cancel flag.
    const std::atomic<bool>& flag() const { return m_pulled; }
    /// Pulls are possible again (a new run of the same experiment).
    void reset() { m_pulled.store(false); }

    /// The run that pull() must stop from now on; a pull that came earlier stops it at once.
    void attach(LoadRunner& runner)
    {
        m_runner.store(&runner);
        if (m_pulled.load()) runner.stop();
    }
    /// Before the runner goes away.
    void detach()
    {
        m_runner.store(nullptr);
        while (m_busy.load() != 0)
            std::this_thread::yield();
    }

private:
    std::atomic<bool> m_pulled { false };
    std::atomic<LoadRunner*> m_runner { nullptr };
    std::atomic<int> m_busy { 0 };
    static_assert(std::atomic<LoadRunner*>::is_always_lock_free && std::atomic<int>::is_always_lock_free
            && std::atomic<bool>::is_always_lock_free,
        "pull() must be async-signal-safe");
};

} // namespace wb
