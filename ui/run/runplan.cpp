#include "run/runplan.h"

#include "run/builtinserver.h"

#include <algorithm>

namespace wb::ui {

Result<RunConfig> runConfigFor(const Target& target, const RunConfig& load, uint16_t builtinPort)
{
    RunConfig config = load;
    auto url = parseUrl(target.url);
    if (!url) return Error { "URL: " + url.error() };
    if (isBuiltinUrl(*url)) {
        if (url->isTls()) return Error { "URL: the built-in server speaks plain http (use http://builtin/...)" };
        url = parseUrl(builtinUrl(*url, builtinPort));
        if (!url) return Error { "URL: " + url.error() };
    }
    config.request.url = *url;
    config.request.method = target.method.empty() ? "GET" : target.method;
    config.request.headers = target.headers;
    config.request.body = target.body;
    config.tls = target.tls;
    if (Status st = config.validate(); !st) return Error { st.error() };
    return config;
}

ProbeOptions probeOptionsFor(const RunConfig& config)
{
    ProbeOptions options;
    options.request = config.request;
    options.tls = config.tls;
    // Never stricter than the run: a target the run waits 10 s for must not fail its probe at 5 s.
    options.timeoutUs = std::max(options.timeoutUs, config.timeoutUs);
    options.connectTimeoutUs = std::max(options.connectTimeoutUs, config.connectTimeoutUs);
    return options;
}

Result<ProbeOptions> probeOptionsFor(const Target& target, uint16_t builtinPort)
{
    auto config = runConfigFor(target, RunConfig {}, builtinPort);
    if (!config) return Error { config.error() };
    return probeOptionsFor(*config);
}

} // namespace wb::ui
