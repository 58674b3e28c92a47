#include "run/runcontroller.h"

#include "common/clock.h"
#include "net/socket.h"
#include "net/tlstransport.h"
#include "run/filelimit.h"
#include "run/protocoldriver.h"
#include "run/shard.h"
#include "run/worker.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstring>
#include <poll.h>
#include <thread>
#include <unistd.h>

namespace wb {

const char* engineVersion()
{
    return WB_VERSION;
}

namespace {
constexpr uint64_t CONTROLLER_POLL_US = 5'000;

/// TLS handshake on a connected non-blocking socket, waiting at most timeoutMs.
Status handshakeWithin(TlsTransport& tls, int fd, int timeoutMs)
{
    const uint64_t deadlineUs = monotonicNowUs() + static_cast<uint64_t>(timeoutMs) * 1000;
    for (;;) {
        const IoStatus st = tls.handshake();
        if (st == IoStatus::Ok) return {};
        if (st != IoStatus::WantRead && st != IoStatus::WantWrite)
            return Error { tls.lastError().empty() ? "TLS handshake failed" : tls.lastError() };
        const uint64_t now = monotonicNowUs();
        if (now >= deadlineUs) return Error { "TLS handshake timed out" };
        pollfd p { fd, static_cast<short>(st == IoStatus::WantRead ? POLLIN : POLLOUT), 0 };
        ::poll(&p, 1, static_cast<int>((deadlineUs - now) / 1000 + 1));
    }
}
} // namespace

RunController::RunController(RunConfig config)
{
    m_plan.config = config.normalized();
}

RunController::~RunController() = default;

Status RunController::prepare()
{
    const RunConfig& cfg = m_plan.config;
    if (auto st = cfg.validate(); !st) return st;
    if (auto st = ensureFileDescriptors(cfg.connections, cfg.threads); !st) return st;
    // OpenSSL writes with write(2); a peer reset must be an error code, not a signal.
    std::signal(SIGPIPE, SIG_IGN);

    const Url& url = cfg.request.url;
    auto addresses = resolveHost(url.host, url.port);
    if (!addresses) return Error { addresses.error() };
    if (auto st = prepareSources(*addresses); !st) return st;
    // Everything that depends on the protocol is its driver's: ALPN, warnings, the pre-run check, sessions.
    m_plan.driver = &protocolDriverFor(cfg.httpVersion);
    // A datagram driver (HTTP/3) does its TLS inside QUIC's handshake: no OpenSSL context.
    if (url.isTls() && m_plan.driver->transport() == TransportKind::Stream) {
        // The run offers its driver's protocol alone; the pre-run check may offer more, to say what the server picks.
        auto tls = TlsContext::create({ cfg.tls.verifyPeer, cfg.tls.caFile, { m_plan.driver->alpn() } });
        if (!tls) return Error { tls.error() };
        m_plan.tls = *tls;
        m_plan.serverName = url.host;
    }
    m_warnings = m_plan.driver->requestWarnings(cfg.requests());
    if (auto st = preflight(*addresses); !st) return st;

    if (cfg.openModel()) {
        m_plan.schedule = std::make_unique<RateSchedule>(
            cfg.ratePerS, cfg.stagesAreConnections ? std::vector<Stage> {} : cfg.stages);
    }

    if (!cfg.mix.empty()) {
        std::vector<double> weights;
        for (const MixRequest& e : cfg.mix.entries)
            weights.push_back(e.weight);
        m_plan.mix = std::make_unique<MixTable>(weights, cfg.mix.order);
    }

    m_workers.clear();
    for (unsigned t = 0; t < cfg.threads; ++t) {
        const auto share = static_cast<unsigned>(evenShare(cfg.connections, cfg.threads, t));
        auto worker = std::make_unique<Worker>(m_plan, t, share);
        if (auto st = worker->init(); !st) return st;
        m_workers.push_back(std::move(worker));
    }
    m_prepared = true;
    return {};
}

// --source: each address must be this machine's and of a family the target has; the target's
// addresses of the other family are not tried.
Status RunController::prepareSources(std::vector<SocketAddress>& targets)
{
    m_plan.sources.clear();
    if (m_plan.config.sourceAddresses.empty()) return {};
    const bool datagram = m_plan.config.http3();
    for (const std::string& text : m_plan.config.sourceAddresses) {
        auto source = parseHostAddress(text);
        if (!source) return Error { "--source: " + source.error() };
        if (!m_plan.sources.empty() && source->family() != m_plan.sources.front().family())
            return Error { "--source: mix no IPv4 and IPv6 addresses (" + text + ")" };
        const int fd = ::socket(source->family(), (datagram ? SOCK_DGRAM : SOCK_STREAM) | SOCK_CLOEXEC, 0);
        const bool bound = fd >= 0 && ::bind(fd, source->get(), source->length) == 0;
        const int err = errno;
        if (fd >= 0) ::close(fd);
        if (!bound)
            return Error { "--source " + text + ": "
                + (err == EADDRNOTAVAIL ? std::string("not an address of this machine") : std::strerror(err)) };
        m_plan.sources.push_back(*source);
    }
    const int family = m_plan.sources.front().family();
    std::erase_if(targets, [family](const SocketAddress& a) { return a.family() != family; });
    if (targets.empty())
        return Error { std::string("--source: ") + m_plan.config.request.url.host + " has no "
            + (family == AF_INET ? "IPv4" : "IPv6") + " address to reach from the source addresses" };
    return {};
}

Status RunController::preflight(const std::vector<SocketAddress>& addresses)
{
    const int timeoutMs = static_cast<int>(m_plan.config.connectTimeoutUs / 1000);
    std::string firstError;
    for (const SocketAddress& address : addresses) {
        if (m_plan.driver->transport() == TransportKind::Datagram) {
            // UDP says nothing until the handshake does: a failure is this address's; the next may answer.
            const Status st = m_plan.driver->preflightDatagram(m_plan.config, address, timeoutMs, m_warnings);
            if (st) {
                m_plan.address = address;
                return {};
            }
            if (firstError.empty()) firstError = st.error();
            continue;
        }
        auto fd = connectWithTimeout(address, timeoutMs, m_plan.sources.empty() ? nullptr : &m_plan.sources.front());
        if (!fd) {
            if (firstError.empty()) firstError = fd.error();
            continue;
        }
        const ProtocolDriver& driver = *m_plan.driver;
        Status st;
        TlsTransport tls;
        if (m_plan.tls) {
            std::shared_ptr<TlsContext> context = m_plan.tls;
            const std::vector<std::string> offered = driver.preflightAlpn();
            if (offered != std::vector<std::string> { driver.alpn() }) {
                auto wider = TlsContext::create({ m_plan.config.tls.verifyPeer, m_plan.config.tls.caFile, offered });
                if (!wider) return Error { wider.error() };
                context = *wider;
            }
            st = tls.attach(*context, *fd, m_plan.serverName) ? handshakeWithin(tls, *fd, timeoutMs)
                                                              : Status(Error { tls.lastError() });
            if (!st) st = Error { "TLS handshake with " + address.toString() + " failed: " + st.error() };
            if (st && driver.requiresAlpn() && tls.negotiatedProtocol() != driver.alpn()) {
                const std::string chose(tls.negotiatedProtocol());
                std::string list;
                for (const std::string& id : offered)
                    list += (list.empty() ? "" : " and ") + id;
                st = Error { address.toString() + " does not speak " + driver.name() + ": offered " + list
                    + " by ALPN, the server " + (chose.empty() ? std::string("selected none") : "selected " + chose) };
            }
        }
        if (st) {
            const Status checked
                = driver.preflight(m_plan.config, { *fd, m_plan.tls ? &tls : nullptr, timeoutMs }, m_warnings);
            if (!checked) st = Error { address.toString() + ": " + checked.error() };
        }
        tls.detach();
        ::close(*fd);
        if (!st) return st; // a TLS problem is the target's, not this address's
        m_plan.address = address;
        return {};
    }
    return Error { firstError };
}

void RunController::stop()
{
    // Only an atomic store and write(2): safe from a signal handler.
    uint64_t expected = UINT64_MAX;
    m_plan.stopAtUs.compare_exchange_strong(expected, monotonicNowUs());
    m_plan.stopRequested.store(true);
    for (auto& w : m_workers)
        w->wake();
}

RunResult RunController::run()
{
    const RunConfig& cfg = m_plan.config;
    RunFold fold(cfg);
    RunEnd end;
    end.engineVersion = engineVersion();
    end.protocol = protocolId(cfg.httpVersion, cfg.request.url.isTls());
    if (!m_prepared) return fold.finish(end);

    if (m_startAtUnixUs > 0) {
        // A common start: the connections open CONNECT_LEAD_US before the load starts, the load
        // (the warm-up, if any) starts warmupUs before measurement, and measurement at the start
        // instant. Until the load starts a connection sends nothing: every request a loader sends
        // is counted, or counted as warm-up.
        const int64_t leadUs = static_cast<int64_t>(cfg.warmupUs + CONNECT_LEAD_US);
        while (!m_plan.stopRequested.load()) {
            const int64_t waitUs = m_startAtUnixUs - leadUs - wallClockNowUs();
            if (waitUs <= 0) break;
            std::this_thread::sleep_for(std::chrono::microseconds(std::min<int64_t>(waitUs, 50'000)));
        }
        const uint64_t nowUs = monotonicNowUs();
        const int64_t untilStartUs = m_startAtUnixUs - wallClockNowUs();
        m_plan.measureStartUs = nowUs + static_cast<uint64_t>(std::max<int64_t>(untilStartUs, 0));
        m_plan.startUs = std::max(nowUs, m_plan.measureStartUs - std::min(m_plan.measureStartUs, cfg.warmupUs));
        m_measureStartUnixMs = std::max(m_startAtUnixUs, wallClockNowUs()) / 1000;
    } else {
        m_plan.startUs = monotonicNowUs();
        m_plan.measureStartUs = m_plan.startUs + cfg.warmupUs;
        m_measureStartUnixMs = wallClockNowMs() + static_cast<int64_t>(cfg.warmupUs / 1000);
    }
    m_plan.endUs = m_plan.measureStartUs + cfg.durationUs;
    end.measureStartUnixMs = m_measureStartUnixMs;
    for (auto* o : m_observers)
        o->onStarted(cfg);

    std::vector<std::thread> threads;
    threads.reserve(m_workers.size());
    for (auto& w : m_workers)
        threads.emplace_back([&w] { w->run(); });

    uint32_t next = 0;
    for (;;) {
        if (!m_processCost.started() && monotonicNowUs() >= m_plan.measureStartUs)
            m_processCost.start(monotonicNowUs());
        // Read "finished" before "published": a worker publishes its last interval, then finishes.
        const bool allFinished = std::all_of(m_workers.begin(), m_workers.end(), [](auto& w) { return w->finished(); });
        const bool allReady = std::all_of(m_workers.begin(), m_workers.end(),
            [&](auto& w) { return w->finished() || w->publishedIntervals() > next; });
        const bool anyData
            = std::any_of(m_workers.begin(), m_workers.end(), [&](auto& w) { return w->publishedIntervals() > next; });
        if (allReady && anyData) {
            mergeInterval(
                next++, std::min({ m_plan.stopAtUs.load(), m_plan.countedAtUs.load(), m_plan.endUs }), fold, end);
            continue;
        }
        if (allFinished) break;
        // A worker that cannot go on (no local port left) ends the run; its reason is the run's failure.
        if (!m_plan.stopRequested.load()
            && std::any_of(m_workers.begin(), m_workers.end(), [](auto& w) { return w->failed(); }))
            stop();
        if (m_plan.stopRequested.load()) {
            for (auto& w : m_workers)
                w->wake();
        }
        std::this_thread::sleep_for(std::chrono::microseconds(CONTROLLER_POLL_US));
    }
    for (auto& t : threads)
        t.join();

    const uint64_t lastUs = m_plan.measureStartUs + static_cast<uint64_t>(std::llround(fold.lastEndS() * 1e6));
    end.stoppedEarly = m_plan.stopRequested.load() && lastUs < m_plan.endUs;
    for (auto& w : m_workers) {
        RunEnd mine;
        mine.firstTlsError = w->firstTlsError();
        mine.firstConnectError = w->firstConnectError();
        mine.reconnects = w->reconnects();
        mine.entries = w->entryStats();
        mine.serverStreamLimit = w->serverStreamLimit();
        mine.quic = w->quicSummary();
        mine.connections = w->connectionFacts();
        mine.warmupRequests = w->warmupRequests();
        end.merge(mine);
    }
    if (m_plan.hooks.failure) end.failure = m_plan.hooks.failure();
    for (auto& w : m_workers)
        if (end.failure.empty() && w->failed()) end.failure = w->failure();
    RunResult result = fold.finish(end);
    for (auto* o : m_observers)
        o->onFinished(result);
    m_prepared = false; // a controller runs once
    return result;
}

void RunController::mergeInterval(uint32_t index, uint64_t runEndUs, RunFold& fold, RunEnd& end)
{
    const uint64_t intervalUs = m_plan.config.intervalUs;
    const uint64_t measuredUs = runEndUs > m_plan.measureStartUs ? runEndUs - m_plan.measureStartUs : 0;
    IntervalSnapshot s;
    s.index = index;
    s.startS = static_cast<double>(index * intervalUs) / 1e6;
    s.endS = static_cast<double>(std::min<uint64_t>((index + 1) * intervalUs, measuredUs)) / 1e6;
    for (auto& w : m_workers)
        w->takeInterval(index, s);
    // The process and the machine over the same stretch, read here rather than by the workers:
    // a few milliseconds after the workers' tick, which the wall time it covers accounts for.
    m_processCost.takeInto(s.loaderCost, monotonicNowUs());
    if (m_plan.schedule) {
        // The schedule's clock starts with the load (the warm-up).
        const double offsetS = static_cast<double>(m_plan.measureStartUs - m_plan.startUs) / 1e6;
        const double planned
            = m_plan.schedule->cumulative(offsetS + s.endS) - m_plan.schedule->cumulative(offsetS + s.startS);
        s.targetRatePerS = s.endS > s.startS ? planned / (s.endS - s.startS) : 0;
    }
    // A stop right at an interval boundary leaves an empty sliver: not an interval.
    if (s.endS - s.startS < 0.001 && s.requests == 0 && s.errors.transportErrors() == 0) return;
    if (s.endS < s.startS) s.endS = s.startS;

    IntervalRecord record = IntervalRecord::of(s, m_measureStartUnixMs + std::llround(s.startS * 1000));
    for (auto* o : m_observers)
        o->onInterval(record);
    fold.add(s, std::move(record));
    if (m_plan.config.sloAbort) checkSloBudgets(s.endS, fold.sofar(), end);
}

// --slo-abort: a spent errors or non-2xx budget ends the run, judged on the totals so far and
// not before 5 s of measurement (a few early errors of a cold target are not a verdict).
void RunController::checkSloBudgets(double measuredS, const Measurements& sofar, RunEnd& end)
{
    constexpr double MIN_MEASURED_S = 5;
    if (measuredS < MIN_MEASURED_S || !end.sloAbortedBy.empty() || m_plan.stopRequested.load()) return;
    double plannedRequests = 0; // the open model knows how many requests the whole run makes
    if (m_plan.schedule) {
        const double offsetS = static_cast<double>(m_plan.measureStartUs - m_plan.startUs) / 1e6;
        plannedRequests = m_plan.schedule->cumulative(offsetS + static_cast<double>(m_plan.config.durationUs) / 1e6)
            - m_plan.schedule->cumulative(offsetS);
    }
    const SloInputs inputs = sloInputsOf(sofar, measuredS);
    for (const Slo& slo : m_plan.config.slos) {
        if (!sloCannotBeMet(slo, inputs, plannedRequests)) continue;
        end.sloAbortedBy = slo.expr;
        stop();
        return;
    }
}

} // namespace wb
