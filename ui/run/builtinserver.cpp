#include "run/builtinserver.h"

#include "http/url.h"
#include "serve/targetserver.h"

#include <memory>
#include <mutex>

namespace wb::ui {

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

std::string builtinUrl(const Url& url, uint16_t port)
{
    return "http://127.0.0.1:" + std::to_string(port) + url.target;
}

} // namespace wb::ui
