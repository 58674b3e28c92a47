// wrkbench: the desktop workbench. Thin: arguments, the application object,
// the main window; everything else lives in wb_ui.
//
//   wrkbench [SESSION]     open SESSION (created when missing); default: the
//                          last session, else the default session
//   wrkbench --version

#include "mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTextStream>
#include <csignal>
#include <cstdio>
#include <cstring>

int main(int argc, char** argv)
{
    // Before QApplication, which needs a display: `wrkbench --version` works over ssh too.
    for (int i = 1; i < argc; ++i)
        if (std::strcmp(argv[i], "--version") == 0 || std::strcmp(argv[i], "-v") == 0) {
            std::printf("wrkbench %s\n", WB_VERSION);
            return 0;
        }

    // The window serves the built-in targets and talks to agents on its own sockets: a peer that
    // closes first must cost a write an EPIPE, not the whole window a SIGPIPE.
    std::signal(SIGPIPE, SIG_IGN);
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("wrkbench"));
    QApplication::setApplicationVersion(QStringLiteral(WB_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("io.github.wrkbench.Wrkbench")); // resources/*.desktop
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/wrkbench.svg")));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("wrkbench: HTTP load benchmarking workbench"));
    parser.addHelpOption();
    parser.addOption(
        { { QStringLiteral("v"), QStringLiteral("version") }, QStringLiteral("Print the version and exit.") });
    parser.addPositionalArgument(QStringLiteral("session"),
        QStringLiteral("Session file to open (created when it does not exist)."), QStringLiteral("[SESSION]"));
    parser.process(app);
    const QStringList args = parser.positionalArguments();
    if (args.size() > 1) {
        QTextStream(stderr) << "wrkbench: one session file at most" << Qt::endl;
        return 2;
    }

    wb::ui::MainWindow window;
    if (!window.openStartupSession(args.value(0))) return 1;
    window.show();
    return app.exec();
}
