#pragma once
// The probe as text for a terminal: a waterfall (one line per phase with its own
// duration, the cumulative time and a bar placed where the phase happened, as
// `curl -w` with a chart), then the connection and response details.

#include "probe/proberesult.h"

#include <string>
#include <vector>

namespace wb {

constexpr unsigned PROBE_BAR_WIDTH = 40;

/// Title line, waterfall and details of one probe.
std::string formatProbeText(const ProbeResult& probe);
/// --repeat: min/median/max of every phase over the probes, then the details of the last one.
std::string formatProbeSummaryText(const std::vector<ProbeResult>& probes);

/// Just the waterfall lines (and the total).
std::string formatWaterfall(const ProbeResult& probe, unsigned barWidth = PROBE_BAR_WIDTH);
/// Just the details: addresses, HTTP, TLS, certificates, status, headers, body, redirects.
std::string formatProbeDetails(const ProbeResult& probe);

} // namespace wb
