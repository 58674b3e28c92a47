#pragma once
// One worker thread: an epoll loop driving its share of the connections.
// The wire protocol is each connection's ClientSession; the worker owns the
// sockets, the clock, the schedule, timeouts and what is measured.
// The hot path touches only this worker's state; interval data is handed to
// the run controller through a small mutex-protected queue once per interval.

#include "run/connection.h"
#include "run/loadercostmeter.h"
#include "run/loadplan.h"
#include "run/protocoldriver.h"
#include "run/requestsource.h"
#include "run/responsenoter.h"
#include "stats/entrystats.h"
#include "stats/snapshot.h"

#include <atomic>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

struct epoll_event;

namespace wb {

class Worker
{
public:
    /// workerIndex numbers the worker among all; its connections are the global
    /// slots workerIndex, workerIndex + threads, ... (so ramps and schedules interleave).
    Worker(const LoadPlan& plan, unsigned workerIndex, unsigned connectionCount);
    ~Worker();
    Worker(const Worker&) = delete;
    Worker& operator=(const Worker&) = delete;

    /// Creates the epoll instance and the wake-up eventfd.
    Status init();
    /// The thread body: runs until the plan's end time or a stop request.
    void run();
    /// Wakes the loop at once (async-signal-safe: one write to an eventfd).
    void wake();

    /// Intervals published so far (the controller waits for every worker).
    uint32_t publishedIntervals() const { return m_published.load(std::memory_order_acquire); }
    bool finished() const { return m_finished.load(std::memory_order_acquire); }
    /// Merges this worker's data for interval `index` into `into` and drops it
    /// from the queue (together with anything older, which cannot happen in order).
    void takeInterval(uint32_t index, IntervalSnapshot& into);

    // Read after the thread has been joined.
    const std::string& firstTlsError() const { return m_firstTlsError; }
    const std::string& firstConnectError() const { return m_firstConnectError; }
    uint64_t reconnects() const { return m_reconnects; }
    /// The run cannot go on (no local port left for a connect): why, once failed() says so.
    bool failed() const { return m_fatal.load(std::memory_order_acquire); }
    const std::string& failure() const { return m_fatalError; }
    /// Responses to requests sent during the warm-up (not measured, but the target served them).
    uint64_t warmupRequests() const { return m_warmupRequests; }
    /// A request mix: what each entry got over the measured run (read once the worker finished).
    const std::vector<EntryStats>& entryStats() const { return m_entries; }
    /// The lowest limit of requests in flight a server set below what was asked (HTTP/2's
    /// stream limit below --streams; 0 = none).
    uint32_t serverStreamLimit() const { return m_sessions->serverStreamLimit(); }
    /// HTTP/3: what this worker's connections learnt about QUIC (empty otherwise).
    QuicSummary quicSummary() const { return m_sessions->quicSummary(); }
    /// What the connections met: the first parse failure, server behaviour the sessions tolerated.
    ConnectionFacts connectionFacts() const;

private:
    class ResponseHandler;

    void connect(uint32_t index);
    void onEvent(uint32_t index, uint32_t events);
    void finishConnect(Connection& c);
    void onConnected(Connection& c);
    void continueHandshake(Connection& c);
    void startSession(Connection& c);
    void releaseHeld();
    /// The source asked this worker to stop sending (wrk's thread:stop()); stays true.
    bool threadStopped();
    bool startBatch(Connection& c, uint32_t requests);
    bool sendBatch(Connection& c, uint32_t requests);
    bool sendDue(Connection& c, uint64_t nowUs);
    bool flushWrite(Connection& c);
    bool afterWritable(Connection& c);
    void onReadable(Connection& c);
    enum class Consumed : uint8_t { Done, WithOutput, Gone };
    Consumed consume(Connection& c, size_t length);
    bool onResponse(Connection& c, const Completion& done);
    void recordNote(const ResponseNote& note, uint64_t latencyUs, uint64_t serviceUs, int status, uint64_t nowUs);
    void onPeerClosed(Connection& c);
    const SocketAddress* sourceFor(Connection& c) const;
    void armChurn(Connection& c);
    void spendRequests(Connection& c, uint32_t sent);
    void retire(Connection& c);
    /// Retires a connection marked closeAfterResponse once nothing is in flight; true when it did.
    bool retireIfIdle(Connection& c);
    void outOfPorts(Connection& c, const SocketAddress* source);
    void fail(Connection& c, uint64_t ErrorCounts::*kind, const std::string& reason);
    void recycle(Connection& c, bool backoff);
    void setWriteInterest(Connection& c, bool on);
    void housekeeping(uint64_t nowUs);
    void applyConnectionRamp(uint64_t nowUs);
    void retryIdle(uint64_t nowUs);
    void runDueTimers(uint64_t nowUs);
    void scheduleNext(Connection& c);
    void drain(::epoll_event* events, int maxEvents);
    // Datagram drivers (HTTP/3 over QUIC), in workerdatagram.cpp: a UDP socket per connection,
    // the QUIC handshake as the connect phase, the session's timers in a heap of their own.
    void connectDatagram(uint32_t index);
    void onDatagramEvent(Connection& c, uint32_t events);
    bool flushDatagrams(Connection& c);
    bool settleDatagram(Connection& c, SessionResult result);
    void failDatagram(Connection& c);
    void armSessionTimer(Connection& c);
    void runSessionTimers(uint64_t nowUs);
    void publishUpTo(uint64_t nowUs);
    void publishCurrent();
    bool measuring(uint64_t nowUs) const { return nowUs >= m_plan.measureStartUs; }
    uint32_t indexOf(const Connection& c) const { return static_cast<uint32_t>(&c - m_connections.data()); }
    uint64_t dueUsOf(uint64_t globalSequence) const;
    /// Connection i of worker w is global slot w + i * threads (a bijection onto [0, connections)).
    uint64_t globalSlotOf(const Connection& c) const
    {
        return m_workerIndex + static_cast<uint64_t>(indexOf(c)) * m_plan.config.threads;
    }

