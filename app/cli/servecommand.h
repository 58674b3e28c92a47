#pragma once
// `wrkbench-cli serve`: the built-in target server, for demos and tests.

#include <cstdint>
#include <string>

namespace CLI {
class App;
}

namespace wb::cli {

struct ServeArgs
{
    std::string bind = "127.0.0.1";
    uint16_t port = 8080;
    unsigned threads = 1;
    uint64_t delayMs = 0;
    int64_t bodySize = -1;
    std::string text;
    std::string duration; ///< stop by itself after this long (default: until Ctrl-C)
    std::string stallEvery; ///< hold all answers periodically (coordinated-omission demos and tests)
    std::string stallFor;
    unsigned backends = 0; ///< --backends N: answer as N named backends
    std::string spread = "even"; ///< --spread even|skewed
    bool upstreamTimeHeader = false; ///< --upstream-time-header
    std::string capacity; ///< --capacity N[/s]: admit N requests/s over all threads
    bool queue = false; ///< --queue: hold the excess and answer it late instead of 503
};

void addServeCommand(CLI::App& app, ServeArgs& args);
int serveCommand(const ServeArgs& args);

} // namespace wb::cli
