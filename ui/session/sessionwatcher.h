#pragma once
// Notices when another process (wrkbench-cli run --db, an import) writes the
// open session: a QFileSystemWatcher on the file and its -wal, plus a cheap
// periodic stat() in case inotify misses something (network file systems,
// a -wal file created after we started watching). Bursts are debounced into
// one changed() signal.

#include <QDateTime>
#include <QFileSystemWatcher>
#include <QObject>
#include <QTimer>

namespace wb::ui {

class SessionWatcher : public QObject
{
    Q_OBJECT
public:
    static constexpr int DEBOUNCE_MS = 250; ///< a CLI run commits every ~250 ms: one reload per burst
    static constexpr int POLL_MS = 2000;

    static constexpr int BUSY_DEBOUNCE_MS = 2000;

    explicit SessionWatcher(const QString& path, QObject* parent = nullptr);
    /// While this process records a run (a commit every ~250 ms), reload at most
    /// every BUSY_DEBOUNCE_MS: the UI thread's time goes to the live charts.
    void setBusy(bool busy);

signals:
    /// The file or its write-ahead log changed (debounced).
    void changed();

private:
    struct Stamp
    {
        qint64 size = -1;
        qint64 mtimeNs = 0;
        bool operator==(const Stamp&) const = default;
    };
    static Stamp stampOf(const QString& file);
    void watchFiles();
    void poll();
    void touched();
    void schedule();

    QString m_path;
    QString m_walPath;
    QFileSystemWatcher m_watcher;
    QTimer m_poll;
    QTimer m_debounce;
    Stamp m_main;
    Stamp m_wal;
};

} // namespace wb::ui
