#include "pages/compareheadlines.h"

#include "models/comparemodel.h"
#include "text/format.h"

#include <QFrame>
#include <QGridLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <cmath>

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
    label->setWordWrap(true); // a narrow card wraps its lines rather than being cut on the right
    return label;
}

/// Grey: a difference within the runs' own variation is neither a gain nor a loss.
const char* const NOISE_STYLE = "color: #757575;";

/// "+12.3 %" in green or red (grey within the runs' own variation); "baseline" for the baseline itself.
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
    if (model->withinNoise(key, run)) {
        label->setStyleSheet(QString::fromLatin1(NOISE_STYLE));
        label->setToolTip(QObject::tr("within the runs' own variation (± %1 %)")
                              .arg(numberLocale().toString(model->noiseAgainstBaselinePct(key, run), 'f', 1)));
        return label;
    }
    const QColor c = deltaColor(pct, higherIsBetter);
    label->setStyleSheet(c.isValid() ? QStringLiteral("color: %1; font-weight: bold;").arg(c.name())
                                     : QStringLiteral("font-weight: bold;"));
    return label;
}

/// "± 1,203 (3.4 %) between intervals · per thread 8,780 ± 4,380": what the
/// stored data knows of how steady req/s was (imported wrk reports: per thread only).
QString spreadText(const CompareModel* model, int run)
{
    QStringList parts;
    const double rps = model->value(QStringLiteral("rps"), run);
    const CompareModel::RateSpread& spread = model->rateSpread(run);
    if (!std::isnan(spread.stdev)) {
        QString part = QObject::tr("± %1").arg(formatCount(spread.stdev));
        if (rps > 0) part += QStringLiteral(" (%1 %)").arg(numberLocale().toString(spread.stdev / rps * 100, 'f', 1));
        parts << part + QObject::tr(" over %1 intervals").arg(spread.intervals);
    }
    const double threadMean = model->value(QStringLiteral("thread_rps"), run);
    const double threadStdev = model->value(QStringLiteral("thread_rps_stdev"), run);
    if (!std::isnan(threadMean) && !std::isnan(threadStdev))
        parts << QObject::tr("per thread %1 ± %2").arg(formatCount(threadMean), formatCount(threadStdev));
    return parts.join(QStringLiteral(" · "));
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
    const bool isBaseline = run == 0;

    auto* frame = new QFrame(this);
    frame->setObjectName(QStringLiteral("card"));
    frame->setProperty("runId", QVariant::fromValue<qint64>(r.id));
    // The baseline's card stands out: a full border in its colour.
    frame->setStyleSheet(QStringLiteral("#card { border: %2px solid %3; border-left: 5px solid %1;"
                                        " border-radius: 4px; background: palette(base); }")
                             .arg(m_model->runColor(run).name())
                             .arg(isBaseline ? 2 : 1)
                             .arg(isBaseline ? m_model->runColor(run).name() : QStringLiteral("palette(midlight)")));
    auto* grid = new QGridLayout(frame);
    grid->setContentsMargins(10, 6, 10, 6);
    grid->setHorizontalSpacing(18);
    grid->setVerticalSpacing(0);
    auto* title
        = new QLabel(QStringLiteral("<b>%1</b>&nbsp;&nbsp;<span style='color: gray'>%2</span>")
                         .arg(CompareModel::runLabel(r).toHtmlEscaped(), describeLoad(r.config).toHtmlEscaped()),
            frame);
    title->setWordWrap(true);
    grid->addWidget(title, 0, 0, 1, 2);
    auto* role = new QLabel(frame);
    role->setObjectName(QStringLiteral("baselineRole"));
    role->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    if (isBaseline) {
        role->setText(tr("BASELINE"));
        role->setToolTip(tr("Every Δ and loss compares with this run"));
        role->setStyleSheet(QStringLiteral("color: white; background: %1; border-radius: 3px; padding: 0 5px;"
                                           " font-weight: bold;")
                                .arg(m_model->runColor(run).darker(120).name()));
    } else {
        role->setText(QStringLiteral("<a href='baseline'>%1</a>").arg(tr("Use as baseline")));
        role->setToolTip(tr("Compare every run with %1").arg(CompareModel::runLabel(r)));
        const qint64 id = r.id;
        connect(role, &QLabel::linkActivated, this, [this, id] { emit baselineRequested(id); });
    }
    grid->addWidget(role, 0, 2);

    const double rps = m_model->value(QStringLiteral("rps"), run);
    const double p99 = m_model->value(QStringLiteral("p99"), run);
    const double errors = m_model->value(QStringLiteral("socket_errors"), run)
        + m_model->value(QStringLiteral("tls_parse_errors"), run) + m_model->value(QStringLiteral("non2xx"), run);
    grid->addWidget(bigNumber(frame, formatCount(rps)), 1, 0);
    grid->addWidget(bigNumber(frame, formatUsAsMs(p99)), 1, 1);
    auto* errorsLabel = bigNumber(frame, formatCount(errors));
    if (!std::isnan(errors) && errors > 0) errorsLabel->setStyleSheet(errorTextStyle());
    grid->addWidget(errorsLabel, 1, 2);
    grid->addWidget(caption(frame, tr("req/s")), 2, 0);
    grid->addWidget(caption(frame, tr("p99 (ms)")), 2, 1);
    grid->addWidget(caption(frame, tr("errors + non-2xx")), 2, 2);
    int row = 3;
    const QString spread = spreadText(m_model, run);
    if (!spread.isEmpty()) {
        auto* spreadLabel = caption(frame, spread);
        spreadLabel->setObjectName(QStringLiteral("rpsSpread"));
        grid->addWidget(spreadLabel, row++, 0, 1, 3);
    }
    grid->addWidget(delta(frame, m_model, QStringLiteral("rps"), run, true), row, 0);
    grid->addWidget(delta(frame, m_model, QStringLiteral("p99"), run, false), row++, 1);
    if (!isBaseline) {
        // The studies' "Loss wrt native", in words: the number readers look for first.
        auto* loss = new QLabel(m_model->lossText(run), frame);
        loss->setObjectName(QStringLiteral("lossLine"));
        loss->setWordWrap(true);
        const QColor c = deltaColor(-m_model->lossPct(run), true);
        if (m_model->withinNoise(QStringLiteral("rps"), run))
            loss->setStyleSheet(QString::fromLatin1(NOISE_STYLE));
        else
            loss->setStyleSheet(c.isValid() ? QStringLiteral("color: %1;").arg(c.name()) : QString());
        grid->addWidget(loss, row++, 0, 1, 3);
    }
    grid->setColumnStretch(3, 1);
    return frame;
}

QWidget* CompareHeadlines::cardOf(int run) const
{
    return run >= 0 && run < m_cardWidgets.size() ? m_cardWidgets[run] : nullptr;
}

void CompareHeadlines::refresh()
{
    // The request to refresh can come from a link inside a card ("Use as
    // baseline"): the old cards go later, once that signal has returned.
    while (QLayoutItem* item = m_cards->takeAt(0)) {
        if (QWidget* w = item->widget()) {
            w->hide();
            w->setParent(nullptr);
            w->deleteLater();
        }
        delete item;
    }
    m_cardWidgets.clear();
    for (int run = 0; run < static_cast<int>(m_model->runs().size()); ++run) {
        QWidget* c = card(run);
        m_cardWidgets.append(c);
        m_cards->addWidget(c);
    }
    m_cards->addStretch(1);
}

} // namespace wb::ui
