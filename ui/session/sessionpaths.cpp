#include "session/sessionpaths.h"

#include <QFileInfo>
#include <QStandardPaths>

namespace wb::ui {

QString defaultSessionPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/default.wrkbench");
}

std::unique_ptr<QSettings> appSettings()
{
    return std::make_unique<QSettings>(QStringLiteral("wrkbench"), QStringLiteral("wrkbench"));
}

QStringList recentSessions()
{
    QStringList out;
    for (const QString& path : appSettings()->value(QStringLiteral("session/recent")).toStringList())
        if (QFileInfo::exists(path) && !out.contains(path)) out << path;
    return out.mid(0, MAX_RECENT);
}

void noteSessionOpened(const QString& path)
{
    QStringList list = recentSessions();
    list.removeAll(path);
    list.prepend(path);
    auto settings = appSettings();
    settings->setValue(QStringLiteral("session/recent"), list.mid(0, MAX_RECENT));
    settings->setValue(QStringLiteral("session/last"), path);
}

QString lastSession()
{
    return appSettings()->value(QStringLiteral("session/last")).toString();
}

} // namespace wb::ui
