#pragma once
// A probe's result as the probe dialog shows it: the waterfall rows and the
// details (addresses, HTTP, TLS, the certificate chain with its expiry
// highlighted, the response and redirects) as HTML, in the order of
// `wrkbench-cli probe`.

#include "charts/probewaterfall.h"
#include "probe/proberesult.h"
#include "text/format.h"

#include <QColor>
#include <QString>
#include <QVector>

namespace wb::ui {

/// A certificate expiring within this many days is shown in orange; an expired one in red.
inline constexpr int64_t EXPIRY_WARNING_DAYS = 30;
inline const QColor EXPIRY_WARNING_COLOR { 0xd9, 0x6b, 0x00 };
inline const QColor EXPIRED_COLOR = errorColor();

/// EXPIRED_COLOR once expired, EXPIRY_WARNING_COLOR under EXPIRY_WARNING_DAYS, else invalid (no highlight).
QColor expiryColor(int64_t daysToExpiry);
/// "12 days left", "1 day left", "expired 3 days ago" (days rounded down, as the CLI).
QString expiryText(int64_t daysToExpiry);

/// One row per phase, in order (all six: a phase that did not happen, TLS over
/// http, is a greyed row without a bar). The rows add up to probe.totalUs.
QVector<WaterfallPhase> waterfallPhases(const ProbeResult& probe);
/// The details as an HTML table (label, value).
QString probeDetailsHtml(const ProbeResult& probe);

} // namespace wb::ui
