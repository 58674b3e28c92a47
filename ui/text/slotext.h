#pragma once
// SLO verdicts in the GUI's words, one spelling for every page: the live header,
// run details, the Runs table, Compare and the experiment table.

#include "run/slo.h"

#include <QColor>
#include <QString>
#include <string>
#include <vector>

namespace wb::ui {

/// Green for a met SLO, red for a failed one (the Live header's error red).
QColor sloColor(bool ok);
/// A run's SLOs at a glance: "✓ 3/3", "✗ 1 of 3 failed"; "" when the run had none.
QString sloSummary(const std::vector<SloVerdict>& verdicts);
/// A verdict's value as the window shows every quantity: latency in ms with the digits it needs
/// ("0.178 ms", "181 ms"), "0.43 %", "1,234.5 req/s", a count; "no data".
QString sloValueText(const SloVerdict& verdict);
/// One verdict: "✓ 181 ms", "✗ 0.43 %", "✗ no data".
QString sloVerdictText(const SloVerdict& verdict);
/// "SLO p99<250ms: ok (181.2ms)" (the CLI's line, for tooltips).
QString sloVerdictLine(const SloVerdict& verdict);
/// The verdict on expr among verdicts, or null when the run was not judged by it.
const SloVerdict* findSloVerdict(const std::vector<SloVerdict>& verdicts, const std::string& expr);

} // namespace wb::ui
