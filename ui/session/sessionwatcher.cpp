#include "session/sessionwatcher.h"

#include <QFileInfo>
#include <sys/stat.h>

namespace wb::ui {

SessionWatcher::SessionWatcher(const QString& path, QObject* parent)
    : QObject(parent)
    , m_path(path)
    , m_walPath(path + QStringLiteral("-wal"))
{
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(DEBOUNCE_MS);
    connect(&m_debounce, &QTimer::timeout, this, &SessionWatcher::changed);
    connect(&m_watcher, &QFileSystemWatcher::fileChanged, this, &SessionWatcher::touched);
    connect(&m_poll, &QTimer::timeout, this, &SessionWatcher::poll);
    m_poll.start(POLL_MS);
    m_main = stampOf(m_path);
    m_wal = stampOf(m_walPath);
    watchFiles();
}

void SessionWatcher::setBusy(bool busy)
{
    m_debounce.setInterval(busy ? BUSY_DEBOUNCE_MS : DEBOUNCE_MS);
}

SessionWatcher::Stamp SessionWatcher::stampOf(const QString& file)
{
    // stat() directly: QFileInfo caches, and its millisecond mtime misses quick successive commits.
    struct stat st
    { };
    if (::stat(QFile::encodeName(file).constData(), &st) != 0) return {};
    return { static_cast<qint64>(st.st_size),
        static_cast<qint64>(st.st_mtim.tv_sec) * 1'000'000'000 + static_cast<qint64>(st.st_mtim.tv_nsec) };
}

void SessionWatcher::watchFiles()
{
    // The watcher drops files that are replaced or removed (SQLite deletes the -wal on close): re-add them.
    const QStringList watched = m_watcher.files();
    for (const QString& file : { m_path, m_walPath })
        if (!watched.contains(file) && QFileInfo::exists(file)) m_watcher.addPath(file);
}

void SessionWatcher::schedule()
{
    // Not restarted by later events: a run that commits continuously must not postpone the reload forever.
    if (!m_debounce.isActive()) m_debounce.start();
}

void SessionWatcher::touched()
{
    m_main = stampOf(m_path);
    m_wal = stampOf(m_walPath);
    watchFiles();
    schedule();
}

void SessionWatcher::poll()
{
    const Stamp main = stampOf(m_path);
    const Stamp wal = stampOf(m_walPath);
    if (main == m_main && wal == m_wal) return;
    m_main = main;
    m_wal = wal;
    watchFiles();
    schedule();
}

} // namespace wb::ui
