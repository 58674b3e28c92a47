#include "fleet/fleetrunner.h"

#include "common/clock.h"
#include "fleet/controlfiles.h"
#include "fleet/kubeexecutor.h"
#include "fleet/localexecutor.h"
#include "run/runcontroller.h"
#include "wire/configcodec.h"
#include "wire/loaderread.h"

#include <cerrno>
#include <fmt/format.h>
#include <poll.h>
#include <thread>
#include <unistd.h>

namespace wb {

namespace {
// A stream line longer than this is not ours (a final result of a day-long run fits).
constexpr size_t MAX_LINE_BYTES = 256 * 1024 * 1024;
} // namespace

KubeOptions kubeOptionsOf(const LoaderPlacement& placement, const FleetSetup& setup)
{
    KubeOptions kube;
    kube.kubectl = setup.kubectl;
    kube.context = placement.kubeContext;
    kube.nameSpace = placement.kubeNamespace;
    kube.image = placement.image;
    kube.cpu = placement.podCpu;
    kube.memory = placement.podMemory;
    kube.ttlSeconds = setup.jobTtlSeconds;
    kube.keep = setup.keepJob;
    kube.metricsPort = setup.podMetricsPort;
    kube.execWaveUs = setup.execWaveUs;
    return kube;
}

std::unique_ptr<LoaderExecutor> makeLocalExecutor(const FleetSetup& setup)
{
    return std::make_unique<LocalExecutor>(setup.loaderBinary.empty() ? thisExecutable() : setup.loaderBinary);
}

std::unique_ptr<LoaderExecutor> makeKubeExecutor(const RunConfig& config, FleetSetup& setup)
{
    setup.readyTimeoutUs = std::max<uint64_t>(setup.readyTimeoutUs, 120'000'000); // image pulls
    return std::make_unique<KubeExecutor>(kubeOptionsOf(config.loaders, setup));
}

FleetRunner::FleetRunner(RunConfig whole, FleetSetup setup, std::unique_ptr<LoaderExecutor> executor)
    : m_whole(whole.normalized())
    , m_options(std::move(setup))
    , m_count(m_whole.loaders.count)
    , m_executor(std::move(executor))
    , m_streams(m_count)
{
    m_configJson = runConfigToJson(m_whole);
}

FleetRunner::~FleetRunner()
{
    m_executor->cleanup();
}

void FleetRunner::readLines(unsigned i, const std::function<void(unsigned, LoaderEvent&)>& handle)
{
    Stream& s = m_streams[i];
    size_t start = 0;
    for (size_t nl; (nl = s.buffer.find('\n', start)) != std::string::npos; start = nl + 1) {
        auto event = parseLoaderLine(std::string_view(s.buffer).substr(start, nl - start));
        if (!event) {
            m_warnings.push_back(fmt::format("loader {}: {}", i, event.error()));
            continue;
        }
        if (event->kind != LoaderEvent::Kind::Ready && event->kind != LoaderEvent::Kind::Text && event->loader != i) {
            m_warnings.push_back(fmt::format("loader {} speaks as loader {}: line ignored", i, event->loader));
            continue;
        }
        if (event->kind == LoaderEvent::Kind::Text) {
            // Not an event: the loader's own warnings, passed on.
            if (m_options.onLoaderText && !event->text.empty()) m_options.onLoaderText(i, event->text);
            continue;
        }
        handle(i, *event);
    }
    s.buffer.erase(0, start);
    if (s.buffer.size() > MAX_LINE_BYTES) {
        s.failure = "its output is not a loader's (a line longer than 256 MB)";
        s.open = false;
    }
}

void FleetRunner::pump(int waitMs, const std::function<void(unsigned, LoaderEvent&)>& handle)
{
    std::vector<pollfd> fds;
    std::vector<unsigned> owners;
    for (unsigned i = 0; i < m_streams.size(); ++i) {
        const int fd = m_executor->streamFd(i);
        if (m_streams[i].open && fd >= 0) {
            fds.push_back({ fd, POLLIN, 0 });
            owners.push_back(i);
        }
    }
    if (fds.empty()) return;
    if (::poll(fds.data(), fds.size(), waitMs) <= 0) return;
    char chunk[65536];
    for (size_t k = 0; k < fds.size(); ++k) {
        if (!(fds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
        const unsigned i = owners[k];
        Stream& s = m_streams[i];
        for (;;) {
            const ssize_t n = ::read(fds[k].fd, chunk, sizeof chunk);
            if (n > 0) {
                s.buffer.append(chunk, static_cast<size_t>(n));
                continue;
            }
            if (n < 0 && errno == EINTR) continue;
            if (n == 0) s.open = false; // its end: what is buffered is its last word
            break;
        }
        readLines(i, handle);
        if (!s.open && !s.buffer.empty()) {
            s.buffer += '\n';
            readLines(i, handle);
        }
    }
}

Status FleetRunner::prepare()
{
    if (auto st = m_whole.validate(); !st) return st;
    if (m_executor->kind() == "local") {
        // Each loader runs -t threads of its own: on one machine they share its cores.
        const unsigned perLoader = std::min(m_whole.threads, std::max(1u, m_whole.connections / m_count));
        const unsigned cores = std::thread::hardware_concurrency();
        if (cores > 0 && perLoader * m_count > cores)
            m_warnings.push_back(fmt::format("{} loaders x {} threads = {} worker threads on {} cores: -t is per "
                                             "loader (-t{} gives the threads of one process)",
                m_count, perLoader, perLoader * m_count, cores, std::max(1u, m_whole.threads / m_count)));
    }
    if (auto st = m_executor->launch(m_configJson, m_count, m_stop); !st) return st;
    const uint64_t deadlineUs = monotonicNowUs() + m_options.readyTimeoutUs;
    std::string firstFailure;
    auto handle = [&](unsigned i, LoaderEvent& e) {
        Stream& s = m_streams[i];
        switch (e.kind) {
        case LoaderEvent::Kind::Ready:
            s.ready = true;
            s.identity = e.identity;
            break;
        case LoaderEvent::Kind::Failed:
            s.ended = true;
            s.failure = e.text;
            if (firstFailure.empty()) firstFailure = fmt::format("loader {}: {}", i, e.text);
            break;
        default:
            break;
        }
    };
    for (;;) {
        bool allReady = true;
        for (unsigned i = 0; i < m_streams.size(); ++i) {
            Stream& s = m_streams[i];
            if (!s.ready && !s.ended && !s.open) {
                s.ended = true;
                if (firstFailure.empty())
                    firstFailure = fmt::format("loader {} ({}) {}", i, m_executor->where(i), m_executor->endReason(i));
            }
            allReady = allReady && s.ready;
        }
        if (!firstFailure.empty()) {
            m_executor->tellAll(STOP_FILE, "");
            return Error { firstFailure };
        }
        if (allReady) break;
        if (m_stop.load()) {
            m_executor->tellAll(STOP_FILE, "");
            return Error { "stopped before every loader was ready" };
        }
        if (monotonicNowUs() > deadlineUs) {
            unsigned waiting = 0;
            for (const Stream& s : m_streams)
                waiting += s.ready ? 0 : 1;
            m_executor->tellAll(STOP_FILE, "");
            return Error { fmt::format("{} of {} loaders were not ready within {} s", waiting, m_streams.size(),
                m_options.readyTimeoutUs / 1'000'000) };
        }
        pump(100, handle);
    }
    m_prepared = true;
    return {};
}

RunResult FleetRunner::run()
{
    if (!m_prepared) {
        RunResult none;
        none.config = m_whole;
        return none;
    }
    // The common start: far enough ahead that every loader hears of it, connects and warms up.
    const uint64_t leadUs = m_executor->tellAllowanceUs(m_count) + m_whole.warmupUs + RunController::CONNECT_LEAD_US;
    const int64_t startUs = wallClockNowUs() + static_cast<int64_t>(leadUs);
    FleetMerge merge(m_whole, m_count, startUs / 1000);
    merge.keepIntervals(m_options.keepIntervals);
    for (RunObserver* o : m_observers)
        merge.addObserver(o);
    for (unsigned i = 0; i < m_streams.size(); ++i) {
        LoaderIdentity id = m_streams[i].identity;
        if (auto st = merge.started(id); !st) {
            m_warnings.push_back(st.error());
            merge.failed(i, st.error());
        }
    }
    if (auto st = m_executor->tellAll(START_FILE, startTimeText(startUs)); !st) {
        m_warnings.push_back(st.error());
        m_stop.store(true);
    }
    merge.announce();

    bool stopSent = false;
    auto handle = [&](unsigned i, LoaderEvent& e) {
        Stream& s = m_streams[i];
        switch (e.kind) {
        case LoaderEvent::Kind::Interval:
            merge.interval(i, e.interval);
            break;
        case LoaderEvent::Kind::Finished:
            s.ended = true;
            merge.finished(i, e.end, e.intervalRequests);
            break;
        case LoaderEvent::Kind::Failed:
            s.ended = true;
            merge.failed(i, e.text);
            break;
        default:
            break;
        }
    };
    for (;;) {
        if (m_stop.load() && !stopSent) {
            stopSent = true;
            if (auto st = m_executor->tellAll(STOP_FILE, ""); !st) m_warnings.push_back(st.error());
        }
        for (unsigned i = 0; i < m_streams.size(); ++i) {
            Stream& s = m_streams[i];
            if (!s.open && !s.ended) {
                s.ended = true;
                merge.failed(i, m_executor->endReason(i));
            }
        }
        if (merge.allEnded()) break;
        pump(100, handle);
    }
    RunResult result = merge.finish(m_stop.load());
    for (const std::string& w : merge.warnings())
        m_warnings.push_back(w);
    m_executor->cleanup();
    return result;
}

} // namespace wb
