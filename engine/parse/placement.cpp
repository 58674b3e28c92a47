#include "parse/placement.h"

#include <fmt/format.h>
#include <sstream>

namespace wb {

Result<LoaderPlacement> parseLoaderPlacement(const std::string& text)
{
    std::istringstream in(text);
    std::string word;
    LoaderPlacement p;
    if (!(in >> word)) return p;
    if (word == "remote" || word == "agents") {
        p.on = LoaderPlacement::On::Agents;
        std::string rest;
        std::getline(in, rest);
        std::string name;
        for (char ch : rest + ",") {
            if (ch == ',') {
                if (!name.empty()) p.agents.push_back(name);
                name.clear();
            } else if (ch != ' ' && ch != '\t') {
                name += ch;
            }
        }
        if (p.agents.empty()) return Error { "name the remote loaders: remote NAME[,NAME...]" };
        p.count = static_cast<unsigned>(p.agents.size());
        return p;
    }
    try {
        size_t used = 0;
        const unsigned long n = std::stoul(word, &used);
        if (used != word.size() || n == 0 || n > 10'000) throw std::out_of_range("loaders");
        p.count = static_cast<unsigned>(n);
    } catch (const std::exception&) {
        return Error { fmt::format("'{}' is not a number of loaders (1 to 10000)", word) };
    }
    if (!(in >> word)) return p;
    if (word == "local") {
        if (in >> word) return Error { fmt::format("'{}' after local: only kubernetes takes options", word) };
        return p;
    }
    if (word != "kubernetes" && word != "k8s")
        return Error { fmt::format("'{}': loaders run local or on kubernetes", word) };
    p.on = LoaderPlacement::On::Kubernetes;
    while (in >> word) {
        const size_t eq = word.find('=');
        const std::string key = word.substr(0, eq);
        const std::string value = eq == std::string::npos ? std::string() : word.substr(eq + 1);
        if (eq == std::string::npos || value.empty())
            return Error { fmt::format("'{}' must be KEY=VALUE (namespace, context, image, cpu, memory)", word) };
        if (key == "namespace")
            p.kubeNamespace = value;
        else if (key == "context")
            p.kubeContext = value;
        else if (key == "image")
            p.image = value;
        else if (key == "cpu")
            p.podCpu = value;
        else if (key == "memory")
            p.podMemory = value;
        else
            return Error { fmt::format("unknown key '{}' (use namespace, context, image, cpu or memory)", key) };
    }
    return p;
}

std::string loaderPlacementText(const LoaderPlacement& p)
{
    if (p.on == LoaderPlacement::On::Agents) {
        std::string out = "remote ";
        for (size_t i = 0; i < p.agents.size(); ++i)
            out += (i ? ", " : "") + p.agents[i];
        return out;
    }
    std::string out = std::to_string(p.count);
    if (p.on != LoaderPlacement::On::Kubernetes) return out;
    const LoaderPlacement defaults;
    out += " kubernetes";
    if (p.kubeNamespace != defaults.kubeNamespace) out += " namespace=" + p.kubeNamespace;
    if (!p.kubeContext.empty()) out += " context=" + p.kubeContext;
    if (!p.image.empty()) out += " image=" + p.image;
    if (p.podCpu != defaults.podCpu) out += " cpu=" + p.podCpu;
    if (p.podMemory != defaults.podMemory) out += " memory=" + p.podMemory;
    return out;
}

} // namespace wb
