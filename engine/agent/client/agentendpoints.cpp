#include "agent/client/agentendpoints.h"

#include "agent/channel/agentcredentials.h"
#include "agent/client/agentclient.h"

#include <fmt/format.h>
#include <fstream>
#include <map>
#include <sstream>
#include <sys/stat.h>

namespace wb {

namespace {

std::vector<std::string> splitComma(const std::string& text)
{
    std::vector<std::string> out;
    std::stringstream in(text);
    for (std::string item; std::getline(in, item, ',');) {
        const auto first = item.find_first_not_of(" \t");
        if (first != std::string::npos) out.push_back(item.substr(first, item.find_last_not_of(" \t") - first + 1));
    }
    return out;
}

} // namespace

Result<std::vector<AgentEndpoint>> agentEndpoints(const std::vector<std::string>& addresses,
    const std::string& tokenFile, const std::string& fingerprints, const std::string& caFile)
{
    if (addresses.empty()) return Error { "--on agents: name them, HOST:PORT[,HOST:PORT...]" };
    for (const std::string& address : addresses)
        if (auto split = splitAgentAddress(address); !split) return Error { split.error() };
    if (fingerprints.empty() && caFile.empty())
        return Error { "--on agents needs --agent-fingerprint (each agent prints its own) or --agent-cacert: an agent "
                       "is never trusted silently" };
    if (tokenFile.empty())
        return Error { "--on agents needs --agent-token-file (the agent keeps its token in its state dir)" };

    struct stat info
    { };
    if (::stat(tokenFile.c_str(), &info) != 0)
        return Error { fmt::format("cannot read the token file '{}'", tokenFile) };
    if ((info.st_mode & 077) != 0)
        return Error { fmt::format(
            "the token file '{}' is readable by others (mode {:o}): chmod 600 it", tokenFile, info.st_mode & 0777) };
    std::ifstream in(tokenFile);
    std::string commonToken;
    std::map<std::string, std::string> tokens;
    for (std::string line; std::getline(in, line);) {
        std::istringstream words(line);
        std::string first, second, extra;
        if (!(words >> first)) continue;
        if (words >> second) {
            if (words >> extra) return Error { fmt::format("'{}': a line is TOKEN or HOST:PORT TOKEN", tokenFile) };
            tokens[first] = second;
        } else {
            if (!commonToken.empty())
                return Error { fmt::format("'{}' holds two lone tokens: which is for whom?", tokenFile) };
            commonToken = first;
        }
    }
    const std::vector<std::string> pins = splitComma(fingerprints);
    if (!pins.empty() && pins.size() != 1 && pins.size() != addresses.size())
        return Error { fmt::format("--agent-fingerprint: {} fingerprints for {} agents (one per agent, in order)",
            pins.size(), addresses.size()) };
    std::vector<AgentEndpoint> out;
    for (size_t i = 0; i < addresses.size(); ++i) {
        AgentEndpoint e;
        e.name = addresses[i];
        e.address = addresses[i];
        auto it = tokens.find(addresses[i]);
        e.token = it != tokens.end() ? it->second : commonToken;
        if (e.token.empty()) return Error { fmt::format("'{}' has no token for agent {}", tokenFile, addresses[i]) };
        if (!pins.empty()) {
            auto pin = normalizeFingerprint(pins.size() == 1 ? pins[0] : pins[i]);
            if (!pin) return Error { "--agent-fingerprint: " + pin.error() };
            e.fingerprint = *pin;
        }
        e.caFile = caFile;
        out.push_back(std::move(e));
    }
    return out;
}

} // namespace wb
