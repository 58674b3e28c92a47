#include "pages/comparetable.h"

#include "models/comparemodel.h"

#include <QActionGroup>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QGuiApplication>
#include <QHeaderView>
#include <QKeyEvent>
#include <QMenu>
#include <QPainter>
#include <set>

namespace wb::ui {

namespace {

/// One line per cell: a tab or newline inside a note would break the row.
QString oneLine(QString text)
{
    text.replace(QLatin1Char('\t'), QLatin1Char(' '));
    text.replace(QLatin1Char('\n'), QLatin1Char(' '));
    return text;
}

/// Every row as shown, the header first; section rows hold only their title.
std::vector<QStringList> displayGrid(const CompareModel& model)
{
    std::vector<QStringList> grid;
    QStringList header;
    for (int c = 0; c < model.columnCount(); ++c)
        header << model.columnTitle(c);
    grid.push_back(header);
    for (int r = 0; r < model.rowCount(); ++r) {
        QStringList line;
        for (int c = 0; c < model.columnCount(); ++c)
            line << oneLine(model.index(r, c).data().toString());
        grid.push_back(line);
    }
    return grid;
}

} // namespace

QString compareTableTsv(const CompareModel& model)
{
    QString out;
    for (const QStringList& line : displayGrid(model))
        out += line.join(QLatin1Char('\t')) + QLatin1Char('\n');
    return out;
}

QString compareTableMarkdown(const CompareModel& model)
{
    const std::vector<QStringList> grid = displayGrid(model);
    const auto escaped = [](QString text) { return text.replace(QLatin1Char('|'), QLatin1String("\\|")); };
    QString out;
    for (size_t i = 0; i < grid.size(); ++i) {
        const bool isSection
            = i > 0 && model.index(static_cast<int>(i) - 1, 0).data(CompareModel::IsSectionRole).toBool();
        QStringList cells;
        for (int c = 0; c < grid[i].size(); ++c) {
            const QString text = escaped(grid[i][c]);
            cells << (isSection && c == 0 && !text.isEmpty() ? QStringLiteral("**%1**").arg(text) : text);
        }
        out += QStringLiteral("| ") + cells.join(QStringLiteral(" | ")) + QStringLiteral(" |\n");
        if (i == 0) {
            // The metric column left, the numbers right, as on screen.
            QStringList rule { QStringLiteral(":--") };
            for (int c = 1; c < grid[0].size(); ++c)
                rule << QStringLiteral("--:");
            out += QStringLiteral("| ") + rule.join(QStringLiteral(" | ")) + QStringLiteral(" |\n");
        }
    }
    return out;
}

void CompareDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    QRect cell = option.rect;
    if (index.data(CompareModel::IsSectionRole).toBool()) {
        painter->fillRect(cell, option.palette.color(QPalette::AlternateBase).darker(104));
        painter->save();
        painter->setPen(option.palette.color(QPalette::Mid));
        painter->drawLine(cell.topLeft(), cell.topRight());
        painter->restore();
    } else if (index.column() == CompareModel::valueColumn(0)) {
        QColor shade = option.palette.color(QPalette::Highlight);
        shade.setAlphaF(0.07f);
        painter->fillRect(cell, shade);
    } else if (index.data(CompareModel::IsDeltaRole).toBool()) {
        const QVariant fg = index.data(Qt::ForegroundRole);
        if (fg.canConvert<QColor>()) {
            QColor tint = fg.value<QColor>();
            tint.setAlphaF(0.12f);
            painter->fillRect(cell.adjusted(2, 2, -2, -2), tint);
        }
    }
    QStyledItemDelegate::paint(painter, option, index);
}

CompareTableView::CompareTableView(QWidget* parent)
    : QTableView(parent)
{
    setupCompareTable(this);
    horizontalHeader()->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(horizontalHeader(), &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        QMenu* menu = createContextMenu(horizontalHeader()->logicalIndexAt(pos), this);
        menu->exec(horizontalHeader()->mapToGlobal(pos));
        delete menu;
    });
}

CompareModel* CompareTableView::compareModel() const
{
    return qobject_cast<CompareModel*>(model());
}

QString CompareTableView::selectionText() const
{
    const CompareModel* m = compareModel();
    if (!m || !selectionModel()) return {};
    const QModelIndexList cells = selectionModel()->selectedIndexes();
    if (cells.isEmpty()) return {};
    std::set<int> rows;
    std::set<int> columns;
    std::set<std::pair<int, int>> chosen;
    for (const QModelIndex& cell : cells) {
        rows.insert(cell.row());
        columns.insert(cell.column());
        chosen.insert({ cell.row(), cell.column() });
    }
    // Numbers alone say little: each row is led by its metric and the columns
    // get their run titles, whatever part of the table was selected.
    const bool leadWithMetric = !columns.contains(0);
    QStringList header;
    if (leadWithMetric) header << m->columnTitle(0);
    for (int c : columns)
        header << m->columnTitle(c);
    QString out = header.join(QLatin1Char('\t')) + QLatin1Char('\n');
    for (int r : rows) {
        QStringList line;
        if (leadWithMetric) line << oneLine(m->index(r, 0).data().toString());
        for (int c : columns)
            line << (chosen.contains({ r, c }) ? oneLine(m->index(r, c).data().toString()) : QString());
        out += line.join(QLatin1Char('\t')) + QLatin1Char('\n');
    }
    return out;
}

void CompareTableView::copySelection()
{
    const QString text = selectionText();
    if (!text.isEmpty()) QGuiApplication::clipboard()->setText(text);
}

void CompareTableView::copyTable()
{
    if (const CompareModel* m = compareModel()) QGuiApplication::clipboard()->setText(compareTableTsv(*m));
}

