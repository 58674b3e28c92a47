#pragma once
// Shared by the UI tests: a test main that runs offscreen in a private
// XDG home (tests never touch the user's settings or default session), and
// sessions filled with runs built from real histograms.

#include "run/runfold.h"
#include "run/slo.h"
#include "stats/snapshot.h"
#include "store/sessionstore.h"

#include <QAbstractButton>
#include <QApplication>
#include <QFile>
#include <QLineEdit>
#include <QMessageBox>
#include <QTemporaryDir>
#include <QTest>
#include <cstdlib>
#include <functional>
#include <memory>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace wb::uitest {

/// Offscreen unless the caller chose a platform; XDG data/config in a
/// temporary directory that lives as long as the process.
inline void prepareEnvironment()
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    static QTemporaryDir home;
    qputenv("XDG_DATA_HOME", (home.path() + QStringLiteral("/data")).toLocal8Bit());
    qputenv("XDG_CONFIG_HOME", (home.path() + QStringLiteral("/config")).toLocal8Bit());
    qputenv("XDG_RUNTIME_DIR", home.path().toLocal8Bit()); // QTemporaryDir is 0700, as the spec wants
}

/// A run as the engine would have produced it: `intervals` intervals of
/// `intervalS`, `requestsPerS` responses a second with latencies spread
/// uniformly over [latencyUs, 2 * latencyUs), `errorsPerS` read errors and
/// `non2xxPerS` 503 responses a second.
struct SyntheticRun
{
    double requestsPerS = 1000;
    uint64_t latencyUs = 1000;
    double errorsPerS = 0;
    double non2xxPerS = 0;
    int intervals = 8;
    double intervalS = 0.25;
    unsigned threads = 2;
    unsigned connections = 50;
    std::vector<std::string> tags;
    std::string notes;
    /// When set: one interval per entry at that rate (req/s), instead of
    /// `intervals` intervals at requestsPerS.
    std::vector<double> intervalRates;
    /// When set: interval i's latencies start at intervalLatenciesUs[i] instead of latencyUs
    /// (one entry per interval).
    std::vector<uint64_t> intervalLatenciesUs;
    /// When set: an open-model run at requestsPerS whose every request was sent this
    /// late (send lag), with the service time latencyUs - sendLagUs.
    uint64_t sendLagUs = 0;
    /// When set: every connection connected in the first interval, taking this long, and every
    /// response's first byte came after half its latency (the connection phases, schema 6).
    uint64_t connectUs = 0;
    uint64_t tlsHandshakeUs = 0; ///< with connectUs: each connection's TLS handshake
    /// SLOs the run is judged by ("p99<250ms"): in its config, and evaluated on its totals
    /// when it ends by the engine's evaluateSlos(), as RunController does.
    std::vector<std::string> slos;
};

inline IntervalSnapshot syntheticInterval(const SyntheticRun& s, uint32_t index)
{
    IntervalSnapshot snap;
    snap.index = index;
    snap.startS = index * s.intervalS;
    snap.endS = (index + 1) * s.intervalS;
    const auto n = static_cast<uint64_t>(s.requestsPerS * s.intervalS);
    const auto non2xx = static_cast<uint64_t>(s.non2xxPerS * s.intervalS);
    for (uint64_t i = 0; i < n; ++i) {
        const uint64_t latencyUs = s.latencyUs + (i * s.latencyUs) / (n ? n : 1);
        snap.latency.record(latencyUs);
        if (s.sendLagUs > 0) {
            snap.sendLag.record(s.sendLagUs);
            snap.serviceLatency.record(latencyUs > s.sendLagUs ? latencyUs - s.sendLagUs : 1);
        }
        snap.status.add(i < non2xx ? 503 : 200);
        if (s.connectUs > 0) snap.firstByte.record(latencyUs / 2);
    }
    if (s.connectUs > 0 && index == 0) {
        snap.connectTime.recordN(s.connectUs, s.connections);
        if (s.tlsHandshakeUs > 0) snap.tlsHandshake.recordN(s.tlsHandshakeUs, s.connections);
    }
    snap.requests = n;
    snap.bytes = n * 150;
    snap.errors.read = static_cast<uint64_t>(s.errorsPerS * s.intervalS);
    snap.connections = s.connections;
    return snap;
}

