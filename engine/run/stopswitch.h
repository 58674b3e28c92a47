#pragma once
// A stop that can be pulled from any thread or a signal handler, before or
// during a run: the CLI's Ctrl-C, the GUI's Stop, an experiment's cancel. The
// run in progress attaches its controller; pull() stops it at once, or, pulled
// before the load starts, the run ends before it begins. The pre-run probe
// watches flag().
//
// pull() marks itself busy before it reads the controller pointer, and detach()
// waits for that mark to clear, so a controller is never used after it is gone.

#include "run/runcontroller.h"

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
        if (RunController* controller = m_controller.load()) controller->stop();
        m_busy.fetch_sub(1);
    }
    bool pulled() const { return m_pulled.load(); }
    /// For the probe's cancel flag.
    const std::atomic<bool>& flag() const { return m_pulled; }
    /// Pulls are possible again (a new run of the same experiment).
    void reset() { m_pulled.store(false); }

    /// The run that pull() must stop from now on; a pull that came earlier stops it at once.
    void attach(RunController& controller)
    {
        m_controller.store(&controller);
        if (m_pulled.load()) controller.stop();
    }
    /// Before the controller goes away.
    void detach()
    {
        m_controller.store(nullptr);
        while (m_busy.load() != 0)
            std::this_thread::yield();
    }

private:
    std::atomic<bool> m_pulled { false };
    std::atomic<RunController*> m_controller { nullptr };
    std::atomic<int> m_busy { 0 };
    static_assert(std::atomic<RunController*>::is_always_lock_free && std::atomic<int>::is_always_lock_free
            && std::atomic<bool>::is_always_lock_free,
        "pull() must be async-signal-safe");
};

} // namespace wb
