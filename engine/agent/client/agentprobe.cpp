#include "agent/client/agentprobe.h"

#include "agent/client/agentclient.h"
#include "common/jsontext.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace wb {

std::string agentProbeBody(const ProbeOptions& options)
{
    nlohmann::json headers = nlohmann::json::array();
    for (const Header& h : options.request.headers)
        headers.push_back(h.name + ": " + h.value);
    return jsonText(nlohmann::json { { "url", options.request.url.displayText() }, { "method", options.request.method },
        { "headers", headers }, { "body", options.request.body }, { "insecure", !options.tls.verifyPeer },
        { "http2", options.allowHttp2 } });
}

Result<ProbeResult> probeOnAgent(const AgentEndpoint& agent, const ProbeOptions& options)
{
    AgentClient client(agent);
    // The agent's probe has its own timeouts; leave it room to report them.
    auto reply = client.call(
        "POST", "/v1/probe", agentProbeBody(options), options.timeoutUs + options.connectTimeoutUs + 10'000'000);
    if (!reply) return Error { reply.error() };
    if (reply->status != 200) return Error { fmt::format("probe from agent {}: {}", agent.name, reply->errorText()) };
    auto result = ProbeResult::fromJsonText(reply->body);
    if (!result) return Error { fmt::format("agent {}'s probe result: {}", agent.name, result.error()) };
    return result;
}

} // namespace wb
