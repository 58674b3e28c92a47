#include "fleet/pausedloader.h"

#include "common/clock.h"
#include "fleet/controlfiles.h"
#include "parse/starttime.h"

#include <fmt/format.h>
#include <thread>

namespace wb {

namespace {
constexpr auto POLL = std::chrono::milliseconds(20);
}

PausedLoader::PausedLoader(RunConfig share, LoaderStreamWriter& stream, std::string controlDir, uint64_t startTimeoutUs)
    : m_controller(std::move(share))
    , m_stream(stream)
    , m_controlDir(std::move(controlDir))
    , m_startTimeoutUs(startTimeoutUs)
{ }

Status PausedLoader::prepare()
{
    Status st = m_controller.prepare();
    if (st) m_stream.ready();
    return st;
}

void PausedLoader::stop()
{
    m_stopped.store(true);
    m_controller.stop();
}

RunResult PausedLoader::run()
{
    // Wait for the start time (or a stop, or the deadline).
    const uint64_t deadlineUs = monotonicNowUs() + m_startTimeoutUs;
    int64_t startUs = 0;
    while (!m_stopped.load()) {
        if (readControlFile(m_controlDir, STOP_FILE)) {
            stop();
            break;
        }
        if (auto text = readControlFile(m_controlDir, START_FILE)) {
            const int64_t now = wallClockNowUs();
            auto at = parseStartTimeUs(*text, now);
            Status inTime = at ? checkStartNotPast(*at, now) : Status(Error { at.error() });
            if (!inTime) {
                m_stream.failed("start: " + inTime.error());
                stop();
                break;
            }
            startUs = *at;
            break;
        }
        if (monotonicNowUs() > deadlineUs) {
            m_stream.failed(fmt::format("no start time came within {} s", m_startTimeoutUs / 1'000'000));
            stop();
            break;
        }
        std::this_thread::sleep_for(POLL);
    }
    m_stream.setRequestedStart(startUs);
    m_controller.measureFrom(startUs);
    // A stop file during the run ends it as Ctrl-C would: with the result so far.
    std::atomic<bool> done { false };
    std::thread watcher([&] {
        while (!done.load()) {
            if (readControlFile(m_controlDir, STOP_FILE)) {
                stop();
                return;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
    });
    RunResult result = m_controller.run();
    done.store(true);
    watcher.join();
    return result;
}

} // namespace wb
