// libFuzzer target for the agent's request parser (agent/agenthttp.h): the bytes a
// stranger on the network sends before any token is checked. The input is fed
// whole, and again split at a point the first byte picks. Checked:
//   - both feeds agree (the parser does not depend on how TCP cut the bytes);
//   - a refusal has a 4xx/5xx status and a one-line reason;
//   - a request read whole has a method, a path starting with '/', and a body no
//     longer than the 1 MiB limit, exactly as long as its Content-Length.
// A violation traps.

#include "agent/channel/agenthttp.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace {

void check(bool ok)
{
    if (!ok) __builtin_trap();
}

wb::ServerRequestParser feedAll(std::string_view bytes, size_t split)
{
    wb::ServerRequestParser parser;
    parser.feed(bytes.substr(0, split));
    if (split < bytes.size()) parser.feed(bytes.substr(split));
    return parser;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    const size_t split = size == 0 ? 0 : data[0] % (size + 1);
    const wb::ServerRequestParser whole = feedAll(bytes, size);
    const wb::ServerRequestParser parts = feedAll(bytes, split);
    check(whole.state() == parts.state());
    if (whole.state() == wb::ServerRequestParser::State::Bad) {
        check(whole.status() >= 400 && whole.status() <= 599);
        check(whole.status() == parts.status());
        check(!whole.error().empty() && whole.error().find('\n') == std::string::npos);
    }
    if (whole.state() == wb::ServerRequestParser::State::Done) {
        const wb::ServerRequest& r = whole.request();
        check(!r.method.empty() && !r.path.empty() && r.path[0] == '/');
        check(r.body.size() <= wb::SERVER_MAX_BODY_BYTES);
        check(r.body == parts.request().body && r.path == parts.request().path);
        const std::string length = r.header("content-length");
        check(length.empty() ? r.body.empty() : std::stoul(length) == r.body.size());
    }
    return 0;
}
