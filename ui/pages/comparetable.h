#pragma once
// How the comparison table looks and behaves, shared by the Compare tab and
// the PNG report: section rows spanning the table, the baseline column
// shaded, Δ % cells tinted green or red. On screen the cells can be selected
// and copied (Ctrl+C: tab-separated with the headers of what was selected),
// the whole table copied as TSV or Markdown, and any run made the baseline
// from the context menu of its column or header.

#include <QImage>
#include <QStyledItemDelegate>
#include <QTableView>

class QMenu;

namespace wb::ui {

class CompareModel;

class CompareDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
};

class CompareTableView : public QTableView
{
    Q_OBJECT
public:
    explicit CompareTableView(QWidget* parent = nullptr);

    /// The selected cells as tab-separated text: a header line with the
    /// titles of the selected columns, each row led by its metric. Empty when
    /// nothing is selected.
    QString selectionText() const;
    /// Copies selectionText() to the clipboard (Ctrl+C).
    void copySelection();
    /// The whole table to the clipboard, tab-separated or as Markdown.
    void copyTable();
    void copyTableAsMarkdown();
    /// The context menu of a column (-1: no column): copy entries, and "Use
    /// #N as baseline" for the run the column shows. The caller owns it.
    QMenu* createContextMenu(int column, QWidget* parent);

protected:
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    CompareModel* compareModel() const;
};

/// The whole table as shown (formatted numbers, section rows), tab-separated with a header line.
QString compareTableTsv(const CompareModel& model);
/// The whole table as a Markdown (GitHub) table, as shown: what goes into a wiki page or a README.
QString compareTableMarkdown(const CompareModel& model);
/// Headers, delegate, selection and sizes of a comparison table.
void setupCompareTable(QTableView* view);
/// Section rows span every column (call after each model reset).
void applyCompareSpans(QTableView* view, const CompareModel* model);
/// The whole table (no scroll bars) at its natural width, on white; when minWidth is wider, the
/// runs' columns share the room (each at most doubled) and the image is as wide as its columns.
/// `columnWidths` (may be null): each column's width in the image.
QImage renderCompareTable(CompareModel* model, int minWidth, QList<int>* columnWidths = nullptr);

} // namespace wb::ui
