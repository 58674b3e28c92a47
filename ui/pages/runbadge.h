#pragma once
// The run in progress, seen from any other tab: a small progress bar and the
// latest req/s, p99 and error count in the corner of the tab bar. Clicking it
// goes to the Live tab. Hidden while no run is active and on the Live tab
// itself (its header shows the same, larger).

#include "control/runevents.h"

#include <QWidget>

class QLabel;

namespace wb::ui {

class RunProgressBar;

class RunBadge : public QWidget
{
    Q_OBJECT
public:
    explicit RunBadge(QWidget* parent = nullptr);

    /// A run starts (probing): `target` is its name, plannedS its warm-up plus duration.
    void begin(const QString& target, double plannedS);
    void setElapsed(double elapsedS);
    void addInterval(const LiveInterval& interval);
    /// The run is over: the badge hides.
    void end();
    /// Whether the Live tab is the current one (the badge then stays out of the way).
    void setLiveTabCurrent(bool current);

    bool isActive() const { return m_active; }
    QString text() const;
    int progressPercent() const;

signals:
    void clicked();

protected:
    void mousePressEvent(QMouseEvent* event) override;

private:
    void updateVisibility();

    RunProgressBar* m_progress;
    QLabel* m_label;
    QString m_target;
    double m_plannedS = 0;
    uint64_t m_errors = 0;
    uint64_t m_non2xx = 0;
    bool m_active = false;
    bool m_liveTabCurrent = true;
};

} // namespace wb::ui
