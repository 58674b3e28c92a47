// Behind the front door in the window, against real runs: the built-in server
// answering as named backends with Envoy's upstream-time header (serve --backends
// --upstream-time-header), and nginx balancing over built-in servers for a backend that
// vanishes. What the Backends and Front door tabs, the front-door chart, the Live strip and
// Compare show is what the session stored, checked against `wrkbench-cli export --what
// backends|upstream` and against figures computed here from those exported counts.

#include "charts/comparecharts.h"
#include "charts/frontdoorchart.h"
#include "control/runtask.h"
#include "mainwindow.h"
#include "nginx.h"
#include "pages/backendstab.h"
#include "pages/backendstrip.h"
#include "pages/comparefrontdoor.h"
#include "pages/comparepage.h"
#include "pages/dialogs.h"
#include "pages/frontdoortab.h"
#include "pages/livepage.h"
#include "pages/profileeditor.h"
#include "pages/rundetailpage.h"
#include "pages/targeteditor.h"
#include "pages/targetspanel.h"
#include "serve/targetserver.h"
#include "session/sessiondocument.h"
#include "stats/backendbalance.h"
#include "testsupport.h"
#include "text/format.h"
#include "uitestsupport.h"
#include "windowparts.h"

#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QTest>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

using namespace wb;
using namespace wb::ui;
using namespace wb::uitest;

namespace {

using CsvRow = std::map<std::string, std::string>;

// RFC 4180 as the exports write it: no field here has a quote or a comma but a backend name, which has neither.
std::vector<CsvRow> csvRows(const std::string& text)
{
    std::vector<CsvRow> rows;
    std::vector<std::string> header;
    for (const std::string& line : test::splitLines(text)) {
        std::vector<std::string> fields;
        std::istringstream in(line);
        for (std::string f; std::getline(in, f, ',');)
            fields.push_back(f);
        if (!line.empty() && line.back() == ',') fields.emplace_back();
        if (header.empty()) {
            header = fields;
            continue;
        }
        CsvRow row;
        for (size_t i = 0; i < header.size() && i < fields.size(); ++i)
            row[header[i]] = fields[i];
        rows.push_back(row);
    }
    return rows;
}

double number(const std::string& s)
{
    return std::stod(s);
}

// A cell as the window writes numbers ("1,234.5"), back to a number.
double cellNumber(const QTableWidgetItem* item)
{
    bool ok = false;
    QString text = item->text();
    text.remove(QStringLiteral(" %"));
    const double v = numberLocale().toDouble(text, &ok);
    return ok ? v : std::nan("");
}

// The displayed milliseconds are the stored ones rounded to the digits shown (formatUsAsMs).
bool sameMs(const QTableWidgetItem* item, double storedMs)
{
    const double shown = cellNumber(item);
    const int decimals = storedMs < 1 ? 3 : storedMs < 10 ? 2 : storedMs < 100 ? 1 : 0;
    return std::fabs(shown - storedMs) <= 0.5 * std::pow(10.0, -decimals) + 1e-9;
}

int rowOf(const QTableWidget* t, const QString& firstCell)
{
    for (int r = 0; r < t->rowCount(); ++r)
        if (t->item(r, 0) && t->item(r, 0)->text() == firstCell) return r;
    return -1;
}

QString figure(const QTableWidget* t, const QString& name)
{
    const int r = rowOf(t, name);
    return r < 0 ? QString() : t->item(r, 1)->text();
}

struct Evenness
{
    double cv = 0, maxMin = 0, chiSquare = 0;
};

// From the exported counts, by the textbook definitions (not the engine's code).
Evenness evennessOf(const std::vector<CsvRow>& backends)
{
    std::vector<double> n;
    for (const CsvRow& r : backends)
        n.push_back(number(r.at("requests")));
    double sum = 0;
    for (double v : n)
        sum += v;
    const double mean = sum / static_cast<double>(n.size());
    double squares = 0, chi = 0;
    for (double v : n) {
        squares += (v - mean) * (v - mean);
        chi += (v - mean) * (v - mean) / mean;
    }
    Evenness e;
    e.cv = std::sqrt(squares / static_cast<double>(n.size())) / mean;
    e.maxMin = *std::max_element(n.begin(), n.end()) / *std::min_element(n.begin(), n.end());
    e.chiSquare = chi;
    return e;
}

std::map<std::string, CsvRow> byKey(const std::vector<CsvRow>& rows, const std::string& key)
{
    std::map<std::string, CsvRow> out;
    for (const CsvRow& r : rows)
        out[r.at(key)] = r;
    return out;
}

} // namespace

