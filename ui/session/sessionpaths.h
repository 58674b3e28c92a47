#pragma once
// Where sessions live and which were used last (QSettings).

#include <QSettings>
#include <QString>
#include <QStringList>
#include <memory>

namespace wb::ui {

/// XDG data directory (QStandardPaths::AppDataLocation, so $XDG_DATA_HOME is
/// respected) + "/default.wrkbench".
QString defaultSessionPath();
/// The application's settings (~/.config/wrkbench/wrkbench.conf, $XDG_CONFIG_HOME respected).
std::unique_ptr<QSettings> appSettings();

/// Most recent first, at most MAX_RECENT, only files that still exist.
QStringList recentSessions();
/// Moves path to the front of the recent list and remembers it as the last session.
void noteSessionOpened(const QString& path);
/// The session open when the application last closed ("" when none).
QString lastSession();

inline constexpr int MAX_RECENT = 8;

} // namespace wb::ui
