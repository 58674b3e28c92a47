#pragma once
// The strip above the live charts: what runs (target in its colour, load),
// elapsed/remaining as a progress bar, and the current req/s, p50, p99,
// errors and non-2xx, and a badge per SLO (pending until the run ends, then
// pass or fail). A failed start shows its reason here, in red.

#include "control/runevents.h"

#include <QWidget>

class QLabel;

namespace wb::ui {

class RunProgressBar;
class SloBadges;

class RunHeader : public QWidget
{
    Q_OBJECT
public:
    explicit RunHeader(QWidget* parent = nullptr);

    /// Idle, with a hint of what Run would do.
    void showHint(const QString& text);
    /// Idle, showing the selected target (its name in its colour) and what Run would do with it;
    /// the last run's numbers are cleared (they were another target's).
    void showReady(const QString& target, const QColor& color, const QString& hint);
    QString titleText() const;
    /// A run begins: title, colour, load text, planned seconds.
    void beginRun(const QString& title, const QColor& color, const QString& load, double plannedS);
    void setPhaseText(const QString& text);
    /// The SLOs the run is judged by: pending badges until finish().
    void setSlos(const std::vector<Slo>& slos);
    /// Elapsed seconds (progress bar), called by a UI timer.
    void setElapsed(double elapsedS);
    void addInterval(const LiveInterval& interval);
    void finish(const RunOutcome& outcome);

    QString errorsText() const;
    QString messageText() const;
    int progressPercent() const;
    QString progressText() const;
    QString phaseText() const;
    /// The load line, or the hint of what Run would do while idle.
    QString loadText() const;

private:
    void setNumbers(double rps, double p50Ms, double p99Ms);

    double m_plannedS = 0;
    uint64_t m_errors = 0;
    uint64_t m_non2xx = 0;
    QLabel* m_dot;
    QLabel* m_title;
    QLabel* m_load;
    QLabel* m_phase;
    RunProgressBar* m_progress;
    QLabel* m_rps;
    QLabel* m_p50;
    QLabel* m_p99;
    QLabel* m_errorsLabel;
    QLabel* m_non2xxLabel;
    SloBadges* m_slo;
    QLabel* m_message;
};

} // namespace wb::ui
