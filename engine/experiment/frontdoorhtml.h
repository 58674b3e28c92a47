#pragma once
// The HTML report's "Behind the front door" section (htmlreport.h): for each run made with
// --backend-from, its backends (requests, share with a bar, p50/p90/p99/max, non-2xx, first
// and last seen), the evenness and the appeared/vanished events; for each run made with
// --upstream-time, the three distributions side by side and the mean split (percentiles do not
// add, so they are never stacked); and the run metrics the results compare. From the stored
// breakdowns (ExperimentResults::frontDoor), as the window and `export --what backends` show them.

#include "experiment/experimentresults.h"

#include <string>

namespace wb {

/// The section, from <section> to </section>; "" when no run of the results has a breakdown.
std::string frontDoorHtmlSection(const ExperimentResults& results);

} // namespace wb
