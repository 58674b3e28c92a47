#pragma once
// One blocking piece of work on its own std::thread, with what it reports handed to the UI thread: the pattern of
// RunTask, ProbeTask and ExperimentTask, so the UI thread never waits for the engine. The body posts events to a
// mutex-protected queue that a QTimer drains every drainInterval; cancel() sets a flag and calls the hook the body
// registered (Context::onCancel). Everything but Context runs on the thread that made the job, which needs an event
// loop. Events arrive in the order posted, all before the result; onFinished runs with the thread joined, so it may
// start() again. The destructor cancels and joins, dropping what was not delivered. Handlers must not destroy the job
// (deleteLater its owner instead).

#include <QTimer>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <variant>

namespace wb::ui {

template<typename Result, typename Event = std::monostate> class BackgroundJob
{
    struct State
    {
        std::mutex mutex;
        std::condition_variable doneChanged;
        std::deque<Event> events;
        std::optional<Result> result;
        std::function<void()> cancelHook; ///< what cancel() calls besides the flag; guarded by mutex
        std::atomic<bool> cancelled { false };
        bool done = false; ///< body returned and result is set
    };

public:
    /// Until it is destroyed, cancel() also calls the hook it was made with.
    class [[nodiscard]] CancelHook
    {
    public:
        explicit CancelHook(State& state)
            : m_state(&state)
        { }
        CancelHook(const CancelHook&) = delete;
        CancelHook& operator=(const CancelHook&) = delete;
        ~CancelHook()
        {
            // Under the lock: once this returns, cancel() can no longer reach the hook's object.
            std::lock_guard lock(m_state->mutex);
            m_state->cancelHook = nullptr;
        }

    private:
        State* m_state;
    };

    /// What the body sees, on the job thread.
    class Context
    {
    public:
        explicit Context(State& state)
            : m_state(state)
        { }
        /// Queues event for onEvent on the UI thread. Never blocks for long.
        void post(Event event)
        {
            std::lock_guard lock(m_state.mutex);
            m_state.events.push_back(std::move(event));
        }
        bool isCancelled() const { return m_state.cancelled.load(); }
        /// The cancel flag itself, for code that polls one (ProbeOptions::cancel).
        const std::atomic<bool>& cancelFlag() const { return m_state.cancelled; }
        /// cancel() calls hook (under the job's lock, from the UI thread) until the
        /// returned guard goes; at once when cancel() came first. Keep it idempotent.
        CancelHook onCancel(std::function<void()> hook)
        {
            std::lock_guard lock(m_state.mutex);
            if (m_state.cancelled.load()) hook();
            m_state.cancelHook = std::move(hook);
            return CancelHook(m_state);
        }

    private:
        State& m_state;
    };

    using Body = std::function<Result(Context&)>;
    using EventHandler = std::function<void(Event&)>;
    using FinishedHandler = std::function<void(Result&)>;

    static constexpr int DEFAULT_DRAIN_MS = 100; ///< at most 10 UI updates a second

    /// onEvent may be null when the job posts no events.
    BackgroundJob(EventHandler onEvent, FinishedHandler onFinished, int drainIntervalMs = DEFAULT_DRAIN_MS)
        : m_onEvent(std::move(onEvent))
        , m_onFinished(std::move(onFinished))
    {
        m_drain.setInterval(drainIntervalMs);
        QObject::connect(&m_drain, &QTimer::timeout, [this] { drain(); });
    }
    BackgroundJob(const BackgroundJob&) = delete;
    BackgroundJob& operator=(const BackgroundJob&) = delete;
    ~BackgroundJob()
    {
        if (!m_thread.joinable()) return;
        cancel();
        m_thread.join(); // its queued wake-up goes with m_drain
    }

    /// Runs body on a new thread. False while a previous one is running (its result not delivered yet).
    bool start(Body body)
    {
        if (m_running) return false;
        if (m_thread.joinable()) m_thread.join(); // ended, and its result was delivered
        m_state = std::make_unique<State>();
        m_pending.clear();
        m_result.reset();
        m_running = true;
        m_thread = std::thread([this, state = m_state.get(), body = std::move(body)] {
            Context context(*state);
            Result result = body(context);
            {
                std::lock_guard lock(state->mutex);
                state->result = std::move(result);
                state->done = true;
            }
            state->doneChanged.notify_all();
            // The destructor joins this thread before m_drain goes, and a QObject drops
            // its queued calls when destroyed: `this` is valid whenever this call runs.
            QMetaObject::invokeMethod(
                &m_drain, [this] { drain(); }, Qt::QueuedConnection);
        });
        m_drain.start();
        return true;
    }

    /// Sets the cancel flag and calls the body's cancel hook, if any. The result still follows.
    void cancel()
    {
        if (!m_state) return;
        std::lock_guard lock(m_state->mutex);
        m_state->cancelled = true;
        if (m_state->cancelHook) m_state->cancelHook();
    }

    /// How often queued events are delivered (a running timer restarts with it).
    void setDrainInterval(int ms) { m_drain.setInterval(ms); }
    int drainInterval() const { return m_drain.interval(); }

    /// Started, and its result not delivered yet.
    bool isRunning() const { return m_running; }
    bool isCancelled() const { return m_state && m_state->cancelled.load(); }
    /// The body has returned (its events and result may still wait for delivery).
    bool isDone() const
    {
        if (!m_state) return false;
        std::lock_guard lock(m_state->mutex);
        return m_state->done;
    }

    /// Blocks until the body has returned, then delivers what it left (onFinished
    /// included). False on timeout, with nothing delivered.
    bool waitForFinished(int timeoutMs = 10'000)
    {
        if (!m_running) return true;
        {
            std::unique_lock lock(m_state->mutex);
            if (!m_state->doneChanged.wait_for(
                    lock, std::chrono::milliseconds(timeoutMs), [this] { return m_state->done; }))
                return false;
        }
        drain();
        return true;
    }

    /// Delivers the queued events, then the result once the body has returned.
    /// The timer calls it; a handler calling it again (through waitForFinished) is safe.
    void drain()
    {
        if (!m_state) return;
        {
            std::lock_guard lock(m_state->mutex);
            for (Event& event : m_state->events)
                m_pending.push_back(std::move(event));
            m_state->events.clear();
            if (m_state->result) {
                m_result = std::move(m_state->result);
                m_state->result.reset();
            }
        }
        while (!m_pending.empty()) {
            Event event = std::move(m_pending.front());
            m_pending.pop_front();
            if (m_onEvent) m_onEvent(event);
        }
        if (!m_result) return;
        Result result = std::move(*m_result);
        m_result.reset();
        m_drain.stop();
        if (m_thread.joinable()) m_thread.join(); // it has set its result: returns at once
        m_running = false;
        if (m_onFinished) m_onFinished(result);
    }

private:
    EventHandler m_onEvent;
    FinishedHandler m_onFinished;
    std::unique_ptr<State> m_state; ///< one per start(); kept after the end for isDone()/isCancelled()
    std::deque<Event> m_pending; ///< taken from the queue, not delivered yet (a handler may re-enter drain())
    std::optional<Result> m_result; ///< taken from the queue, delivered after m_pending
    bool m_running = false;
    QTimer m_drain;
    std::thread m_thread; ///< joined by the destructor's body, before any member goes
};

} // namespace wb::ui
