#include "run/shard.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fmt/format.h>

namespace wb {

namespace {

constexpr unsigned MAX_LOADERS = 10'000;

Result<unsigned> number(const std::string& text, const char* what)
{
    if (text.empty() || text.size() > 9
        || !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return Error { fmt::format("{} must be a whole number, not '{}'", what, text) };
    return static_cast<unsigned>(std::stoul(text));
}

// "$JOB_COMPLETION_INDEX", "${NAME}" or "NAME": the variable's value; a number stays as it is.
Result<std::string> expandIndex(std::string text)
{
    if (!text.empty() && std::isdigit(static_cast<unsigned char>(text[0]))) return text;
    if (!text.empty() && text[0] == '$') text.erase(0, 1);
    if (text.size() >= 2 && text.front() == '{' && text.back() == '}') text = text.substr(1, text.size() - 2);
    if (text.empty()) return Error { "the loader index is empty" };
    const char* value = std::getenv(text.c_str());
    if (!value) return Error { fmt::format("the loader index names ${}, which is not set", text) };
    return std::string(value);
}

} // namespace

uint64_t evenShare(uint64_t total, uint64_t parts, uint64_t index)
{
    return total / parts + (index < total % parts ? 1 : 0);
}

Result<Shard> parseShard(const std::string& text)
{
    const size_t slash = text.rfind('/');
    if (slash == std::string::npos) return Error { fmt::format("shard '{}' must be INDEX/COUNT, e.g. 0/4", text) };
    auto indexText = expandIndex(text.substr(0, slash));
    if (!indexText) return Error { "shard '" + text + "': " + indexText.error() };
    auto index = number(*indexText, "the loader index");
    if (!index) return Error { "shard '" + text + "': " + index.error() };
    auto count = number(text.substr(slash + 1), "the loader count");
    if (!count) return Error { "shard '" + text + "': " + count.error() };
    if (*count == 0 || *count > MAX_LOADERS)
        return Error { fmt::format("shard '{}': the loader count must be 1 to {}", text, MAX_LOADERS) };
    if (*index >= *count)
        return Error { fmt::format("shard '{}': the index must be below the count (0 to {})", text, *count - 1) };
    return Shard { *index, *count };
}

Result<RunConfig> shareOf(const RunConfig& wholeConfig, Shard shard)
{
    const RunConfig whole = wholeConfig.normalized();
    if (shard.count <= 1) {
        RunConfig one = whole;
        one.loaders = {}; // a share is made by one process
        return one;
    }
    RunConfig part = whole;
    part.loaders = {}; // a share is made by one process
    part.connections = static_cast<unsigned>(evenShare(whole.connections, shard.count, shard.index));
    if (part.connections == 0)
        return Error { fmt::format("loader {} of {} gets no connections: {} connections over {} loaders leave "
                                   "nothing for it; use at most {} loaders or more connections",
            shard.index, shard.count, whole.connections, shard.count, whole.connections) };
    const double fraction = static_cast<double>(part.connections) / static_cast<double>(whole.connections);
    part.ratePerS = whole.ratePerS * fraction;
    for (Stage& stage : part.stages) {
        if (whole.stagesAreConnections)
            stage.target = static_cast<double>(
                evenShare(static_cast<uint64_t>(std::llround(stage.target)), shard.count, shard.index));
        else
            stage.target *= fraction;
    }
    part.threads = std::min(whole.threads, part.connections);
    if (whole.responses > 0) {
        part.responses = evenShare(whole.responses, shard.count, shard.index);
        if (part.responses < part.threads)
            return Error { fmt::format("loader {} of {} gets {} of the {} responses (--responses), fewer than its {} "
                                       "threads: ask for more responses or fewer loaders",
                shard.index, shard.count, part.responses, whole.responses, part.threads) };
    }
    // Random and weighted mixes: each loader walks its own sequence.
    part.mix.seed = whole.mix.seed + shard.index;
    return part.normalized();
}

} // namespace wb
