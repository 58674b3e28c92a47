#include "pages/scriptfield.h"

#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QToolButton>
#include <QVBoxLayout>

namespace wb::ui {

ScriptField::ScriptField(QWidget* parent)
    : QWidget(parent)
    , m_path(new QLineEdit(this))
    , m_args(new QLineEdit(this))
    , m_view(new QPlainTextEdit(this))
{
    m_path->setObjectName(QStringLiteral("scriptEdit"));
    m_path->setPlaceholderText(tr("optional: a wrk Lua script (as wrk -s)"));
    m_path->setToolTip(tr("wrk's scripting API, run unchanged: request(), response(), setup(), init(), delay(), "
                          "done(). The file is read again at each run; what done() prints is kept with the run."));
    m_args->setObjectName(QStringLiteral("scriptArgsEdit"));
    m_args->setPlaceholderText(tr("arguments for init(args), as after -- on wrk's command line"));
    m_view->setObjectName(QStringLiteral("scriptView"));
    m_view->setReadOnly(true);
    m_view->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_view->setMaximumHeight(110);
    m_view->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_view->hide();

    auto* browse = new QToolButton(this);
    browse->setObjectName(QStringLiteral("scriptBrowseButton"));
    browse->setText(QStringLiteral("…"));
    browse->setToolTip(tr("Choose a wrk script"));
    connect(browse, &QToolButton::clicked, this, [this] {
        const QString chosen = QFileDialog::getOpenFileName(
            this, tr("wrk script"), m_path->text(), tr("Lua scripts (*.lua);;All files (*)"));
        if (chosen.isEmpty()) return;
        m_path->setText(chosen);
        refreshView();
        emit edited();
    });
    connect(m_path, &QLineEdit::textEdited, this, [this] {
        refreshView();
        emit edited();
    });
    connect(m_args, &QLineEdit::textEdited, this, &ScriptField::edited);

    auto* pathRow = new QHBoxLayout;
    pathRow->setSpacing(4);
    pathRow->addWidget(m_path, 2);
    pathRow->addWidget(browse);
    pathRow->addWidget(m_args, 1);
    auto* box = new QVBoxLayout(this);
    box->setContentsMargins(0, 0, 0, 0);
    box->setSpacing(2);
    box->addLayout(pathRow);
    box->addWidget(m_view);
}

QString ScriptField::path() const
{
    return m_path->text();
}

QString ScriptField::args() const
{
    return m_args->text();
}

void ScriptField::setValues(const QString& path, const QString& args)
{
    m_path->setText(path);
    m_args->setText(args);
    refreshView();
}

void ScriptField::refreshView()
{
    const QString path = m_path->text().trimmed();
    QFile file(path);
    if (path.isEmpty() || QFileInfo(path).isDir() || !file.open(QIODevice::ReadOnly)) {
        m_view->clear();
        m_view->hide();
        return;
    }
    const QByteArray bytes = file.read(MAX_PREVIEW_BYTES);
    QString text = QString::fromUtf8(bytes);
    if (file.size() > MAX_PREVIEW_BYTES)
        text += tr("\n[… the first %1 KB of %2 bytes]").arg(MAX_PREVIEW_BYTES / 1024).arg(file.size());
    m_view->setPlainText(text);
    m_view->show();
}

} // namespace wb::ui
