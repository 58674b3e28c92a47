#include "session/sessioncopy.h"

#include <QCoreApplication>
#include <QFile>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sqlite3.h>

namespace wb::ui {

QString copySession(SessionStore& store, const QString& path)
{
    const QString temporary = path + QStringLiteral(".saving-%1").arg(QCoreApplication::applicationPid());
    const auto failed = [&](const QString& why) {
        QFile::remove(temporary);
        return QCoreApplication::translate("wb::ui::copySession", "Could not write '%1': %2").arg(path, why);
    };
    QFile::remove(temporary);
    const std::string sql
        = "VACUUM INTO '" + QString(temporary).replace(QLatin1Char('\''), QStringLiteral("''")).toStdString() + "'";
    char* message = nullptr;
    if (sqlite3_exec(store.nativeHandle(), sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
        const QString why = QString::fromUtf8(message ? message : "unknown error");
        sqlite3_free(message);
        return failed(why);
    }
    // A replaced session's write-ahead log and index belong to the old file, not to the copy.
    QFile::remove(path + QStringLiteral("-wal"));
    QFile::remove(path + QStringLiteral("-shm"));
    if (std::rename(QFile::encodeName(temporary).constData(), QFile::encodeName(path).constData()) != 0)
        return failed(QString::fromLocal8Bit(std::strerror(errno)));
    return {};
}

} // namespace wb::ui