    /// A connection waiting for its next due time (open model) or for the end of its source's
    /// delay (closed model).
    struct DueTimer
    {
        uint64_t dueUs;
        uint32_t index;
        uint32_t generation;
        bool operator>(const DueTimer& o) const { return dueUs > o.dueUs; }
    };

    const LoadPlan& m_plan;
    std::vector<Connection> m_connections;
    SocketAddress m_address; ///< where this worker connects: the plan's, or its hooks' (wrk's thread.addr)
    std::vector<uint32_t> m_generation; ///< bumped per socket, tags epoll events so stale ones are ignored
    std::unique_ptr<RequestSource> m_source; ///< what each connection sends next
    /// --backend-from / --upstream-time: reads each response's note (in front of the caller's
    /// observer); null without them, and then no response is looked at for it.
    std::unique_ptr<ResponseNoter> m_noter;
    std::unique_ptr<SessionPool> m_sessions; ///< one session per connection, made by the run's driver
    std::vector<DueTimer> m_timers; ///< min-heap by due time (open model; closed: delays)
    /// Datagram sessions' own timers (QUIC's expiry), a min-heap; an entry is current while its
    /// connection's timerUs and generation still match it (stale ones are dropped when popped).
    std::vector<DueTimer> m_sessionTimers;
    uint64_t m_timersRunAtUs
        = 0; ///< while runSessionTimers runs: its now (a timer re-armed at or before it waits a turn)
    unsigned m_workerIndex = 0;
    unsigned m_enabledConnections = 0; ///< connections [0, this) may be open (all, unless a ramp limits them)
    int m_epollFd = -1;
    int m_wakeFd = -1;
    std::unique_ptr<char[]> m_readBuffer; ///< shared by all connections: responses are parsed, never stored
    unsigned m_idleWaiting = 0; ///< connections waiting in Idle to reconnect
    uint32_t m_edgeFlag = 0; ///< EPOLLET for plain sockets, 0 for TLS
    uint64_t m_spinUs = 0; ///< open model: poll instead of sleeping this long before a due send
    bool m_draining = false; ///< open model: after the end, awaiting responses to requests due before it
    bool m_delays = false; ///< closed model: the source pauses connections between batches (wrk's delay())
    bool m_sourceMayStop = false; ///< the source builds each request (a script): a build may stop the run
    bool m_sourceStops = false; ///< the source may stop this worker alone (a script's thread:stop())
    bool m_threadStopped = false; ///< it did: nothing more is sent, what is in flight is still read
    bool m_datagram = false; ///< the driver's transport is datagrams (HTTP/3): workerdatagram.cpp drives the sockets

    // Time keeping (monotonic microseconds).
    uint64_t m_nextTickUs = 0; ///< end of the current interval
    uint64_t m_nextHousekeepingUs = 0; ///< 100 ms cadence: timeouts and Req/Sec samples
    uint64_t m_nextRetryUs = UINT64_MAX;
    uint64_t m_lastSampleUs = 0;
    uint64_t m_requestsSinceSample = 0;

    IntervalSnapshot m_current; ///< what this worker measured in the current interval
    ThreadCostMeter m_cost; ///< this thread's own CPU and run-queue wait, read at each interval tick
    std::string m_firstTlsError;
    std::string m_firstConnectError;
    std::string m_firstParseError;
    uint64_t m_reconnects = 0;
    uint64_t m_churnCloses = 0; ///< connections retired on purpose (churn) while measuring
    std::string m_fatalError; ///< written once before m_fatal is set
    std::atomic<bool> m_fatal { false };
    uint64_t m_warmupRequests = 0;
    /// Closed model, common start: connections open and waiting for the load to start.
    std::vector<uint32_t> m_held;
    std::vector<EntryStats> m_entries; ///< per mix entry, the whole run (empty without a mix)
    /// A connection failed with requests in flight: the error is charged to the oldest one's entry.
    void chargeEntry(const Connection& c, uint64_t ErrorCounts::*kind, uint64_t count = 1);

    std::mutex m_queueMutex;
    std::deque<IntervalSnapshot> m_queue; ///< published, not yet taken by the controller
    std::atomic<uint32_t> m_published { 0 };
    std::atomic<bool> m_finished { false };
    /// -n: responses this worker still counts before it ends (UINT64_MAX: it ends with the run).
    uint64_t m_responsesLeft = UINT64_MAX;
    bool countReached() const { return m_responsesLeft == 0; }
    void shareCounted(uint64_t nowUs);
};

// Completions of one connection's session go to onResponse() (worker.cpp, workerdatagram.cpp).
class Worker::ResponseHandler final : public CompletionHandler
{
public:
    ResponseHandler(Worker& worker, Connection& connection)
        : m_worker(worker)
        , m_connection(connection)
    { }
    bool onCompletion(const Completion& done) override { return m_worker.onResponse(m_connection, done); }

private:
    Worker& m_worker;
    Connection& m_connection;
};

} // namespace wb
