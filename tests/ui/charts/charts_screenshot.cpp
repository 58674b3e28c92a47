// Throwaway tool: renders the live and comparison charts with realistic data
// to PNGs for a visual check (wrkbench-charts-live.png, wrkbench-charts-compare.png).
// Usage: ui_charts_screenshot [output-dir]   (default /tmp)

#include "charts/comparecharts.h"
#include "charts/livecharts.h"
#include "chartsamples.h"

#include <QApplication>
#include <QDir>
#include <QTest>
#include <cstdio>

using namespace wb::ui;

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const QDir out(argc > 1 ? QString::fromLocal8Bit(argv[1]) : QStringLiteral("/tmp"));
    const QSize size(1280, 800);
    int failures = 0;
    const auto save = [&](bool ok, const QString& path, const QString& error) {
        std::printf("%s %s\n", ok ? "wrote" : "FAILED", qPrintable(ok ? path : error));
        failures += ok ? 0 : 1;
    };

    samples::RunShape open { .rps = 30000, .p50Ms = 2.9, .p90Ms = 6.1, .p99Ms = 14.1, .durationS = 90 };
    open.openModel = true;
    open.spikeAtS = 52;
    LiveCharts live;
    live.resize(size);
    live.show();
    if (!QTest::qWaitForWindowExposed(&live)) std::printf("window not exposed\n");
    live.setSeries(samples::run(QStringLiteral("#12 NEG ingress  R30000 c100 t4"), colorForTarget(1), open));
    QString error;
    QString path = out.filePath(QStringLiteral("wrkbench-charts-live.png"));
    save(live.exportPng(path, size, &error), path, error);
    path = out.filePath(QStringLiteral("wrkbench-charts-live-grab.png"));
    save(live.grab().save(path), path, QStringLiteral("grab failed"));

    samples::RunShape closed { .rps = 41200, .p50Ms = 2.1, .p90Ms = 4.2, .p99Ms = 9.0, .durationS = 30 };
    closed.spikeAtS = 20;
    closed.seed = 7;
    RunSeries closedRun = samples::run(QStringLiteral("#13 Service  c100 t4"), colorForTarget(4), closed);
    closedRun.intervals[21].p99Ms = 900; // a long stall: the latency axis goes log
    live.setSeries(closedRun);
    path = out.filePath(QStringLiteral("wrkbench-charts-live-closed.png"));
    save(live.exportPng(path, size, &error), path, error);

    samples::RunShape neg { .rps = 34893, .p50Ms = 2.9, .p90Ms = 6.1, .p99Ms = 14.1, .seed = 1 };
    samples::RunShape nodePort { .rps = 28410, .p50Ms = 3.6, .p90Ms = 8.0, .p99Ms = 22.0, .seed = 2 };
    samples::RunShape service { .rps = 41200, .p50Ms = 2.1, .p90Ms = 4.2, .p99Ms = 9.0, .seed = 3 };
    nodePort.spikeAtS = 33;
    CompareCharts compare;
    compare.resize(size);
    compare.show();
    if (!QTest::qWaitForWindowExposed(&compare)) std::printf("window not exposed\n");
    compare.setRuns({ samples::run(QStringLiteral("NEG ingress"), colorForTarget(1), neg),
        samples::run(QStringLiteral("NodePort ingress"), colorForTarget(2), nodePort),
        samples::run(QStringLiteral("Service"), colorForTarget(3), service) });
    path = out.filePath(QStringLiteral("wrkbench-charts-compare.png"));
    save(compare.exportPng(path, size, &error), path, error);
    path = out.filePath(QStringLiteral("wrkbench-charts-compare-grab.png"));
    save(compare.grab().save(path), path, QStringLiteral("grab failed"));

    // Crowded and small: six runs with long labels at the size of a laptop window's page.
    QVector<RunSeries> many;
    const char* names[]
        = { "#21 NEG ingress c100 t4 keep-alive", "#22 NodePort ingress c100 t4", "#23 Ambassador c100 t4",
              "#24 Service (ClusterIP) c100 t4", "#25 NEG ingress c400 t8", "#26 NodePort ingress c400 t8" };
    for (int i = 0; i < 6; ++i) {
        samples::RunShape s {
            .rps = 18000.0 + 4500 * i, .p50Ms = 1.8 + 0.5 * i, .p90Ms = 4.0 + i, .p99Ms = 8.0 + 4 * i
        };
        s.seed = 40 + i;
        many.append(samples::run(QString::fromLatin1(names[i]), colorForTarget(i + 1), s));
    }
    compare.setRuns(many);
    path = out.filePath(QStringLiteral("wrkbench-charts-compare-small.png"));
    save(compare.exportPng(path, QSize(960, 620), &error), path, error);
    live.setSeries(many[0]);
    path = out.filePath(QStringLiteral("wrkbench-charts-live-small.png"));
    save(live.exportPng(path, QSize(860, 560), &error), path, error);

    // Sub-millisecond latencies with a tail (the built-in server): log axes whose
    // decades start below 1 ms must still carry labels (0.01, 0.1, 1, 10).
    samples::RunShape fast { .rps = 85000, .p50Ms = 0.11, .p90Ms = 0.3, .p99Ms = 2.5, .durationS = 10 };
    fast.intervalS = 0.25;
    fast.spikeAtS = 5;
    RunSeries fastRun = samples::run(QStringLiteral("#1 Demo: fast  c50 t2"), colorForTarget(1), fast);
    fastRun.intervals[20].p99Ms = 40; // a stall: the live latency axis goes log
    live.setSeries(fastRun);
    path = out.filePath(QStringLiteral("wrkbench-charts-live-subms.png"));
    save(live.exportPng(path, size, &error), path, error);
    samples::RunShape cli { .rps = 91000, .p50Ms = 0.1, .p90Ms = 0.12, .p99Ms = 0.17, .durationS = 2 };
    compare.setRuns({ fastRun, samples::run(QStringLiteral("#2 CLI: serve"), colorForTarget(2), cli) });
    path = out.filePath(QStringLiteral("wrkbench-charts-compare-subms.png"));
    save(compare.exportPng(path, size, &error), path, error);
    return failures == 0 ? 0 : 1;
}
