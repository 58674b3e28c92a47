#pragma once
// The comparison at a glance, next to the table: one card per run with its
// colour, req/s (± its spread) and p99 in large type, the change against the
// baseline in green or red and the req/s loss as the studies put it ("36.66 %
// loss vs the baseline"). The baseline's card says so; every other card offers
// to become the baseline.

#include <QWidget>

class QVBoxLayout;

namespace wb::ui {

class CompareModel;

class CompareHeadlines : public QWidget
{
    Q_OBJECT
public:
    explicit CompareHeadlines(const CompareModel* model, QWidget* parent = nullptr);

    /// Rebuilds the cards from the model (after each reset).
    void refresh();
    /// The card of run i (in the model's order), for tests and screenshots.
    QWidget* cardOf(int run) const;

signals:
    /// The user asked to compare against this run ("Use as baseline" on its card).
    void baselineRequested(qint64 runId);

private:
    QWidget* card(int run);

    const CompareModel* m_model;
    QVBoxLayout* m_cards;
    QList<QWidget*> m_cardWidgets;
};

} // namespace wb::ui