class BackendsTest : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QStringList m_errors;

    static std::string exported(const std::string& db, int64_t run, const char* what)
    {
        const auto r = test::runCli({ "export", "--db", db, "--run", std::to_string(run), "--what", what, "--csv" });
        if (r.exitCode != 0) qWarning("export failed: %s", r.err.c_str());
        return r.out;
    }
    /// One CLI run into db against url, as a user would make it; the run's id.
    static int64_t cliRun(
        const std::string& db, const std::string& target, const std::string& url, std::vector<std::string> extra = {})
    {
        std::vector<std::string> args { "run", "-t2", "-c4", "-d1s", "--interval", "250ms", "--db", db, "--target",
            target, "--backend-from", "body", "--upstream-time", "header:x-envoy-upstream-service-time" };
        args.insert(args.end(), extra.begin(), extra.end());
        args.push_back(url);
        const auto r = test::runCli(args, 60'000);
        if (r.exitCode != 0) {
            qWarning("run failed: %s%s", r.out.c_str(), r.err.c_str());
            return 0;
        }
        SessionOpenOptions readOnly;
        readOnly.readOnly = true;
        auto store = SessionStore::open(db, readOnly);
        auto runs = (*store)->runs().list({});
        int64_t newest = 0;
        for (const RunRecord& run : runs ? *runs : std::vector<RunRecord> {})
            newest = std::max(newest, run.id);
        return newest;
    }
    static RunData load(const std::string& db, int64_t id)
    {
        SessionOpenOptions readOnly;
        readOnly.readOnly = true;
        auto store = SessionStore::open(db, readOnly);
        auto data = (*store)->runs().load(id);
        return data ? *data : RunData {};
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        setConfirmHandler([](const QString&) { return true; });
        setErrorHandler([this](const QString& text) { m_errors << text; });
    }

    // A gateway in front of four backends weighted 4:3:2:1 that waits 2 ms for them and says so.
    void backendsAndFrontDoorTabsShowWhatIsStored()
    {
        TargetServerOptions o;
        o.threads = 2;
        o.backends = 4;
        o.skewedBackends = true;
        o.delayUs = 2000;
        o.upstreamTimeHeader = true;
        TargetServer server(o);
        QVERIFY(server.start().ok());
        const std::string db = m_dir.filePath(QStringLiteral("tabs.wrkbench")).toStdString();
        const int64_t id = cliRun(db, "gateway", "http://127.0.0.1:" + std::to_string(server.port()) + "/");
        QVERIFY(id > 0);
        const RunData data = load(db, id);
        QVERIFY(data.run.hasTotals);

        RunDetailPage page(data);
        page.resize(1400, 900);
        BackendsTab* tab = page.backendsTab();
        QVERIFY(tab);
        const std::vector<CsvRow> csv = csvRows(exported(db, id, "backends"));
        QCOMPARE(csv.size(), size_t(4));
        const auto stored = byKey(csv, "backend");
        QTableWidget* t = tab->backends();
        QCOMPARE(t->rowCount(), 4);
        double previous = INFINITY;
        for (int r = 0; r < t->rowCount(); ++r) {
            const std::string name = t->item(r, 0)->text().toStdString();
            QVERIFY2(stored.count(name), name.c_str());
            const CsvRow& s = stored.at(name);
            QCOMPARE(cellNumber(t->item(r, 1)), number(s.at("requests")));
            QVERIFY(cellNumber(t->item(r, 1)) <= previous); // busiest first
            previous = cellNumber(t->item(r, 1));
            QCOMPARE(t->item(r, 2)->text(),
                numberLocale().toString(100.0 * number(s.at("share")), 'f', 2) + QStringLiteral(" %"));
            // The bar is drawn from the stored share itself.
            QVERIFY(std::fabs(t->item(r, BackendsTab::SHARE_COLUMN)->data(BackendsTab::SHARE_ROLE).toDouble()
                        - number(s.at("share")))
                < 1e-12);
            QVERIFY2(sameMs(t->item(r, 3), number(s.at("p50_ms"))), qPrintable(t->item(r, 3)->text()));
            QVERIFY(sameMs(t->item(r, 4), number(s.at("p90_ms"))));
            QVERIFY(sameMs(t->item(r, 5), number(s.at("p99_ms"))));
            QVERIFY(sameMs(t->item(r, 6), number(s.at("max_ms"))));
            QCOMPARE(cellNumber(t->item(r, 7)), number(s.at("non2xx")));
            QCOMPARE(t->item(r, 8)->text(), numberLocale().toString(number(s.at("first_seen_s")), 'f', 2));
            QCOMPARE(t->item(r, 9)->text(), numberLocale().toString(number(s.at("last_seen_s")), 'f', 2));
            // Every backend waits 2 ms: none of its answers came sooner.
            QVERIFY(cellNumber(t->item(r, 3)) >= 2.0);
        }
        QCOMPARE(t->item(0, 0)->text(), QStringLiteral("backend-0")); // the heaviest weight

        // The evenness, against the textbook figures of the exported counts.
        const Evenness e = evennessOf(csv);
        QTableWidget* even = tab->evenness();
        QCOMPARE(figure(even, QStringLiteral("Backends")), QStringLiteral("4"));
        QCOMPARE(figure(even, QStringLiteral("Coefficient of variation")), numberLocale().toString(e.cv, 'f', 3));
        QCOMPARE(figure(even, QStringLiteral("Max/min share")), numberLocale().toString(e.maxMin, 'f', 2));
        QCOMPARE(figure(even, QStringLiteral("Chi-square vs an even split")),
            QStringLiteral("%1 (3 df)").arg(numberLocale().toString(e.chiSquare, 'f', 1)));
        QCOMPARE(figure(even, QStringLiteral("p-value (even split)")),
            QString::number(chiSquareSurvival(e.chiSquare, 3), 'g', 3));
        QVERIFY(std::fabs(e.cv - 0.447) < 0.02); // 4:3:2:1
        QVERIFY(tab->events()->isHidden()); // no backend came or went
        QCOMPARE(tab->events()->rowCount(), 0);

        // The front door: the three distributions and the mean split, as exported.
        FrontDoorTab* door = page.frontDoorTab();
        QVERIFY(door);
        const auto split = byKey(csvRows(exported(db, id, "upstream")), "kind");
        QCOMPARE(split.size(), size_t(3));
        const char* kinds[] = { "latency", "upstream", "front_door" };
        for (int r = 0; r < 3; ++r) {
            const CsvRow& s = split.at(kinds[r]);
            QCOMPARE(cellNumber(door->table()->item(r, 1)), number(s.at("count")));
            QVERIFY(sameMs(door->table()->item(r, 2), number(s.at("p50_ms"))));
            QVERIFY(sameMs(door->table()->item(r, 3), number(s.at("p90_ms"))));
            QVERIFY(sameMs(door->table()->item(r, 4), number(s.at("p99_ms"))));
            QVERIFY(sameMs(door->table()->item(r, 6), number(s.at("mean_ms"))));
            // The chart is drawn from the same figures.
            const FrontDoorChartData::Side& side = door->chart()->data().sides[r];
            QVERIFY(std::fabs(side.p50Ms - number(s.at("p50_ms"))) < 1e-9);
            QVERIFY(std::fabs(side.p90Ms - number(s.at("p90_ms"))) < 1e-9);
            QVERIFY(std::fabs(side.p99Ms - number(s.at("p99_ms"))) < 1e-9);
            QCOMPARE(side.responses, static_cast<quint64>(number(s.at("count"))));
        }
        // The server stated 2 ms for every answer: Envoy's header, read as milliseconds.
        QVERIFY(std::fabs(number(split.at("upstream").at("p50_ms")) - 2.0) < 0.01);
        QCOMPARE(number(split.at("upstream").at("responses_without")), 0.0);

        // Percentiles side by side on one baseline, heights to scale; never stacked.
        FrontDoorChart* chart = door->chart();
        chart->resize(600, 320);
        for (int g = 0; g < 3; ++g) {
            for (int s = 0; s < 3; ++s) {
                QCOMPARE(chart->barRect(g, s).bottom(), chart->barRect(g, 0).bottom());
                if (s > 0) QVERIFY(chart->barRect(g, s - 1).right() <= chart->barRect(g, s).left() + 1e-9);
            }
            const double h0 = chart->barRect(g, 0).height();
            for (int s = 1; s < 3; ++s)
                QVERIFY(
                    std::fabs(chart->barRect(g, s).height() / h0 - chart->barValueMs(g, s) / chart->barValueMs(g, 0))
                    < 1e-9);
        }
        QVERIFY(chart->barValueMs(2, 0) <= chart->scaleMaxMs());
        // The mean split adds: its parts are the two means, its bar split in their proportion.
        const double up = number(split.at("upstream").at("mean_ms"));
        const double fd = number(split.at("front_door").at("mean_ms"));
        QVERIFY(std::fabs(chart->data().meanUpstreamMs - up) < 1e-9);
        QVERIFY(std::fabs(chart->data().meanFrontDoorMs - fd) < 1e-9);
        const double w0 = chart->splitRect(0).width();
        const double w1 = chart->splitRect(1).width();
        QVERIFY(std::fabs(w0 / (w0 + w1) - up / (up + fd)) < 1e-9);
        QVERIFY2(door->note()->text().contains(
                     QStringLiteral("(%1 % front door)").arg(numberLocale().toString(100.0 * fd / (up + fd), 'f', 1))),
            qPrintable(door->note()->text()));
        QVERIFY(!chart->grab().isNull());
        // To look at: WB_SCREENSHOT_DIR=/tmp/shots ctest -R ui_backends_test.
        if (const QString shots = qEnvironmentVariable("WB_SCREENSHOT_DIR"); !shots.isEmpty()) {
            QVERIFY(chart->exportPng(shots + QStringLiteral("/front-door-chart.png"), QSize(640, 340)));
            page.show();
            for (QTabWidget* tabs : page.findChildren<QTabWidget*>())
                for (int i = 0; i < tabs->count(); ++i)
                    if (tabs->tabText(i).startsWith(QStringLiteral("Backends"))
                        || tabs->tabText(i) == QStringLiteral("Front door")) {
                        tabs->setCurrentIndex(i);
                        QVERIFY(page.grab().save(shots + QStringLiteral("/run-%1.png").arg(i)));
                    }
        }

        // A run without the options has neither tab.
        RunData plain = data;
        plain.run.config.backendFrom = {};
        plain.run.config.upstreamTime = {};
        RunDetailPage without(plain);
        QVERIFY(!without.backendsTab());
        QVERIFY(!without.frontDoorTab());
    }

    // Connection churn against the built-in server: run details say how connections were reopened
    // and how many were opened and closed, the counts the CLI's JSON gave for the same run.
    void runDetailsSayWhatChurnOpened()
    {
        TargetServerOptions o;
        o.threads = 1;
        TargetServer server(o);
        QVERIFY(server.start().ok());
        const std::string db = m_dir.filePath(QStringLiteral("churn.wrkbench")).toStdString();
        const std::string json = m_dir.filePath(QStringLiteral("churn.json")).toStdString();
        const auto r = test::runCli({ "run", "-t1", "-c4", "-d1s", "--conn-requests", "20:30", "--db", db, "--json",
                                        json, "http://127.0.0.1:" + std::to_string(server.port()) + "/" },
            60'000);
        QVERIFY2(r.exitCode == 0, r.err.c_str());
        const auto doc = nlohmann::json::parse(test::readFile(json));
        const uint64_t opened = doc["connections"]["opened"].get<uint64_t>();
        const uint64_t closes = doc["connections"]["churn_closes"].get<uint64_t>();
        QVERIFY2(closes > 4, doc["connections"].dump().c_str());

        SessionOpenOptions readOnly;
        readOnly.readOnly = true;
        auto store = SessionStore::open(db, readOnly);
        QVERIFY(store);
        auto runs = (*store)->runs().list({});
        QVERIFY(runs && runs->size() == 1);
        const RunData data = load(db, runs->front().id);
        RunDetailPage page(data);
        auto* table = page.findChild<QTableWidget*>(QStringLiteral("summaryTable"));
        QVERIFY(table);
        QCOMPARE(figure(table, QStringLiteral("Connections")),
            QStringLiteral("Each connection reopened after 20 to 30 requests (churn)"));
        const QString shown = figure(table, QStringLiteral("Connections opened"));
        QVERIFY2(shown.startsWith(QString::number(opened) + QStringLiteral(" (")), qPrintable(shown));
        QVERIFY2(shown.endsWith(QStringLiteral("), %1 closed by churn").arg(closes)), qPrintable(shown));
    }

    // nginx balancing over three built-in servers, one stopped a third of the way through:
    // the Backends tab lists it as vanished at its last response, as stored.
    void aBackendThatStopsIsShownVanished()
    {
        if (!test::Nginx::available()) {
            if (test::underCi()) QFAIL("nginx is not installed, and CI must test against it");
            QSKIP("nginx is not installed (packaging/install-deps.sh installs it)");
        }
        std::vector<std::unique_ptr<TargetServer>> servers;
        test::NginxOptions options;
        for (int i = 0; i < 3; ++i) {
            TargetServerOptions o;
            o.text = "pod-" + std::to_string(i) + "\n";
            servers.push_back(std::make_unique<TargetServer>(o));
            QVERIFY(servers.back()->start().ok());
            options.balancedUpstreams.emplace_back(servers.back()->port(), 1);
        }
        test::Nginx nginx;
        QVERIFY2(nginx.start(options), nginx.log().c_str());
        const std::string db = m_dir.filePath(QStringLiteral("vanish.wrkbench")).toStdString();
        std::thread crash([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(1000));
            servers[2]->stop();
        });
        const auto r = test::runCli(
            { "run", "-t1", "-c4", "-d3s", "-R", "400", "--interval", "250ms", "--db", db, "--target", "balanced",
                "--backend-from", "body", "http://127.0.0.1:" + std::to_string(nginx.balancerPort()) + "/" },
            60'000);
        crash.join();
        QVERIFY2(r.exitCode == 0, (r.out + r.err).c_str());
        const RunData data = load(db, 1);
        const auto stored = byKey(csvRows(exported(db, 1, "backends")), "backend");
        QVERIFY(stored.count("pod-2"));

        RunDetailPage page(data);
        QTableWidget* events = page.backendsTab()->events();
        QVERIFY(!events->isHidden());
        QCOMPARE(events->rowCount(), 1);
        QCOMPARE(events->item(0, 0)->text(), QStringLiteral("vanished"));
        QCOMPARE(events->item(0, 1)->text(), QStringLiteral("pod-2"));
        QCOMPARE(
            events->item(0, 2)->text(), numberLocale().toString(number(stored.at("pod-2").at("last_seen_s")), 'f', 2));
        QVERIFY(number(stored.at("pod-2").at("last_seen_s")) < 1.5);
    }

    // A run made in the window with "Backends: body" in its profile: the Live strip has a bar per backend, the
    // one far below an even share red, and its counts add up to what the run stored per backend.
    void liveStripMarksABackendFarBelowItsShare()
    {
        TargetServerOptions o;
        o.threads = 2;
        o.backends = 4;
        o.skewedBackends = true; // 40, 30, 20, 10 %: the last is under half of an even 25 %
        TargetServer server(o);
        QVERIFY(server.start().ok());
        const QString path = m_dir.filePath(QStringLiteral("live.wrkbench"));
        MainWindow w;
        QVERIFY(w.openStartupSession(path));
        QVERIFY(targetsPanel(w)->addTarget() > 0);
        TargetEditor* editor = targetsPanel(w)->editor();
        const auto typeInto = [](QLineEdit* edit, const QString& text) {
            edit->setFocus();
            edit->selectAll();
            QTest::keyClick(edit, Qt::Key_Backspace);
            QTest::keyClicks(edit, text);
        };
        typeInto(editor->nameEdit(), QStringLiteral("skewed pods"));
        typeInto(editor->findChild<QLineEdit*>(QStringLiteral("urlEdit")),
            QStringLiteral("http://127.0.0.1:%1/").arg(server.port()));
        QVERIFY(editor->commit());
        w.show();
        QApplication::setActiveWindow(&w);
        QVERIFY(QTest::qWaitForWindowActive(&w));
        typeInto(profileEditor(w)->field(QStringLiteral("duration")), QStringLiteral("2s"));
        typeInto(profileEditor(w)->field(QStringLiteral("connections")), QStringLiteral("4"));
        typeInto(profileEditor(w)->field(QStringLiteral("backend_from")), QStringLiteral("body"));
        QVERIFY2(profileEditor(w)->isValid(),
            qPrintable(profileEditor(w)->findChild<QLabel*>(QStringLiteral("statusLabel"))->text()));

        BackendStrip* strip = livePage(w)->backends();
        QVERIFY(strip);
        QSignalSpy finished(runTask(w), &RunTask::finished);
        QTest::keyClick(&w, Qt::Key_F5);
        QVERIFY(runTask(w)->isActive());
        QVERIFY(finished.wait(60'000) || !finished.isEmpty());
        const RunOutcome outcome = finished.takeFirst()[0].value<RunOutcome>();
        QVERIFY2(outcome.status == RunStatus::Completed, qPrintable(outcome.error + m_errors.join(QLatin1Char('\n'))));

        QCOMPARE(strip->names().size(), 4);
        QVERIFY(!strip->isHidden());
        const int pod3 = static_cast<int>(strip->names().indexOf(QStringLiteral("backend-3")));
        QVERIFY(pod3 >= 0);
        QCOMPARE(strip->farBelow(), QVector<int> { pod3 });
        QCOMPARE(strip->evenShare(), 0.25);

        // What the strip added up live is what was stored, backend by backend.
        const RunData data = load(path.toStdString(), outcome.runId);
        QCOMPARE(data.run.config.backendFrom.source, BackendFrom::Source::Body);
        const FrontDoorView view = frontDoorViewOf(data);
        QCOMPARE(view.backends.names.size(), size_t(4));
        for (size_t i = 0; i < view.backends.names.size(); ++i) {
            const int at = static_cast<int>(strip->names().indexOf(QString::fromStdString(view.backends.names[i])));
            QVERIFY(at >= 0);
            QCOMPARE(strip->totalRequests()[at], static_cast<quint64>(view.backends.stats[i].requests));
        }

        // The red bar is drawn red.
        strip->resize(400, strip->sizeHint().height());
        QImage image(strip->size(), QImage::Format_ARGB32);
        image.fill(Qt::white);
        strip->render(&image);
        const int row = static_cast<int>(strip->shown().indexOf(pod3));
        QCOMPARE(image.pixelColor(142, 3 + row * 17 + 7), QColor(0xc6, 0x28, 0x28));
        const int busiest = static_cast<int>(strip->names().indexOf(QStringLiteral("backend-0")));
        QCOMPARE(image.pixelColor(142, 3 + static_cast<int>(strip->shown().indexOf(busiest)) * 17 + 7),
            QColor(0x1e, 0x88, 0xe5));
    }

    // Two runs, an even spread and a skewed one: Compare sets their evenness and front-door shares side by side.
    void compareSetsEvennessAndFrontDoorSideBySide()
    {
        TargetServerOptions evenOptions;
        evenOptions.threads = 2;
        evenOptions.backends = 4;
        evenOptions.delayUs = 1000;
        evenOptions.upstreamTimeHeader = true;
        TargetServer even(evenOptions);
        TargetServerOptions skewedOptions = evenOptions;
        skewedOptions.skewedBackends = true;
        TargetServer skewed(skewedOptions);
        QVERIFY(even.start().ok());
        QVERIFY(skewed.start().ok());
        const std::string db = m_dir.filePath(QStringLiteral("compare.wrkbench")).toStdString();
        const int64_t a = cliRun(db, "NEG", "http://127.0.0.1:" + std::to_string(even.port()) + "/");
        const int64_t b = cliRun(db, "NodePort", "http://127.0.0.1:" + std::to_string(skewed.port()) + "/");
        QVERIFY(a > 0 && b > a);

        ComparePage page;
        page.setRuns({ load(db, a), load(db, b) });
        CompareFrontDoor* side = page.frontDoor();
        QVERIFY(side->hasData());
        // A tab beside the charts, not a block above the table that leaves it a row or two.
        QTabWidget* tabs = page.lowerTabs();
        QVERIFY(tabs->indexOf(side) >= 0);
        QCOMPARE(tabs->tabText(tabs->indexOf(side)), QStringLiteral("Behind the front door"));
        QTableWidget* t = side->table();
        QCOMPARE(t->columnCount(), 2);
        QVERIFY(t->horizontalHeaderItem(0)->text().contains(QStringLiteral("baseline")));
        const auto rowNamed = [t](const QString& name) {
            for (int r = 0; r < t->rowCount(); ++r)
                if (t->verticalHeaderItem(r)->text() == name) return r;
            return -1;
        };
        const int64_t ids[] = { a, b };
        for (int c = 0; c < 2; ++c) {
            const std::vector<CsvRow> backends = csvRows(exported(db, ids[c], "backends"));
            const Evenness e = evennessOf(backends);
            QCOMPARE(t->item(rowNamed(QStringLiteral("Backends")), c)->text(), QStringLiteral("4"));
            QCOMPARE(t->item(rowNamed(QStringLiteral("Backend CV")), c)->text(), QString::asprintf("%.3f", e.cv));
            QCOMPARE(t->item(rowNamed(QStringLiteral("Backend max/min share")), c)->text(),
                QString::asprintf("%.3f", e.maxMin));
            const auto split = byKey(csvRows(exported(db, ids[c], "upstream")), "kind");
            const double up = number(split.at("upstream").at("mean_ms"));
            const double fd = number(split.at("front_door").at("mean_ms"));
            QCOMPARE(t->item(rowNamed(QStringLiteral("Front-door share (mean)")), c)->text(),
                QString::asprintf("%.1f%%", 100.0 * fd / (up + fd)));
            QVERIFY(sameMs(t->item(rowNamed(QStringLiteral("Mean upstream (ms)")), c), up));
            QVERIFY(sameMs(t->item(rowNamed(QStringLiteral("Mean front door (ms)")), c), fd));
        }
        // The even spread is even (round robin: counts within one of each other), the skewed one is not.
        QVERIFY(cellNumber(t->item(rowNamed(QStringLiteral("Backend CV")), 0)) < 0.01);
        QVERIFY(cellNumber(t->item(rowNamed(QStringLiteral("Backend CV")), 1)) > 0.4);

        // Runs without either option: nothing to set side by side, and the section stays hidden.
        RunData bareA = load(db, a), bareB = load(db, b);
        for (RunData* d : { &bareA, &bareB }) {
            d->run.config.backendFrom = {};
            d->run.config.upstreamTime = {};
        }
        page.setRuns({ bareA, bareB });
        QVERIFY(!side->hasData());
        QVERIFY(side->isHidden());
        QCOMPARE(tabs->indexOf(side), -1);
        QVERIFY(tabs->isHidden()); // the charts alone, without a tab bar
        QVERIFY(page.charts()->parentWidget() != nullptr);
        // And the tabs again with runs that have them.
        page.setRuns({ load(db, a), load(db, b) });
        QVERIFY(tabs->indexOf(side) >= 0);
        QCOMPARE(tabs->indexOf(page.charts()), 0);
    }
};

WB_UI_TEST(BackendsTest)
#include "backends_test.moc"
