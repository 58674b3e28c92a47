#pragma once
// The comparison at a glance, next to the table: one card per run with its
// target colour, req/s and p99 in large type, and the change against the
// baseline in green or red.

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

private:
    QWidget* card(int run);

    const CompareModel* m_model;
    QVBoxLayout* m_cards;
};

} // namespace wb::ui
