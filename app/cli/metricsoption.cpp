#include "metricsoption.h"

#include "common/clock.h"

#include <ctime>
#include <fmt/format.h>

namespace wb::cli {

MetricsLabels metricsLabelsOf(
    const RunConfig& config, const std::string& targetName, int64_t startAtUnixUs, const std::string& loader)
{
    // Loaders of one run share its common start, so their series carry one run label.
    const std::time_t at = static_cast<std::time_t>((startAtUnixUs > 0 ? startAtUnixUs : wallClockNowUs()) / 1'000'000);
    std::tm utc {};
    gmtime_r(&at, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    const std::string target = !targetName.empty() ? targetName
        : config.mix.empty()                       ? config.request.url.displayText()
                                                   : config.mix.source;
    return MetricsLabels { text, target, loader };
}

Result<std::unique_ptr<MetricsServer>> startMetricsServer(const std::string& address, MetricsLabels labels)
{
    auto server = std::make_unique<MetricsServer>(std::move(labels));
    if (Status st = server->listen(address); !st) return Error { st.error() };
    return server;
}

} // namespace wb::cli