void CompareTableView::copyTableAsMarkdown()
{
    if (const CompareModel* m = compareModel()) QGuiApplication::clipboard()->setText(compareTableMarkdown(*m));
}

QMenu* CompareTableView::createContextMenu(int column, QWidget* parent)
{
    auto* menu = new QMenu(parent);
    QAction* copy = menu->addAction(tr("Copy"), this, &CompareTableView::copySelection);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutVisibleInContextMenu(true);
    copy->setEnabled(selectionModel() && selectionModel()->hasSelection());
    menu->addAction(tr("Copy table"), this, &CompareTableView::copyTable);
    menu->addAction(tr("Copy table as Markdown"), this, &CompareTableView::copyTableAsMarkdown);
    CompareModel* m = compareModel();
    if (!m || m->runs().empty()) return menu;

    menu->addSeparator();
    const int run = m->runOfColumn(column);
    if (run == 0) {
        menu->addAction(tr("%1 is the baseline").arg(CompareModel::runLabel(m->runs().front())))->setEnabled(false);
    } else if (run > 0) {
        const int64_t id = m->runs()[static_cast<size_t>(run)].id;
        menu->addAction(tr("Use %1 as baseline").arg(CompareModel::runLabel(m->runs()[static_cast<size_t>(run)])), this,
            [m, id] { m->setBaselineRun(id); });
    }
    // Every run, in the order of the Baseline box: also reachable from the metric column.
    QMenu* baseline = menu->addMenu(tr("Baseline"));
    auto* group = new QActionGroup(baseline);
    for (const RunRecord& r : m->givenRuns()) {
        const int64_t id = r.id;
        QAction* a = baseline->addAction(CompareModel::runLabel(r), this, [m, id] { m->setBaselineRun(id); });
        a->setCheckable(true);
        a->setChecked(id == m->baselineId());
        group->addAction(a);
    }
    return menu;
}

void CompareTableView::keyPressEvent(QKeyEvent* event)
{
    // QAbstractItemView copies only the current cell: copy the whole selection, with headers.
    if (event->matches(QKeySequence::Copy)) {
        copySelection();
        event->accept();
        return;
    }
    QTableView::keyPressEvent(event);
}

void CompareTableView::contextMenuEvent(QContextMenuEvent* event)
{
    QMenu* menu = createContextMenu(columnAt(event->pos().x()), this);
    menu->exec(event->globalPos());
    delete menu;
}

void setupCompareTable(QTableView* view)
{
    view->setItemDelegate(new CompareDelegate(view));
    view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    view->setSelectionBehavior(QAbstractItemView::SelectItems);
    view->setFocusPolicy(Qt::StrongFocus);
    view->setShowGrid(false);
    view->setWordWrap(false);
    view->verticalHeader()->setVisible(false);
    view->verticalHeader()->setDefaultSectionSize(22);
    view->horizontalHeader()->setDefaultAlignment(Qt::AlignRight | Qt::AlignVCenter);
    view->horizontalHeader()->setHighlightSections(false);
    view->horizontalHeader()->setStretchLastSection(false);
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    view->horizontalHeader()->setMinimumSectionSize(70);
}

void applyCompareSpans(QTableView* view, const CompareModel* model)
{
    view->clearSpans();
    for (int row = 0; row < model->rowCount(); ++row)
        if (model->index(row, 0).data(CompareModel::IsSectionRole).toBool() && model->columnCount() > 1)
            view->setSpan(row, 0, 1, model->columnCount());
}

QImage renderCompareTable(CompareModel* model, int minWidth, QList<int>* columnWidths)
{
    QTableView view;
    view.setAttribute(Qt::WA_DontShowOnScreen);
    setupCompareTable(&view);
    view.setFocusPolicy(Qt::NoFocus); // no focus frame in the image
    view.setModel(model);
    applyCompareSpans(&view, model);
    view.setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    view.setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    view.setFrameShape(QFrame::NoFrame);
    QPalette palette = view.palette();
    palette.setColor(QPalette::Base, Qt::white);
    palette.setColor(QPalette::AlternateBase, QColor(0xf4, 0xf5, 0xf7));
    palette.setColor(QPalette::Text, QColor(0x20, 0x20, 0x20));
    view.setPalette(palette);
    view.resize(minWidth, 400);
    view.show(); // not on screen (WA_DontShowOnScreen), but laid out, so the header knows its height
    view.resizeColumnsToContents();
    int width = 0;
    for (int c = 0; c < model->columnCount(); ++c)
        width += view.columnWidth(c);
    // Wider than needed: the runs' columns share the room, each at most twice its own width (the
    // metric column taking it all left 70% of a 2-run report to the names); what is left stays
    // white on the right.
    const int columns = model->columnCount();
    if (width < minWidth && columns > 1) {
        const int share = (minWidth - width) / (columns - 1);
        for (int c = 1; c < columns; ++c) {
            view.horizontalHeader()->setSectionResizeMode(c, QHeaderView::Interactive);
            const int added = std::min(share, view.columnWidth(c));
            view.setColumnWidth(c, view.columnWidth(c) + added);
            width += added;
        }
    }
    if (columnWidths) {
        columnWidths->clear();
        for (int c = 0; c < columns; ++c)
            columnWidths->append(view.columnWidth(c));
    }
    int height = view.horizontalHeader()->sizeHint().height();
    for (int r = 0; r < model->rowCount(); ++r)
        height += view.rowHeight(r);
    view.resize(width, height);
    QImage image(width, height, QImage::Format_RGB32);
    image.fill(Qt::white);
    view.render(&image);
    view.hide();
    return image;
}

} // namespace wb::ui
