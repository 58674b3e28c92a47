#include "pages/compareheadlines.h"

#include "charts/comparecharts.h"
#include "models/comparemodel.h"
#include "models/format.h"
#include "models/runseries.h"

#include <QFrame>
#include <QGridLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <cmath>
#include <map>

namespace wb::ui {

namespace {

QLabel* bigNumber(QWidget* parent, const QString& text)
{
    auto* label = new QLabel(text, parent);
    QFont f = label->font();
    f.setPointSizeF(f.pointSizeF() * 1.5);
    f.setBold(true);
    label->setFont(f);
    return label;
}

QLabel* caption(QWidget* parent, const QString& text)
{
    auto* label = new QLabel(text, parent);
    label->setStyleSheet(QStringLiteral("color: palette(mid);"));
    return label;
}

/// "+12.3 %" in green or red; "baseline" for the first run.
QLabel* delta(QWidget* parent, const CompareModel* model, const QString& key, int run, bool higherIsBetter)
{
    auto* label = new QLabel(parent);
    if (run == 0) {
        label->setText(QObject::tr("baseline"));
        label->setStyleSheet(QStringLiteral("color: palette(mid);"));
        return label;
    }
    const double pct = model->deltaPct(key, run);
    label->setText(formatDeltaPct(pct));
    const QColor c = deltaColor(pct, higherIsBetter);
    label->setStyleSheet(c.isValid() ? QStringLiteral("color: %1; font-weight: bold;").arg(c.name())
                                     : QStringLiteral("font-weight: bold;"));
    return label;
}

} // namespace

CompareHeadlines::CompareHeadlines(const CompareModel* model, QWidget* parent)
    : QWidget(parent)
    , m_model(model)
    , m_cards(new QVBoxLayout(this))
{
    m_cards->setContentsMargins(8, 0, 0, 0);
    m_cards->setSpacing(6);
}

QWidget* CompareHeadlines::card(int run)
{
    const RunRecord& r = m_model->runs()[static_cast<size_t>(run)];
    // Same colour as in the charts: repeated targets get variants, in order.
    int repeat = 0;
    for (int i = 0; i < run; ++i)
        if (m_model->runs()[static_cast<size_t>(i)].targetId == r.targetId) ++repeat;
    const QColor color = variantColor(colorForTarget(r.targetId), repeat);

    auto* frame = new QFrame(this);
    frame->setObjectName(QStringLiteral("card"));
    frame->setStyleSheet(QStringLiteral("#card { border: 1px solid palette(midlight); border-left: 5px solid %1;"
                                        " border-radius: 4px; background: palette(base); }")
                             .arg(color.name()));
    auto* grid = new QGridLayout(frame);
    grid->setContentsMargins(10, 6, 10, 6);
    grid->setHorizontalSpacing(18);
    grid->setVerticalSpacing(0);
    auto* title
        = new QLabel(QStringLiteral("<b>%1</b>&nbsp;&nbsp;<span style='color: gray'>%2</span>")
                         .arg(CompareModel::runLabel(r).toHtmlEscaped(), describeLoad(r.config).toHtmlEscaped()),
            frame);
    grid->addWidget(title, 0, 0, 1, 3);

    const double rps = m_model->value(QStringLiteral("rps"), run);
    const double p99 = m_model->value(QStringLiteral("p99"), run);
    const double errors = m_model->value(QStringLiteral("socket_errors"), run)
        + m_model->value(QStringLiteral("tls_parse_errors"), run) + m_model->value(QStringLiteral("non2xx"), run);
    grid->addWidget(bigNumber(frame, formatCount(rps)), 1, 0);
    grid->addWidget(bigNumber(frame, formatUsAsMs(p99)), 1, 1);
    auto* errorsLabel = bigNumber(frame, formatCount(errors));
    if (!std::isnan(errors) && errors > 0) errorsLabel->setStyleSheet(QStringLiteral("color: #c62828;"));
    grid->addWidget(errorsLabel, 1, 2);
    grid->addWidget(caption(frame, tr("req/s")), 2, 0);
    grid->addWidget(caption(frame, tr("p99 (ms)")), 2, 1);
    grid->addWidget(caption(frame, tr("errors + non-2xx")), 2, 2);
    grid->addWidget(delta(frame, m_model, QStringLiteral("rps"), run, true), 3, 0);
    grid->addWidget(delta(frame, m_model, QStringLiteral("p99"), run, false), 3, 1);
    grid->setColumnStretch(3, 1);
    return frame;
}

void CompareHeadlines::refresh()
{
    while (QLayoutItem* item = m_cards->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    for (int run = 0; run < static_cast<int>(m_model->runs().size()); ++run)
        m_cards->addWidget(card(run));
    m_cards->addStretch(1);
}

} // namespace wb::ui
