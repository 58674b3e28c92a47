#include "parse/stageparse.h"

#include "parse/quantity.h"

namespace wb {

Result<StagePlan> parseStages(const std::string& text)
{
    StagePlan plan;
    const auto syntax = "invalid stages '" + text + "' (use e.g. 10s:1000,30s:5000 or 10s:50c,30s:200c)";
    if (text.empty()) return Error { syntax };
    size_t start = 0;
    while (start <= text.size()) {
        auto end = text.find(',', start);
        if (end == std::string::npos) end = text.size();
        const std::string item = text.substr(start, end - start);
        const auto colon = item.find(':');
        if (colon == std::string::npos) return Error { syntax };
        auto duration = parseDurationUs(item.substr(0, colon));
        if (!duration) return Error { "stage '" + item + "': " + duration.error() };
        if (*duration == 0) return Error { "stage '" + item + "': duration must be greater than zero" };
        std::string target = item.substr(colon + 1);
        const bool isConnections = !target.empty() && target.back() == 'c';
        if (isConnections) target.pop_back();
        if (!plan.stages.empty() && isConnections != plan.connections)
            return Error { "stages mix rates and connection counts ('" + item + "'); use one kind" };
        plan.connections = isConnections;
        auto value = parseCount(target);
        if (!value) return Error { "stage '" + item + "': " + value.error() };
        plan.stages.push_back({ *duration, static_cast<double>(*value) });
        start = end + 1;
    }
    return plan;
}

} // namespace wb
