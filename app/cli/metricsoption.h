#pragma once
// --metrics-listen for `run` (and the loaders and agents that run one): the labels of a run's
// series and the server, started before any load so that a scraper sees the whole run.

#include "common/result.h"
#include "prometheus/serve/metricsserver.h"
#include "run/runconfig.h"

#include <cstdint>
#include <memory>
#include <string>

namespace wb::cli {

/// run: the common start (--start-at) or now, UTC to the second; target: the session target's name
/// or the URL; loader: this host ("I/N host" for a loader of several).
MetricsLabels metricsLabelsOf(
    const RunConfig& config, const std::string& targetName, int64_t startAtUnixUs, const std::string& loader);

/// The server listening on `address`; the error names the address (a usage error).
Result<std::unique_ptr<MetricsServer>> startMetricsServer(const std::string& address, MetricsLabels labels);

} // namespace wb::cli
