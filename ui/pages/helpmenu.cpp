#include "pages/helpmenu.h"

#include <QAction>
#include <QCoreApplication>
#include <QDesktopServices>
#include <QDialog>
#include <QDir>
#include <QFileInfo>
#include <QHeaderView>
#include <QMessageBox>
#include <QTableWidget>
#include <QUrl>
#include <QVBoxLayout>
#include <QWidget>

namespace wb::ui {

QList<QPair<QString, QString>> keyboardShortcuts(const QWidget& window)
{
    QList<QPair<QString, QString>> out;
    for (const QAction* action : window.findChildren<QAction*>()) {
        if (action->shortcuts().isEmpty() || action->text().isEmpty()) continue;
        QStringList keys;
        for (const QKeySequence& key : action->shortcuts())
            keys << key.toString(QKeySequence::NativeText);
        const QString what = QString(action->text()).remove(QLatin1Char('&')).remove(QStringLiteral("…"));
        const QPair<QString, QString> entry { what, keys.join(QStringLiteral(", ")) };
        if (!out.contains(entry)) out << entry;
    }
    return out;
}

QDialog* showKeyboardShortcuts(QWidget* window)
{
    const QList<QPair<QString, QString>> shortcuts = keyboardShortcuts(*window);
    auto* dialog = new QDialog(window);
    dialog->setObjectName(QStringLiteral("shortcutsDialog"));
    dialog->setWindowTitle(QObject::tr("Keyboard shortcuts"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    auto* table = new QTableWidget(static_cast<int>(shortcuts.size()), 2, dialog);
    table->setObjectName(QStringLiteral("shortcutsTable"));
    table->setHorizontalHeaderLabels({ QObject::tr("Action"), QObject::tr("Keys") });
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->horizontalHeader()->setStretchLastSection(true);
    for (int i = 0; i < shortcuts.size(); ++i) {
        table->setItem(i, 0, new QTableWidgetItem(shortcuts[i].first));
        table->setItem(i, 1, new QTableWidgetItem(shortcuts[i].second));
    }
    table->resizeColumnToContents(0);
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(table);
    dialog->resize(460, 520);
    dialog->show();
    return dialog;
}

QString localGuidePath()
{
    QStringList dirs;
    if (const QString env = qEnvironmentVariable("WRKBENCH_DOCS"); !env.isEmpty()) dirs << env;
    const QDir bin(QCoreApplication::applicationDirPath());
    dirs << bin.filePath(QStringLiteral("../share/doc/wrkbench")) << bin.filePath(QStringLiteral("docs"))
         << bin.filePath(QStringLiteral("../docs")) << bin.filePath(QStringLiteral("../../docs"));
#ifdef WB_SOURCE_DOCS_DIR
    dirs << QStringLiteral(WB_SOURCE_DOCS_DIR);
#endif
    for (const QString& dir : dirs)
        if (const QFileInfo guide(QDir(dir).filePath(QStringLiteral("GUI.md"))); guide.isFile())
            return guide.canonicalFilePath();
    return {};
}

void openDocumentation(QWidget* parent)
{
    const QString guide = localGuidePath();
    if (!guide.isEmpty() && QDesktopServices::openUrl(QUrl::fromLocalFile(guide))) return;
    QMessageBox::information(parent, QObject::tr("Documentation"),
        guide.isEmpty()
            ? QObject::tr("The user's guide is docs/GUI.md in wrkbench's source tree (README.md beside it for the "
                          "command line, docs/EXPERIMENTS.md for experiments); set WRKBENCH_DOCS to its folder and "
                          "Help → Documentation opens it.")
            : QObject::tr("The user's guide is %1 (no viewer for it was found on this desktop).").arg(guide));
}

} // namespace wb::ui
