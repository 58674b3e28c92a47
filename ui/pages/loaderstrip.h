#pragma once
// The Live page's strip for a run made by several loaders: one bar per loader,
// its req/s in the last interval against the busiest loader's, so a loader that
// lags (a slow VM, a throttled pod, a clock far off) shows at a glance. Hidden
// for a run of one process.

#include <QVector>
#include <QWidget>

namespace wb::ui {

class LoaderStrip : public QWidget
{
    Q_OBJECT
public:
    explicit LoaderStrip(QWidget* parent = nullptr);

    /// The last interval's req/s per loader (empty: no loaders, the strip hides).
    void setRates(const QVector<double>& requestsPerS);
    void clear() { setRates({}); }
    const QVector<double>& rates() const { return m_rates; }
    /// Loaders under this share of the median loader's req/s are drawn as lagging.
    static constexpr double LAGGING_SHARE = 0.8;
    /// Indices of the loaders drawn as lagging.
    QVector<int> lagging() const;

    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QVector<double> m_rates;
};

} // namespace wb::ui
