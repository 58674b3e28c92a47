// Not a test: a measurement, run by bench/ui-responsiveness.sh (never by ctest).
// The real main window runs a 400-connection load at ten updates a second against
// the built-in server while a 5 ms heartbeat on the UI thread records:
//   - the longest wall-clock gap between two beats (a stall as the user sees it,
//     the scheduler included: the engine, the server and the UI share the cores);
//   - the most UI-thread CPU time between two beats (what our own handlers and
//     paints cost, whatever the scheduler does);
//   - the UI thread's CPU share over the run.
// It prints one line per run: "responsiveness gap_ms=N busy_ms=N ui_cpu_pct=N".
// These are milliseconds of a shared machine, so they are quoted as medians by
// the bench script and asserted nowhere.

#include "control/runtask.h"
#include "mainwindow.h"
#include "pages/dialogs.h"
#include "pages/profileeditor.h"
#include "pages/targetspanel.h"
#include "uitestsupport.h"
#include "windowparts.h"

#include <QElapsedTimer>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>
#include <algorithm>
#include <ctime>

using namespace wb;
using namespace wb::ui;
using namespace wb::uitest;

class ResponsivenessBench : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    static double threadCpuMs()
    {
        timespec ts {};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
    }

private slots:
    void initTestCase()
    {
        setConfirmHandler([](const QString&) { return true; });
        setErrorHandler([](const QString& text) { qWarning("%s", qPrintable(text)); });
    }

    void measureA400ConnectionRun()
    {
        const int runs = qEnvironmentVariableIntValue("WB_RUNS") > 0 ? qEnvironmentVariableIntValue("WB_RUNS") : 1;
        MainWindow w;
        QVERIFY(w.openStartupSession(m_dir.filePath(QStringLiteral("busy.wrkbench"))));
        targetsPanel(w)->addTarget();
        w.show();
        QApplication::setActiveWindow(&w);
        QVERIFY(QTest::qWaitForWindowActive(&w));
        typeInto(profileEditor(w)->field(QStringLiteral("interval")), QStringLiteral("100ms"));
        typeInto(profileEditor(w)->field(QStringLiteral("duration")), QStringLiteral("3s"));
        typeInto(profileEditor(w)->field(QStringLiteral("connections")), QStringLiteral("400"));
        QVERIFY(profileEditor(w)->isValid());

        for (int run = 0; run < runs; ++run) {
            QSignalSpy finished(runTask(w), &RunTask::finished);
            QElapsedTimer clock;
            qint64 lastMs = 0, worstGapMs = 0;
            double lastCpuMs = 0, worstBusyMs = 0;
            QTimer beat;
            beat.setInterval(5);
            QObject::connect(&beat, &QTimer::timeout, [&] {
                const qint64 nowMs = clock.elapsed();
                const double cpuMs = threadCpuMs();
                if (lastMs) {
                    worstGapMs = std::max(worstGapMs, nowMs - lastMs);
                    worstBusyMs = std::max(worstBusyMs, cpuMs - lastCpuMs);
                }
                lastMs = nowMs;
                lastCpuMs = cpuMs;
            });
            QVERIFY(w.startRun());
            QVERIFY(QTest::qWaitFor([&] { return runTask(w)->phase() == RunTask::Phase::Running; }, 60'000));
            clock.start();
            beat.start();
            const double cpuBeforeMs = threadCpuMs();
            QVERIFY(finished.wait(120'000));
            const double uiCpuMs = threadCpuMs() - cpuBeforeMs;
            const qint64 elapsedMs = clock.elapsed();
            beat.stop();
            printf("responsiveness gap_ms=%lld busy_ms=%.1f ui_cpu_pct=%.2f\n", static_cast<long long>(worstGapMs),
                worstBusyMs, 100.0 * uiCpuMs / static_cast<double>(std::max<qint64>(elapsedMs, 1)));
            fflush(stdout);
        }
    }
};

WB_UI_TEST_MAIN(ResponsivenessBench)
#include "responsiveness_bench.moc"
