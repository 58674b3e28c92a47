#pragma once
// The Live page's strip for a run made with --backend-from: one bar per backend, its
// share of the last interval's named responses against an even split (a tick at 1/N),
// so a backend that gets far less than its share (a pod draining, a node the balancer
// forgot) or none at all (vanished) shows at a glance, in red. Fed from the live
// intervals, whose backends the run's one fold has already merged over threads and
// loaders. Hidden for a run without backends.

#include "control/runevents.h"

#include <QStringList>
#include <QVector>
#include <QWidget>

namespace wb::ui {

class BackendStrip : public QWidget
{
    Q_OBJECT
public:
    explicit BackendStrip(QWidget* parent = nullptr);

    /// Adds one interval: the backends of earlier intervals stay (at 0 when absent from it).
    void addInterval(const LiveInterval& interval);
    void clear();

    /// Every backend seen during the run, in the order first seen ("(other)" included).
    const QStringList& names() const { return m_names; }
    /// The last interval's responses of each, by names() index.
    const QVector<quint64>& lastRequests() const { return m_last; }
    /// The whole run's responses so far, by names() index.
    const QVector<quint64>& totalRequests() const { return m_total; }
    /// Each backend's share of the last interval's named responses (0..1), by names() index.
    QVector<double> lastShares() const;
    /// An even split's share: 1 / (backends seen, "(other)" left out); 0 before any.
    double evenShare() const;
    /// Backends under this fraction of the even share in the last interval are drawn red.
    static constexpr double FAR_BELOW = 0.5;
    /// Indices of the backends drawn as far below their share.
    QVector<int> farBelow() const;
    /// At most this many bars are drawn; past it the lowest shares are (the ones to look at).
    static constexpr int MAX_BARS = 16;
    /// The indices drawn, top to bottom.
    QVector<int> shown() const;

    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QStringList m_names;
    QVector<quint64> m_last;
    QVector<quint64> m_total;
};

} // namespace wb::ui
