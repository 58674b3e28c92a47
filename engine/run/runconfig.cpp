#include "run/runconfig.h"

#include <string>

namespace wb {

Status RunConfig::validate() const
{
    if (threads == 0) return Error { "threads must be at least 1" };
    if (connections == 0) return Error { "connections must be at least 1" };
    if (connections < threads)
        return Error { "connections (" + std::to_string(connections) + ") must be at least the number of threads ("
            + std::to_string(threads) + "): each thread needs a connection" };
    if (threads > 1024) return Error { "threads must be at most 1024" };
    if (pipeline == 0 || pipeline > 1024) return Error { "pipeline depth must be between 1 and 1024" };
    if (durationUs < 100'000) return Error { "duration must be at least 100ms" };
    if (timeoutUs == 0) return Error { "timeout must be greater than zero" };
    if (intervalUs < 100'000) return Error { "interval must be at least 100ms" };
    if (request.method.empty()) return Error { "method must not be empty" };
    for (char c : request.method)
        if (c < 'A' || c > 'Z') return Error { "invalid method '" + request.method + "' (use e.g. GET, POST)" };
    return {};
}

} // namespace wb
