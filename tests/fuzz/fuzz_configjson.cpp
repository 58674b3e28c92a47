// libFuzzer target for a run configuration as it arrives from the network
// (POST /v1/runs's "config", a pod's ConfigMap): the agent's path through it,
// which is the nesting bound (common/jsondepth.h), the JSON parser, the numbers
// check (agent/agentlimits.h), the decoder (store/configjson.h), validate() and
// the request rules (http/requestcheck.h). Checked:
//   - nothing crashes, traps on undefined behaviour, or throws past its caller;
//   - a configuration that passes every check builds requests whose head is one
//     request: a request line, "Name: value" lines, one blank line, then exactly
//     the body (a passing configuration can never smuggle a second request);
//   - the numbers of a passing configuration are what was sent (no float or
//     negative number was cast into a count).
// A violation traps.

#include "agent/server/agentlimits.h"
#include "common/jsondepth.h"
#include "http/requestcheck.h"
#include "wire/configcodec.h"

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace {

void check(bool ok)
{
    if (!ok) __builtin_trap();
}

void checkOneRequest(const wb::RequestSpec& request)
{
    const std::string bytes = wb::buildRequest(request);
    check(bytes.size() >= request.body.size());
    const std::string_view head(bytes.data(), bytes.size() - request.body.size());
    check(head.size() >= 4 && head.substr(head.size() - 4) == "\r\n\r\n");
    check(head.find("\r\n\r\n") == head.size() - 4); // one blank line, at the end of the head
    check(std::string_view(bytes).substr(head.size()) == request.body);
    size_t lineStart = head.find("\r\n") + 2;
    const std::string_view requestLine = head.substr(0, lineStart - 2);
    check(requestLine.find('\n') == std::string_view::npos && requestLine.find('\r') == std::string_view::npos);
    while (lineStart < head.size() - 2) {
        const size_t end = head.find("\r\n", lineStart);
        const std::string_view line = head.substr(lineStart, end - lineStart);
        check(line.find(':') != std::string_view::npos && line.find('\n') == std::string_view::npos
            && line.find('\r') == std::string_view::npos);
        lineStart = end + 2;
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    if (!wb::jsonDepthWithin(text, wb::AGENT_MAX_JSON_DEPTH)) return 0;
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const std::exception&) {
        return 0;
    }
    if (!j.is_object() || !wb::checkConfigNumbers(j)) return 0;
    auto config = wb::runConfigFromJson(j.dump());
    if (!config) return 0;
    if (auto it = j.find("connections"); it != j.end() && it->is_number_unsigned())
        check(config->connections == it->get<uint64_t>());
    if (!wb::checkRunLimits(*config, wb::AgentLimits {})) return 0;
    const wb::RunConfig whole = config->normalized();
    if (!whole.validate()) return 0;
    for (const wb::RequestSpec& request : whole.requests())
        if (wb::checkRequestSpec(request)) checkOneRequest(request);
    return 0;
}
