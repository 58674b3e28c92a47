#pragma once
// `wrkbench-cli probe`: one request through libcurl, and where its time went.

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace wb::cli {

/// The probe options as typed; converted and checked by probeCommand().
struct ProbeArgs
{
    std::string url;
    std::string method = "GET";
    std::vector<std::string> headers;
    std::string body;
    std::string caFile;
    bool insecure = false;
    std::string repeat = "1"; ///< probes over fresh connections; > 1 prints min/median/max
    bool json = false;
    std::string timeout = "5s";
    std::string connectTimeout = "5s";
    bool followRedirects = false;
    bool http2 = false;
};

void addProbeCommand(CLI::App& app, ProbeArgs& args);
/// 0 when the target answered (any status), 1 when the probe failed, 2 on usage errors.
int probeCommand(const ProbeArgs& args);

} // namespace wb::cli
