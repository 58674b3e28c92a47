#include "agent/channel/agentanswer.h"

#include "agent/channel/agentcredentials.h"
#include "common/jsontext.h"
#include "http/reasonphrase.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace wb {

namespace {
using Json = nlohmann::json;
constexpr int HEALTH_MAX_DEPTH = 4;
} // namespace

std::string agentHealthJson(const AgentHealth& h)
{
    return jsonText(Json { { "agent", "wrkbench" }, { "version", h.version }, { "host", h.host }, { "busy", h.busy },
        { "allow", h.allow }, { "max_duration_s", h.maxDurationS }, { "max_connections", h.maxConnections },
        { "max_threads", h.maxThreads }, { "max_rate_per_s", h.maxRatePerS }, { "clock", h.clock } });
}

std::optional<AgentHealth> parseAgentHealth(std::string_view body)
{
    const Json j = parseJsonTextOrDiscarded<Json>(body, HEALTH_MAX_DEPTH);
    if (!j.is_object() || j.value("agent", Json()) != "wrkbench") return std::nullopt;
    auto text = [&](const char* key) {
        const auto it = j.find(key);
        return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    auto count = [&](const char* key) {
        const auto it = j.find(key);
        return it != j.end() && it->is_number_unsigned() ? it->get<uint64_t>() : uint64_t { 0 };
    };
    AgentHealth h;
    h.version = text("version");
    h.host = text("host");
    h.clock = text("clock");
    if (const auto it = j.find("busy"); it != j.end() && it->is_boolean()) h.busy = it->get<bool>();
    if (const auto it = j.find("allow"); it != j.end() && it->is_array())
        for (const Json& e : *it)
            if (e.is_string()) h.allow.push_back(e.get<std::string>());
    h.maxDurationS = count("max_duration_s");
    h.maxConnections = count("max_connections");
    h.maxThreads = count("max_threads");
    if (const auto it = j.find("max_rate_per_s"); it != j.end() && it->is_number()) h.maxRatePerS = it->get<double>();
    return h;
}

std::string agentAnswerError(int status, std::string_view body)
{
    if (status >= 200 && status < 300) return {};
    const Json j = parseJsonTextOrDiscarded<Json>(body);
    if (j.is_object()) {
        const auto it = j.find("error");
        if (it != j.end() && it->is_string() && !it->get<std::string>().empty()) return it->get<std::string>();
    }
    if (status == 401) return "the agent refused the token (401)";
    return fmt::format("{} {}", status, httpReasonPhrase(status));
}

PinCheck checkPin(const std::string& presented, const std::string& pinned)
{
    if (pinned.empty()) return PinCheck::NotPinned;
    return !presented.empty() && presented == pinned ? PinCheck::Pinned : PinCheck::Changed;
}

std::string pinProblem(
    PinCheck check, const std::string& agent, const std::string& presented, const std::string& pinned)
{
    switch (check) {
    case PinCheck::Pinned:
        return {};
    case PinCheck::NotPinned:
        return fmt::format("the certificate of agent {} is not pinned yet (SHA-256 {}): an agent is never trusted "
                           "silently; compare it with the fingerprint the agent printed on its VM and pin it",
            agent, displayFingerprint(presented));
    case PinCheck::Changed:
        break;
    }
    return fmt::format("agent {} presented a certificate with SHA-256 fingerprint {}, not the pinned {}: refusing it "
                       "(if the agent was reinstalled, check the new fingerprint on the VM and pin it)",
        agent, displayFingerprint(presented), displayFingerprint(pinned));
}

} // namespace wb
