#pragma once
// The Runs tab: every run of the session in a sortable table with a text
// filter and a tag filter; several runs can be selected to compare them;
// a study is made from the selected runs; notes are edited in place; tags are added to or removed from the selected
// runs at once (Tag…); delete asks first and never touches a run that is still being recorded; CSV export of what is
// shown. A double-click or Enter opens a run; a single click only selects (even where the desktop activates items on
// one click).

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace wb::ui {

class RunsFilterModel;
class RunsTableModel;
class SessionDocument;

class RunsPage : public QWidget
{
    Q_OBJECT
public:
    explicit RunsPage(QWidget* parent = nullptr);
    void setDocument(SessionDocument* doc);

    /// Ids of the selected runs, in the order shown.
    QList<qint64> selectedRunIds() const;
    /// Selects the runs with these ids (and scrolls to the first).
    void selectRuns(const QList<qint64>& ids);
    /// Deletes the selected runs after confirmation. Runs still running are never
    /// deleted: alone they are refused with a message, mixed with finished runs
    /// the confirmation names them as kept. True when runs were deleted.
    bool deleteSelected();
    /// Asks which tags to add and remove, then changes them on every selected run
    /// (one transaction). True when tags were changed.
    bool tagSelected();
    /// "Study from selected runs…": asks for groups, variants, level, baseline and metric,
    /// then stores the study of the selected runs (wrkbench-cli study) and emits
    /// studyCreated(id); a problem is one message naming it, and nothing is stored.
    bool studySelected();
    /// Writes the runs shown (filtered, in the order shown) as CSV (wrkbench-cli runs --csv columns).
    bool exportCsv(const QString& path, QString* error = nullptr) const;
    /// Asks where and writes the runs shown as CSV (the Export button, File > Export).
    void askExport();

    RunsTableModel* model() const { return m_model; }
    RunsFilterModel* filter() const { return m_filter; }

protected:
    void showEvent(QShowEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

signals:
    void openRequested(qint64 runId);
    void compareRequested(const QList<qint64>& runIds);
    void studyCreated(qint64 experimentId);
    void message(const QString& text);

private:
    void updateTags();
    void updateButtons();
    void contextMenu(const QPoint& pos);
    /// Ids among ids whose run is still being recorded (status running).
    QList<qint64> runningAmong(const QList<qint64>& ids) const;

    SessionDocument* m_doc = nullptr;
    RunsTableModel* m_model;
    RunsFilterModel* m_filter;
    QTableView* m_view;
    QLineEdit* m_text;
    QComboBox* m_tag;
    QLabel* m_count;
    QPushButton* m_open;
    QPushButton* m_compare;
    QPushButton* m_delete;
    QPushButton* m_tagButton;
    QPushButton* m_study; ///< "Study…": the selected runs as a study (also in the context menu)
    QPushButton* m_export;
};

} // namespace wb::ui
