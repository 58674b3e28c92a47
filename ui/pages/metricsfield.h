#pragma once
// The target editor's Metrics field: the endpoints a target's runs scrape (--scrape, docs/METRICS.md)
// as "name=URL" items, the filter (--scrape-metric), and a Check button that reads each endpoint once
// off the UI thread and says what a run would find there (or why it cannot).

#include "prometheus/exposition/scraperecord.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QPushButton;

namespace wb::ui {

class MetricsField : public QWidget
{
    Q_OBJECT
public:
    explicit MetricsField(QWidget* parent = nullptr);

    void setSpec(const ScrapeSpec& spec);
    /// What the field says, checked (ScrapeSpec::validate); the error names the item at fault.
    Result<ScrapeSpec> spec() const;
    QLineEdit* endpointsEdit() const { return m_endpoints; }
    QLineEdit* filterEdit() const { return m_filter; }
    QPushButton* checkButton() const { return m_check; }
    /// The last check's result (or "checking…").
    QString checkText() const;

    /// "name=URL, URL" as the field shows a spec.
    static QString endpointsText(const ScrapeSpec& spec);

signals:
    /// The user changed the endpoints or the filter.
    void edited();
    /// A check ended; checkText() says how.
    void checked();

private:
    void runCheck();

    QLineEdit* m_endpoints;
    QLineEdit* m_filter;
    QPushButton* m_check;
    QLabel* m_result;
    int m_checkSerial = 0; ///< a newer check makes an older one's answer stale
};

} // namespace wb::ui
