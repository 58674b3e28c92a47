#pragma once
// The target editor's Script row: a wrk Lua script (as `wrkbench-cli -s FILE URL -- ARGS`) chosen
// with "…", its arguments, and the file's text shown read-only under them so that what runs is
// what is seen. The editor checks the file (forms/scriptform.h: it reads and parses, a syntax
// error shows with its line on the path field) and saves the path; each run reads it again.

#include <QWidget>

class QLineEdit;
class QPlainTextEdit;

namespace wb::ui {

class ScriptField : public QWidget
{
    Q_OBJECT
public:
    /// The preview holds at most this much of the file (a script is small; a wrong file is not).
    static constexpr qint64 MAX_PREVIEW_BYTES = 256 * 1024;

    explicit ScriptField(QWidget* parent = nullptr);
    QString path() const;
    QString args() const;
    /// Shows a target's script and arguments (emits nothing).
    void setValues(const QString& path, const QString& args);
    QLineEdit* pathEdit() const { return m_path; }
    QLineEdit* argsEdit() const { return m_args; }
    QPlainTextEdit* view() const { return m_view; }

signals:
    /// The user changed the path or the arguments.
    void edited();

private:
    /// Shows the file's text under the fields (hidden without a readable file).
    void refreshView();

    QLineEdit* m_path;
    QLineEdit* m_args;
    QPlainTextEdit* m_view;
};

} // namespace wb::ui
