#include "serve/builtinserver.h"

#include "serve/targetserver.h"

#include <memory>
#include <mutex>

namespace wb {

namespace {
std::mutex s_mutex;
std::unique_ptr<TargetServer> s_server; // lives until exit: its threads are joined by its destructor
} // namespace

bool isBuiltinUrl(const Url& url)
{
    return url.host == BUILTIN_HOST;
}

Result<uint16_t> ensureBuiltinServer()
{
    std::lock_guard lock(s_mutex);
    if (s_server) return s_server->port();
    TargetServerOptions options;
    options.bindAddress = "127.0.0.1";
    options.port = 0;
    options.threads = BUILTIN_THREADS;
    options.text = "Hello from the wrkbench built-in target server\n";
    auto server = std::make_unique<TargetServer>(options);
    if (Status st = server->start(); !st) return Error { "the built-in target server did not start: " + st.error() };
    s_server = std::move(server);
    return s_server->port();
}

Result<Url> resolveBuiltinUrl(const Url& url)
{
    if (!isBuiltinUrl(url)) return url;
    if (url.isTls()) return Error { "the built-in server speaks plain http (use http://builtin/...)" };
    auto port = ensureBuiltinServer();
    if (!port) return Error { port.error() };
    auto resolved = parseUrl("http://127.0.0.1:" + std::to_string(*port) + url.target);
    if (!resolved) return Error { resolved.error() };
    resolved->original = url.displayText(); // reports and the session name what the user typed
    return resolved;
}

} // namespace wb
