#include "pages/scriptdetails.h"

#include "forms/scriptform.h"

#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QVBoxLayout>

namespace wb::ui {

namespace {

QPlainTextEdit* textBox(const QString& name, const QString& text, QWidget* parent)
{
    auto* box = new QPlainTextEdit(parent);
    box->setObjectName(name);
    box->setReadOnly(true);
    box->setLineWrapMode(QPlainTextEdit::NoWrap);
    box->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    box->setPlainText(text);
    return box;
}

} // namespace

QWidget* makeScriptDetails(const RunRecord& r, QWidget* parent)
{
    const ScriptSpec& s = r.config.script;
    auto* page = new QWidget(parent);
    page->setObjectName(QStringLiteral("scriptDetails"));
    auto* head = new QLabel(page);
    head->setTextFormat(Qt::PlainText);
    head->setWordWrap(true);
    const QString args = joinScriptArgs(s.args);
    head->setText(args.isEmpty() ? QObject::tr("%1 (no arguments)").arg(QString::fromStdString(s.name))
                                 : QObject::tr("%1 -- %2").arg(QString::fromStdString(s.name), args));
    const QString printed = QString::fromUtf8(r.scriptOutput.data(), static_cast<qsizetype>(r.scriptOutput.size()));
    auto* output = textBox(QStringLiteral("scriptOutputView"),
        printed.isEmpty() ? QObject::tr("(the script printed nothing)") : printed, page);
    auto* text = textBox(QStringLiteral("scriptTextView"),
        QString::fromUtf8(s.text.data(), static_cast<qsizetype>(s.text.size())), page);
    auto* split = new QSplitter(Qt::Vertical, page);
    auto* outputBox = new QWidget(split);
    auto* outputLayout = new QVBoxLayout(outputBox);
    outputLayout->setContentsMargins(0, 0, 0, 0);
    outputLayout->addWidget(new QLabel(QObject::tr("What it printed"), outputBox));
    outputLayout->addWidget(output);
    auto* textBoxPage = new QWidget(split);
    auto* textLayout = new QVBoxLayout(textBoxPage);
    textLayout->setContentsMargins(0, 0, 0, 0);
    textLayout->addWidget(new QLabel(QObject::tr("The script as it ran"), textBoxPage));
    textLayout->addWidget(text);
    split->addWidget(outputBox);
    split->addWidget(textBoxPage);
    auto* layout = new QVBoxLayout(page);
    layout->addWidget(head);
    layout->addWidget(split, 1);
    return page;
}

} // namespace wb::ui
