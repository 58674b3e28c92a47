// BackgroundJob (ui/control/backgroundjob.h): a body on its own thread, its events and
// its result delivered on the UI thread in order, cancel through the flag and the
// body's hook, waitForFinished, a new start from onFinished, and a destructor that
// cancels and joins. Real threads and a real event loop; no time is asserted.

#include "control/backgroundjob.h"
#include "uitestsupport.h"

#include <QSignalSpy>
#include <QTest>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

using namespace wb::ui;

namespace {

using IntJob = BackgroundJob<std::string, int>;

/// Blocks the body until the test opens it, so that the test decides what happens when.
struct Gate
{
    std::mutex mutex;
    std::condition_variable changed;
    bool open = false;

    void release()
    {
        {
            std::lock_guard lock(mutex);
            open = true;
        }
        changed.notify_all();
    }
    /// Waits until released or cancelled (polling cancelled, as a probe polls its flag).
    void wait(const IntJob::Context& context)
    {
        std::unique_lock lock(mutex);
        while (!open && !context.isCancelled())
            changed.wait_for(lock, std::chrono::milliseconds(5));
    }
};

} // namespace

class BackgroundJobTest : public QObject
{
    Q_OBJECT

private slots:
    void eventsArriveInOrderOnTheUiThreadBeforeTheResult()
    {
        std::vector<int> events;
        std::vector<std::thread::id> threads;
        std::string result;
        int finishedCount = 0;
        bool runningInFinished = true;
        IntJob* self = nullptr;
        IntJob job(
            [&](int& e) {
                events.push_back(e);
                threads.push_back(std::this_thread::get_id());
            },
            [&](std::string& r) {
                result = r;
                ++finishedCount;
                runningInFinished = self->isRunning();
                threads.push_back(std::this_thread::get_id());
            },
            10);
        self = &job;
        std::thread::id bodyThread;
        QVERIFY(job.start([&](IntJob::Context& context) {
            bodyThread = std::this_thread::get_id();
            for (int i = 0; i < 1000; ++i)
                context.post(i);
            return std::string("done");
        }));
        QVERIFY(job.isRunning());
        QVERIFY(!job.start([](IntJob::Context&) { return std::string(); })); // one at a time
        QTRY_COMPARE_WITH_TIMEOUT(finishedCount, 1, 10'000);
        QCOMPARE(result, std::string("done"));
        QCOMPARE(events.size(), size_t(1000));
        for (int i = 0; i < 1000; ++i)
            QCOMPARE(events[static_cast<size_t>(i)], i);
        for (std::thread::id id : threads)
            QCOMPARE(id, std::this_thread::get_id());
        QVERIFY(bodyThread != std::this_thread::get_id());
        QVERIFY(!runningInFinished);
        QVERIFY(!job.isRunning());
        QVERIFY(job.isDone());
    }

    void cancelSetsTheFlagAndCallsTheBodysHook()
    {
        std::string result;
        IntJob job(nullptr, [&](std::string& r) { result = r; });
        Gate hooked;
        std::atomic<int> hookCalls { 0 };
        QVERIFY(job.start([&](IntJob::Context& context) {
            std::mutex m;
            std::condition_variable cv;
            bool stopped = false;
            const auto hook = context.onCancel([&] {
                ++hookCalls;
                std::lock_guard lock(m);
                stopped = true;
                cv.notify_all();
            });
            hooked.release();
            std::unique_lock lock(m);
            cv.wait(lock, [&] { return stopped; }); // only the hook ends this wait
            return std::string(context.isCancelled() ? "cancelled" : "not cancelled");
        }));
        {
            std::unique_lock lock(hooked.mutex);
            hooked.changed.wait(lock, [&] { return hooked.open; });
        }
        job.cancel();
        QVERIFY(job.isCancelled());
        QVERIFY(job.waitForFinished(10'000));
        QCOMPARE(result, std::string("cancelled"));
        QCOMPARE(hookCalls.load(), 1);
        job.cancel(); // after the end: the hook is gone with the body
        QCOMPARE(hookCalls.load(), 1);
    }

    void aHookRegisteredAfterCancelRunsAtOnce()
    {
        std::string result;
        IntJob job(nullptr, [&](std::string& r) { result = r; });
        Gate gate;
        QVERIFY(job.start([&](IntJob::Context& context) {
            gate.wait(context); // until cancelled
            bool called = false;
            const auto hook = context.onCancel([&] { called = true; });
            return std::string(called ? "called" : "not called");
        }));
        job.cancel();
        QVERIFY(job.waitForFinished(10'000));
        QCOMPARE(result, std::string("called"));
    }

    void waitForFinishedTimesOutWithNothingDelivered()
    {
        int finishedCount = 0;
        std::vector<int> events;
        IntJob job([&](int& e) { events.push_back(e); }, [&](std::string&) { ++finishedCount; });
        job.setDrainInterval(60'000); // only waitForFinished delivers here
        Gate gate;
        QVERIFY(job.start([&](IntJob::Context& context) {
            context.post(1);
            gate.wait(context);
            context.post(2);
            return std::string("end");
        }));
        QVERIFY(!job.waitForFinished(50)); // the body waits for the gate
        QCOMPARE(finishedCount, 0);
        QVERIFY(!job.isDone());
        gate.release();
        QVERIFY(job.waitForFinished(10'000));
        QCOMPARE(finishedCount, 1);
        QCOMPARE(events, (std::vector<int> { 1, 2 }));
    }

    void theResultIsDeliveredWithoutWaitingForATick()
    {
        // A drain interval far longer than any test: only the queued wake-up can deliver.
        int finishedCount = 0;
        IntJob job(
            nullptr, [&](std::string&) { ++finishedCount; }, 3'600'000);
        QVERIFY(job.start([](IntJob::Context&) { return std::string("quick"); }));
        QTRY_COMPARE_WITH_TIMEOUT(finishedCount, 1, 10'000);
    }

    void onFinishedMayStartAgain()
    {
        int finishedCount = 0;
        IntJob* self = nullptr;
        std::function<void(std::string&)> onFinished = [&](std::string&) {
            if (++finishedCount < 3) QVERIFY(self->start([](IntJob::Context&) { return std::string("again"); }));
        };
        IntJob job(
            nullptr, [&](std::string& r) { onFinished(r); }, 10);
        self = &job;
        QVERIFY(job.start([](IntJob::Context&) { return std::string("first"); }));
        QTRY_COMPARE_WITH_TIMEOUT(finishedCount, 3, 10'000);
        QVERIFY(!job.isRunning());
    }

    void theDestructorCancelsAndJoins()
    {
        std::atomic<bool> bodyEnded { false };
        int finishedCount = 0;
        {
            IntJob job(nullptr, [&](std::string&) { ++finishedCount; });
            QVERIFY(job.start([&](IntJob::Context& context) {
                Gate never;
                never.wait(context); // only a cancel ends it
                bodyEnded = true;
                return std::string("cancelled");
            }));
        }
        QVERIFY(bodyEnded.load()); // joined: the body has returned
        QTest::qWait(20); // its queued wake-up, if any, went with the job
        QCOMPARE(finishedCount, 0);
    }
};

WB_UI_TEST(BackgroundJobTest)
#include "backgroundjob_test.moc"