/// Writes a completed synthetic run into store (through the store's own
/// recording calls, as SessionRecorder does) and returns its id.
inline int64_t addSyntheticRun(SessionStore& store, int64_t targetId, const SyntheticRun& s)
{
    RunConfig config;
    auto target = store.targets().get(targetId);
    config.request.url = *parseUrl(target ? target->url : "http://127.0.0.1:8080/");
    const int intervals = s.intervalRates.empty() ? s.intervals : static_cast<int>(s.intervalRates.size());
    config.threads = s.threads;
    config.connections = s.connections;
    config.durationUs = static_cast<uint64_t>(intervals * s.intervalS * 1e6);
    config.intervalUs = static_cast<uint64_t>(s.intervalS * 1e6);
    if (s.sendLagUs > 0) config.ratePerS = s.requestsPerS;
    for (const std::string& text : s.slos)
        if (auto slo = parseSlo(text)) config.slos.push_back(*slo);
    NewRun run;
    run.targetId = targetId;
    run.config = config;
    run.startedAtMs = wallClockNowMs();
    run.tags = s.tags;
    run.notes = s.notes;
    auto id = store.runs().begin(run);
    if (!id) return 0;
    RunFold fold(config);
    std::vector<IntervalRecord> records;
    for (int i = 0; i < intervals; ++i) {
        SyntheticRun at = s;
        if (!s.intervalRates.empty()) at.requestsPerS = s.intervalRates[static_cast<size_t>(i)];
        if (!s.intervalLatenciesUs.empty()) at.latencyUs = s.intervalLatenciesUs[static_cast<size_t>(i)];
        const IntervalSnapshot snap = syntheticInterval(at, static_cast<uint32_t>(i));
        records.push_back(IntervalRecord::of(snap));
        fold.add(snap, records.back());
    }
    RunEnd end;
    end.engineVersion = "test";
    end.measuredS = intervals * s.intervalS;
    const RunResult result = fold.finish(end);
    if (!store.runs().appendIntervals(*id, records)) return 0;
    if (!store.runs().finish(*id, FinishedRun::of(result, wallClockNowMs()))) return 0;
    return *id;
}

/// A loopback port with nothing listening (bound, never listened on, then closed).
inline uint16_t closedPort()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a {};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
    socklen_t len = sizeof a;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
    ::close(fd);
    return ntohs(a.sin_port);
}

/// The button of box labelled text (mnemonic '&' ignored), or null.
inline QAbstractButton* buttonNamed(QMessageBox* box, const QString& text)
{
    for (QAbstractButton* b : box->buttons())
        if (b->text().remove(QLatin1Char('&')) == text) return b;
    return nullptr;
}

inline Target makeTarget(const std::string& name, const std::string& url, std::vector<std::string> tags = {})
{
    Target t;
    t.name = name;
    t.url = url;
    t.tags = std::move(tags);
    return t;
}

/// The target as the session file at path holds it, read through a connection of its own (not the
/// window's); an empty target when there is none.
inline Target storedTarget(const QString& path, int64_t id)
{
    auto store = SessionStore::open(path.toStdString());
    if (!store) return {};
    auto t = (*store)->targets().get(id);
    return t ? *t : Target {};
}

/// Replaces the text of edit as a user does: the field focused, its text selected and deleted, then
/// text typed key by key.
inline void typeInto(QLineEdit* edit, const QString& text)
{
    edit->setFocus();
    edit->selectAll();
    QTest::keyClick(edit, Qt::Key_Backspace);
    QTest::keyClicks(edit, text);
}

/// Writes content to the file name in dir; its path, or empty when it cannot be written.
inline QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& content)
{
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly)) return {};
    file.write(content);
    return path;
}

/// Makes one test class's object (constructed once QApplication exists).
using TestFactory = std::function<std::unique_ptr<QObject>()>;

/// Registers a test class of ui_test (uitestmain.cpp) under its file's name: `ui_test history` runs
/// the class of history_test.cpp. Called by WB_UI_TEST.
bool registerTest(const char* sourceFile, TestFactory factory);

/// Runs one test class as QTEST_MAIN would, with the environment above set before QApplication
/// exists: ui_test's main() and the responsiveness bench's.
inline int runTestClass(int argc, char** argv, const TestFactory& make)
{
    prepareEnvironment();
    QApplication app(argc, argv);
    app.setAttribute(Qt::AA_Use96Dpi, true);
    const std::unique_ptr<QObject> test = make();
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(test.get(), argc, argv);
}

} // namespace wb::uitest

/// A window test's class, run by `ui_test NAME` (uitestmain.cpp) in the environment above: what
/// QTEST_MAIN is to a test of its own executable.
#define WB_UI_TEST(TestClass)                                                                                          \
    namespace {                                                                                                        \
    const bool registered##TestClass                                                                                   \
        = wb::uitest::registerTest(__FILE__, [] { return std::unique_ptr<QObject>(new TestClass); });                  \
    }

/// QTEST_MAIN with the environment above, for a program of its own (the responsiveness bench).
#define WB_UI_TEST_MAIN(TestClass)                                                                                     \
    int main(int argc, char** argv)                                                                                    \
    {                                                                                                                  \
        return wb::uitest::runTestClass(argc, argv, [] { return std::unique_ptr<QObject>(new TestClass); });           \
    }
