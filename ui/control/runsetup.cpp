#include "control/runsetup.h"

#include "parse/requestmix.h"
#include "record/recordedrun.h"
#include "script/luastate.h"
#include "script/scriptrun.h"
#include "serve/builtinserver.h"

namespace wb::ui {

Result<RunConfig> runConfigFor(const Target& target, const RunConfig& load)
{
    RunConfig config = load.withHttpVersion(target.httpVersion);
    auto url = parseUrl(target.url);
    if (!url) return Error { "URL: " + url.error() };
    if (isBuiltinUrl(*url) && url->isTls())
        return Error { "URL: the built-in server speaks plain http (use http://builtin/...)" };
    config.request.url = *url;
    config.request.method = target.method.empty() ? "GET" : target.method;
    config.request.headers = target.headers;
    config.request.body = target.body;
    config.tls = target.tls;
    if (!target.requestMix.empty()) {
        // Read at each run, so the file's current entries go out; the target's headers apply to each.
        auto mix = loadRequestMix(target.requestMix);
        if (!mix) return Error { "request mix: " + mix.error() };
        applyRequestMix(config, *mix, target.mixOrder, config.mix.seed, target.headers);
    }
    if (!target.script.empty()) {
        // Read at each run, as the mix file: the file's current text goes with the run.
        auto script = readScriptFile(target.script, target.scriptArgs);
        if (!script) return Error { "script: " + script.error() };
        config.script = std::move(*script);
    }
    if (Status st = config.validate(); !st) return Error { st.error() };
    return config;
}

Result<ProbeOptions> probeOptionsFor(const Target& target, const std::atomic<bool>* cancel)
{
    auto config = runConfigFor(target, RunConfig {});
    if (!config) return Error { config.error() };
    auto url = resolveBuiltinUrl(config->request.url);
    if (!url) return Error { url.error() };
    config->request.url = *url;
    ProbeOptions options = wb::probeOptionsFor(*config);
    if (!config->script.empty()) {
        auto first = scriptFirstRequest(*config, cancel);
        if (!first) return Error { "the script could not make its first request: " + first.error() };
        options.request = std::move(*first);
    }
    return options;
}

} // namespace wb::ui
