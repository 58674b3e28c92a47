#pragma once
// Run details, Backends tab (--backend-from): a table per backend (requests, share with a
// bar, p50/p90/p99/max, non-2xx, first and last seen, busiest first), the evenness of the
// run (backends, max/min share, coefficient of variation, chi-square against an even split
// and its p-value) and the backends that appeared or vanished during the run. Everything
// from the stored intervals folded by store/frontdoorview.h, as the CLI's report and
// `export --what backends` have it.

#include "store/frontdoorview.h"

#include <QWidget>

class QTableWidget;

namespace wb::ui {

class BackendsTab : public QWidget
{
    Q_OBJECT
public:
    BackendsTab(const FrontDoorView& view, const RunConfig& config, QWidget* parent = nullptr);

    QTableWidget* evenness() const { return m_evenness; }
    QTableWidget* backends() const { return m_backends; }
    QTableWidget* events() const { return m_events; }

    /// The share column, whose cells carry the share (0..1) as SHARE_ROLE and draw it as a bar.
    static constexpr int SHARE_COLUMN = 2;
    static constexpr int SHARE_ROLE = Qt::UserRole + 1;

private:
    QTableWidget* m_evenness;
    QTableWidget* m_backends;
    QTableWidget* m_events;
};

} // namespace wb::ui
