#pragma once
// The left dock: the session's targets (add, duplicate, delete with
// confirmation, probe) and the editor of the selected one. A target with a
// run in progress cannot be deleted: deleting it would take the live run
// (and what it is writing) along.

#include <QWidget>

class QListView;
class QToolButton;

namespace wb::ui {

class SessionDocument;
class TargetEditor;
class TargetListModel;

class TargetsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit TargetsPanel(QWidget* parent = nullptr);
    void setDocument(SessionDocument* doc);

    /// The selected target's id (0 when none).
    int64_t currentTargetId() const;
    /// Selects the target with that id (the first target when 0 or unknown).
    void selectTarget(int64_t id);

    /// Adds a target ("New target", http://builtin/) and selects it; returns its id.
    int64_t addTarget();
    /// Copies the selected target under a new name and selects the copy.
    int64_t duplicateTarget();
    /// Deletes the selected target after confirmation (it takes its runs along).
    /// Refused, with a message, while a run of it is in progress (here, or
    /// recorded into the session by another process).
    bool deleteTarget();
    /// The target this window is running now, probe phase included (0: none).
    /// MainWindow sets it as its RunTask starts and ends.
    void setBusyTargetId(int64_t id);
    int64_t busyTargetId() const { return m_busyTargetId; }

    TargetEditor* editor() const { return m_editor; }
    TargetListModel* model() const { return m_model; }

signals:
    void currentTargetChanged(qint64 id);
    void message(const QString& text);
    /// The Probe button or the list's context menu: probe the selected target.
    void probeRequested();
    /// The context menu: run the selected target over HTTP/1.1, then over HTTP/2, and compare.
    void bothProtocolsRequested();

private:
    void currentChanged();
    void updateButtons();
    void showContextMenu(const QPoint& pos);
    /// Why target id cannot be deleted now ("" when it can).
    QString deleteRefusal(int64_t id) const;

    SessionDocument* m_doc = nullptr;
    int64_t m_busyTargetId = 0;
    TargetListModel* m_model;
    QListView* m_list;
    TargetEditor* m_editor;
    QToolButton* m_add;
    QToolButton* m_duplicate;
    QToolButton* m_delete;
    QToolButton* m_probe;
};

} // namespace wb::ui
