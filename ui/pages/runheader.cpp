#include "pages/runheader.h"

#include "pages/runprogressbar.h"
#include "pages/slobadges.h"
#include "text/format.h"

#include <QFontMetrics>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace wb::ui {

namespace {

/// A big number with a small caption under it.
QLabel* metricLabel(QWidget* parent, QGridLayout* grid, int column, const QString& caption)
{
    auto* value = new QLabel(QStringLiteral("—"), parent);
    QFont f = value->font();
    f.setPointSizeF(f.pointSizeF() * 1.6);
    f.setBold(true);
    value->setFont(f);
    value->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    // A fixed size: a label whose size may change asks its layout to run again
    // on every setText(), which is every interval.
    const QFontMetrics metrics(f);
    value->setFixedSize(
        std::max(110, metrics.horizontalAdvance(QStringLiteral("888,888,888")) + 4), value->sizeHint().height());
    auto* label = new QLabel(caption, parent);
    label->setAlignment(Qt::AlignRight);
    label->setStyleSheet(QStringLiteral("color: palette(mid);"));
    grid->addWidget(value, 0, column);
    grid->addWidget(label, 1, column);
    return value;
}

} // namespace

RunHeader::RunHeader(QWidget* parent)
    : QWidget(parent)
{
    m_dot = new QLabel(this);
    m_dot->setFixedSize(14, 14);
    m_title = new QLabel(this);
    QFont tf = m_title->font();
    tf.setPointSizeF(tf.pointSizeF() * 1.25);
    tf.setBold(true);
    m_title->setFont(tf);
    m_load = new QLabel(this);
    m_load->setStyleSheet(QStringLiteral("color: palette(mid);"));
    m_phase = new QLabel(this);
    m_progress = new RunProgressBar(this);
    m_progress->setMinimumWidth(220);

    auto* top = new QHBoxLayout;
    top->addWidget(m_dot);
    top->addWidget(m_title);
    top->addSpacing(8);
    top->addWidget(m_load);
    top->addStretch();
    top->addWidget(m_phase);
    top->addWidget(m_progress, 1);

    auto* grid = new QGridLayout;
    grid->setHorizontalSpacing(24);
    grid->setVerticalSpacing(0);
    m_rps = metricLabel(this, grid, 0, tr("req/s"));
    m_p50 = metricLabel(this, grid, 1, tr("p50 (ms)"));
    m_p99 = metricLabel(this, grid, 2, tr("p99 (ms)"));
    m_errorsLabel = metricLabel(this, grid, 3, tr("errors"));
    m_non2xxLabel = metricLabel(this, grid, 4, tr("non-2xx/3xx"));
    grid->setColumnStretch(5, 1);

    m_slo = new SloBadges(this);
    m_slo->setObjectName(QStringLiteral("sloBadges"));
    m_message = new QLabel(this);
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->hide();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 8, 10, 6);
    layout->addLayout(top);
    layout->addLayout(grid);
    layout->addWidget(m_slo);
    layout->addWidget(m_message);
    showHint(QString());
}

void RunHeader::showReady(const QString& target, const QColor& color, const QString& hint)
{
    showHint(hint);
    m_title->setText(target);
    m_dot->setStyleSheet(QStringLiteral("background: %1; border-radius: 7px;").arg(color.name()));
    for (QLabel* number : { m_rps, m_p50, m_p99, m_errorsLabel, m_non2xxLabel }) {
        number->setText(QStringLiteral("—"));
        number->setStyleSheet(QString());
    }
    m_message->hide();
}

QString RunHeader::titleText() const
{
    return m_title->text();
}

void RunHeader::showHint(const QString& text)
{
    m_title->setText(tr("Ready"));
    m_load->setText(text);
    m_dot->setStyleSheet(QString());
    m_phase->clear();
    m_progress->setFraction(0);
    m_progress->setText(QString());
    m_progress->hide();
    m_slo->clear();
}

void RunHeader::beginRun(const QString& title, const QColor& color, const QString& load, double plannedS)
{
    m_plannedS = plannedS;
    m_errors = 0;
    m_non2xx = 0;
    m_title->setText(title);
    m_load->setText(load);
    m_dot->setStyleSheet(QStringLiteral("background: %1; border-radius: 7px;").arg(color.name()));
    m_message->hide();
    m_slo->clear();
    m_progress->show();
    setNumbers(std::nan(""), std::nan(""), std::nan(""));
    m_errorsLabel->setText(QStringLiteral("0"));
    m_non2xxLabel->setText(QStringLiteral("0"));
    m_errorsLabel->setStyleSheet(QString());
    m_non2xxLabel->setStyleSheet(QString());
    setElapsed(0);
}

void RunHeader::setPhaseText(const QString& text)
{
    m_phase->setText(text);
}

QString RunHeader::phaseText() const
{
    return m_phase->text();
}

QString RunHeader::loadText() const
{
    return m_load->text();
}

void RunHeader::setSlos(const std::vector<Slo>& slos)
{
    m_slo->setPending(slos);
}

void RunHeader::setElapsed(double elapsedS)
{
    const double shown = std::min(elapsedS, m_plannedS);
    // The bar repaints (through update()) only when its text or filled pixels change.
    m_progress->setFraction(m_plannedS > 0 ? shown / m_plannedS : 0);
    m_progress->setText(
        tr("%1 / %2   (%3 left)").arg(formatClock(shown), formatClock(m_plannedS), formatClock(m_plannedS - shown)));
}

