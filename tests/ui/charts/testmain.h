#pragma once
// main() for the chart tests: QApplication on the offscreen platform unless
// the environment asks for another one (QT_QPA_PLATFORM=xcb to watch).

#include <QApplication>
#include <QtTest>

#define WB_QTEST_MAIN(TestClass)                                                                                       \
    int main(int argc, char** argv)                                                                                    \
    {                                                                                                                  \
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");                   \
        QApplication app(argc, argv);                                                                                  \
        TestClass test;                                                                                                \
        return QTest::qExec(&test, argc, argv);                                                                        \
    }
