#pragma once
// Help → Keyboard shortcuts and Help → Documentation. The shortcuts are read from the
// window's own actions (menus and toolbar), so the list is what the keys do, never a copy
// that drifts; the documentation is the user's guide on this machine (docs/GUI.md and the
// README beside it), or where to find it when it is not installed.

#include <QList>
#include <QPair>
#include <QString>

class QDialog;
class QWidget;

namespace wb::ui {

/// Every action of window with a shortcut: (what it does, as its menu names it; the keys,
/// every sequence it answers to, in the platform's spelling), in menu order, each once.
QList<QPair<QString, QString>> keyboardShortcuts(const QWidget& window);
/// Shows them in a dialog (object name "shortcutsDialog"); not modal.
QDialog* showKeyboardShortcuts(QWidget* window);

/// The user's guide on this machine: $WRKBENCH_DOCS/GUI.md, then docs/ beside or above the
/// executable (an install, a build tree), then the source tree it was built from; "" when none exists.
QString localGuidePath();
/// Opens the guide in the desktop's viewer, or says where the documentation is.
void openDocumentation(QWidget* parent);

} // namespace wb::ui
