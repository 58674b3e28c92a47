// The window at 1024 × 700, the smallest laptop screen a user brings: every page fits its width
// (nothing cut on the right: no widget asks more than the window gives), on a new session with the
// demo targets, the Load profile dock and each of the four pages.

#include "mainwindow.h"
#include "uitestsupport.h"
#include "windowparts.h"

#include <QDockWidget>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

using namespace wb;
using namespace wb::ui;
using namespace wb::uitest;

namespace {

/// The widgets inside `root` whose minimum width is more than they were given: the ones a
/// narrow window cuts (their names, for the failure message).
QStringList squeezed(QWidget* root)
{
    QStringList out;
    const auto check = [&out](QWidget* w) {
        // Qt's own dock title buttons draw in what they get.
        if (!w->isVisible() || w->inherits("QDockWidgetTitleButton")) return;
        const int need = std::max(w->minimumSizeHint().width(), w->minimumWidth());
        if (need > w->width() + 1)
            out << QStringLiteral("%1 '%2' needs %3 px, has %4")
                       .arg(QString::fromLatin1(w->metaObject()->className()), w->objectName())
                       .arg(need)
                       .arg(w->width());
    };
    check(root);
    for (QWidget* w : root->findChildren<QWidget*>())
        check(w);
    return out;
}

} // namespace

class NarrowTest : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

private slots:
    void everyPageFitsAWindowOf1024By700()
    {
        MainWindow w;
        QVERIFY(w.openSession(m_dir.filePath(QStringLiteral("narrow.wrkbench")), true));
        w.resize(1024, 700);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QApplication::processEvents();
        QVERIFY2(w.minimumSizeHint().width() <= 1024, qPrintable(QString::number(w.minimumSizeHint().width())));
        QVERIFY2(w.minimumSizeHint().height() <= 700, qPrintable(QString::number(w.minimumSizeHint().height())));
        QCOMPARE(w.width(), 1024);
        QCOMPARE(w.height(), 700);
        QVERIFY2(w.statusBar()->minimumSizeHint().width() <= 1024,
            qPrintable(QString::number(w.statusBar()->minimumSizeHint().width())));
        QTabWidget* pages = tabs(w);
        for (int i = 0; i < pages->count(); ++i) {
            pages->setCurrentIndex(i);
            QApplication::processEvents();
            const QStringList cut = squeezed(pages->currentWidget());
            QVERIFY2(
                cut.isEmpty(), qPrintable(pages->tabText(i) + QStringLiteral(": ") + cut.join(QStringLiteral("; "))));
        }
        for (QDockWidget* dock : w.findChildren<QDockWidget*>()) {
            dock->raise();
            QApplication::processEvents();
            const QStringList cut = squeezed(dock);
            QVERIFY2(
                cut.isEmpty(), qPrintable(dock->windowTitle() + QStringLiteral(": ") + cut.join(QStringLiteral("; "))));
        }
    }
};

WB_UI_TEST(NarrowTest)
#include "narrow_test.moc"
