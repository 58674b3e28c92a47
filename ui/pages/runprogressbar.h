#pragma once
// The elapsed/remaining bar of a run (Live header, tab-bar badge). Not a
// QProgressBar: QProgressBar::setValue() repaints synchronously (its own paint
// and flush to the display, outside the window's coalesced update), and the
// Fusion style's rounded, antialiased, gradient chunk made it about a sixth of
// the UI thread's time during a run. This one is flat, repaints through
// update() (one paint pass with everything else that changed), and only when
// the filled part moves by a pixel or the text changes.

#include <QString>
#include <QWidget>

namespace wb::ui {

class RunProgressBar : public QWidget
{
public:
    explicit RunProgressBar(QWidget* parent = nullptr);

    /// Done part in 0..1 (clamped).
    void setFraction(double fraction);
    double fraction() const { return m_fraction; }
    /// Text drawn centred on the bar (empty: none).
    void setText(const QString& text);
    QString text() const { return m_text; }
    /// Whether the text is drawn at all (the badge's small bar has none).
    void setTextVisible(bool visible);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    /// Width in pixels of the filled part for the current fraction and size.
    int filledWidth() const;

    double m_fraction = 0;
    int m_paintedFilledWidth = -1;
    QString m_text;
    bool m_textVisible = true;
};

} // namespace wb::ui