void RunHeader::setNumbers(double rps, double p50Ms, double p99Ms)
{
    m_rps->setText(std::isnan(rps) ? QStringLiteral("—") : formatCount(rps));
    m_p50->setText(formatUsAsMs(p50Ms * 1000));
    m_p99->setText(formatUsAsMs(p99Ms * 1000));
}

void RunHeader::addInterval(const LiveInterval& interval)
{
    setNumbers(interval.point.requestsPerS, interval.point.p50Ms, interval.point.p99Ms);
    m_errors += interval.errors;
    m_non2xx += interval.non2xx;
    m_errorsLabel->setText(formatCount(static_cast<double>(m_errors)));
    m_non2xxLabel->setText(formatCount(static_cast<double>(m_non2xx)));
    // Setting a style sheet re-polishes the label even when it is the same text.
    const QString errorsStyle = m_errors ? errorTextStyle() : QString();
    const QString non2xxStyle = m_non2xx ? QStringLiteral("color: #b26a00;") : QString();
    if (m_errorsLabel->styleSheet() != errorsStyle) m_errorsLabel->setStyleSheet(errorsStyle);
    if (m_non2xxLabel->styleSheet() != non2xxStyle) m_non2xxLabel->setStyleSheet(non2xxStyle);
}

void RunHeader::finish(const RunOutcome& outcome)
{
    if (outcome.cancelled) {
        m_phase->setText(tr("cancelled"));
        m_slo->clear();
        return;
    }
    if (outcome.status == RunStatus::Failed && !outcome.failedWhileRunning) {
        m_slo->clear(); // nothing ran: nothing to judge
        m_phase->setText(outcome.probeFailed ? tr("probe failed") : tr("did not start"));
        m_progress->setFraction(0);
        m_progress->setText(QString());
        m_message->setStyleSheet(errorLabelStyle());
        m_message->setText(outcome.probeFailed
                ? tr("The probe failed, no load was sent: %1").arg(outcome.error)
                : tr("The target did not pass the pre-run check: %1").arg(outcome.error));
        m_message->show();
        return;
    }
    // The whole run's numbers replace the last interval's.
    setNumbers(outcome.requestsPerS, outcome.p50Us / 1000, outcome.p99Us / 1000);
    m_errorsLabel->setText(formatCount(static_cast<double>(outcome.errors)));
    m_non2xxLabel->setText(formatCount(static_cast<double>(outcome.non2xx)));
    const bool stopped = outcome.status == RunStatus::Stopped;
    const bool endedEarly = stopped || outcome.failedWhileRunning || !outcome.sloAbortedBy.isEmpty();
    if (!endedEarly) {
        setElapsed(m_plannedS);
    } else {
        // Nothing is left of a run that ended: the bar says how far it came and why it ended.
        const double ranS = std::min(outcome.durationS, m_plannedS);
        m_progress->setFraction(m_plannedS > 0 ? ranS / m_plannedS : 0);
        m_progress->setText(tr("%1 / %2   (ended early)").arg(formatClock(ranS), formatClock(m_plannedS)));
    }
    const QString after = numberLocale().toString(outcome.durationS, 'f', 1);
    m_phase->setText(outcome.failedWhileRunning ? tr("failed after %1 s").arg(after)
            : !outcome.sloAbortedBy.isEmpty()   ? tr("stopped by SLO %1 after %2 s").arg(outcome.sloAbortedBy, after)
            : stopped                           ? tr("stopped after %1 s").arg(after)
                                                : tr("completed"));
    // A stopped run is judged on what it measured, as the CLI does.
    m_slo->setVerdicts(outcome.slo);
    QString text = outcome.runId ? tr("Stored as run #%1 — whole-run numbers above").arg(outcome.runId) : QString();
    const auto append
        = [&text](const QString& part) { text += (text.isEmpty() ? QString() : QStringLiteral("  ")) + part; };
    if (!outcome.sloAbortedBy.isEmpty())
        append(tr("Aborted: the error budget of %1 was spent, so it can no longer be met.").arg(outcome.sloAbortedBy));
    if (outcome.failedWhileRunning) append(tr("The script stopped the run: %1").arg(outcome.error));
    if (!outcome.scriptDoneError.isEmpty()) append(outcome.scriptDoneError);
    if (!outcome.storageWarning.isEmpty()) append(outcome.storageWarning);
    if (!outcome.generatorLagWarning.isEmpty()) append(tr("Warning: %1").arg(outcome.generatorLagWarning));
    if (!outcome.loaderWarning.isEmpty()) append(tr("Warning: %1").arg(outcome.loaderWarning));
    const bool warned = !outcome.storageWarning.isEmpty() || !outcome.generatorLagWarning.isEmpty()
        || !outcome.loaderWarning.isEmpty() || !outcome.sloAbortedBy.isEmpty() || outcome.failedWhileRunning
        || !outcome.scriptDoneError.isEmpty();
    m_message->setStyleSheet(warned ? QStringLiteral("color: #b26a00;") : QStringLiteral("color: palette(mid);"));
    m_message->setText(text);
    m_message->setVisible(!text.isEmpty());
}

QString RunHeader::errorsText() const
{
    return m_errorsLabel->text();
}
QString RunHeader::messageText() const
{
    return m_message->isVisible() ? m_message->text() : QString();
}
QString RunHeader::progressText() const
{
    return m_progress->text();
}
int RunHeader::progressPercent() const
{
    return static_cast<int>(1000 * m_progress->fraction()) / 10;
}

} // namespace wb::ui
