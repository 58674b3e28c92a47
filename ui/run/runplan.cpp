#include "run/runplan.h"

#include "run/builtinserver.h"

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

} // namespace wb::ui
