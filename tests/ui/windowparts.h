#pragma once
// The main window's parts, found the way a user's tools would find them: by
// type or object name (QObject::findChild), not through accessors kept for tests.

#include "control/runcoordinator.h"
#include "control/runtask.h"
#include "mainwindow.h"
#include "pages/comparepage.h"
#include "pages/experimentpage.h"
#include "pages/livepage.h"
#include "pages/probedialog.h"
#include "pages/profileeditor.h"
#include "pages/runbadge.h"
#include "pages/runspage.h"
#include "pages/targetspanel.h"

#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QTabWidget>

namespace wb::uitest {

/// The one child of window of type T (named name, when given); fails the test run when there is none.
template<typename T> T* partOf(const QWidget& window, const QString& name = {})
{
    T* part = window.findChild<T*>(name);
    if (!part) qFatal("the window has no %s %s", T::staticMetaObject.className(), qPrintable(name));
    return part;
}

inline ui::RunCoordinator* coordinator(const ui::MainWindow& w)
{
    return partOf<ui::RunCoordinator>(w);
}
inline ui::RunTask* runTask(const ui::MainWindow& w)
{
    return coordinator(w)->task();
}
inline ui::TargetsPanel* targetsPanel(const ui::MainWindow& w)
{
    return partOf<ui::TargetsPanel>(w);
}
inline ui::ProfileEditor* profileEditor(const ui::MainWindow& w)
{
    return partOf<ui::ProfileEditor>(w);
}
inline QComboBox* profileCombo(const ui::MainWindow& w)
{
    return partOf<QComboBox>(w, QStringLiteral("profileCombo"));
}
inline QTabWidget* tabs(const ui::MainWindow& w)
{
    return partOf<QTabWidget>(w, QStringLiteral("mainTabs"));
}
inline ui::LivePage* livePage(const ui::MainWindow& w)
{
    return partOf<ui::LivePage>(w);
}
inline ui::RunBadge* runBadge(const ui::MainWindow& w)
{
    return partOf<ui::RunBadge>(w);
}
inline ui::RunsPage* runsPage(const ui::MainWindow& w)
{
    return partOf<ui::RunsPage>(w);
}
inline ui::ComparePage* comparePage(const ui::MainWindow& w)
{
    return partOf<ui::ComparePage>(w);
}
inline ui::ExperimentPage* experimentPage(const ui::MainWindow& w)
{
    return partOf<ui::ExperimentPage>(w);
}
inline QAction* runAction(const ui::MainWindow& w)
{
    return partOf<QAction>(w, QStringLiteral("runAction"));
}
inline QAction* stopAction(const ui::MainWindow& w)
{
    return partOf<QAction>(w, QStringLiteral("stopAction"));
}
inline QAction* probeAction(const ui::MainWindow& w)
{
    return partOf<QAction>(w, QStringLiteral("probeAction"));
}
/// The Probe dialog, null until the first probe.
inline ui::ProbeDialog* probeDialog(const ui::MainWindow& w)
{
    return w.findChild<ui::ProbeDialog*>();
}
/// The "Run anyway?" question after a failed pre-run probe, while it is shown.
inline QMessageBox* probeFailedBox(const ui::MainWindow& w)
{
    return w.runAnywayBox();
}
/// The status bar's run count and what the last run from the window did.
inline QString lastRunText(const ui::MainWindow& w)
{
    return partOf<QLabel>(w, QStringLiteral("lastRunLabel"))->text();
}

} // namespace wb::uitest
