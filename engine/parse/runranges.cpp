#include "parse/runranges.h"

#include <charconv>
#include <set>

namespace wb {

namespace {

constexpr int64_t MAX_RANGE_LENGTH = 1'000'000; // a typo such as 1-1000000000 must not allocate gigabytes

std::string trimmed(const std::string& s)
{
    const size_t a = s.find_first_not_of(" \t");
    if (a == std::string::npos) return {};
    return s.substr(a, s.find_last_not_of(" \t") - a + 1);
}

Result<int64_t> runId(const std::string& text)
{
    int64_t v = 0;
    const char* end = text.data() + text.size();
    auto [p, ec] = std::from_chars(text.data(), end, v);
    if (text.empty() || ec != std::errc() || p != end || v <= 0) return Error { "'" + text + "' is not a run id" };
    return v;
}

} // namespace

Result<std::vector<int64_t>> parseRunRanges(const std::string& text)
{
    std::vector<int64_t> out;
    std::set<int64_t> seen;
    size_t start = 0;
    for (;;) {
        const size_t comma = text.find(',', start);
        const std::string part
            = trimmed(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (part.empty()) return Error { "empty run range in '" + text + "'" };
        const size_t dash = part.find('-', 1);
        auto first = runId(trimmed(part.substr(0, dash)));
        if (!first) return Error { first.error() };
        int64_t last = *first;
        if (dash != std::string::npos) {
            auto to = runId(trimmed(part.substr(dash + 1)));
            if (!to) return Error { to.error() };
            last = *to;
            if (last < *first) return Error { "run range '" + part + "' runs backwards" };
            if (last - *first >= MAX_RANGE_LENGTH) return Error { "run range '" + part + "' is too long" };
        }
        for (int64_t id = *first; id <= last; ++id)
            if (seen.insert(id).second) out.push_back(id);
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return out;
}

} // namespace wb
