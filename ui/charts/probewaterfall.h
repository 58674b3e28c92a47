#pragma once
// The probe's waterfall: one horizontal bar per phase of a request (DNS lookup,
// TCP connect, TLS handshake, request sent, first byte, body), each placed
// where the phase happened on a shared millisecond scale, with its own
// duration on the right and the total below; hovering a row shows its times.
// Painted by hand: a waterfall is offsets plus lengths, which QPainter draws
// more plainly than a stacked bar series with invisible spacer sets.

#include <QColor>
#include <QString>
#include <QVector>
#include <QWidget>

namespace wb::ui {

/// One row of the waterfall (times in milliseconds from the start of the request).
struct WaterfallPhase
{
    QString label; ///< "DNS lookup"
    double startMs = 0;
    double durationMs = 0;
    bool happened = true; ///< false: greyed, no bar (TLS over plain http)
    QString note; ///< shown instead of the duration when the phase did not happen ("no TLS")
    QColor color;
};

/// The colour of the index-th phase (DNS teal, connect orange, TLS purple,
/// request grey, first byte green, body blue); cycles past the sixth.
QColor waterfallColor(int index);

class ProbeWaterfall : public QWidget
{
    Q_OBJECT
public:
    static constexpr int ROW_HEIGHT = 24;
    static constexpr int BAR_HEIGHT = 14;

    explicit ProbeWaterfall(QWidget* parent = nullptr);

    /// Shows these phases on a scale from 0 to totalMs.
    void setPhases(const QVector<WaterfallPhase>& phases, double totalMs);
    /// No bars; the text is shown in their place ("Probing…").
    void clear(const QString& placeholder = {});

    const QVector<WaterfallPhase>& phases() const { return m_phases; }
    double totalMs() const { return m_totalMs; }
    QString placeholder() const { return m_placeholder; }
    /// The row under a point, or -1.
    int rowAt(const QPoint& pos) const;
    /// Where a phase's bar is drawn (empty for a phase that did not happen).
    QRect barRect(int row) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

    /// "15.185 ms": the CLI's precision (microseconds).
    static QString formatPhaseMs(double ms);

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;

private:
    struct Layout
    {
        int labelWidth = 0;
        int valueWidth = 0;
        QRect scale; ///< the tick labels above the bars
        QRect bars; ///< the area the bars span (x: 0 .. totalMs)
    };
    Layout layout() const;
    int xOf(const Layout& l, double ms) const;

    QVector<WaterfallPhase> m_phases;
    double m_totalMs = 0;
    QString m_placeholder;
};

} // namespace wb::ui
