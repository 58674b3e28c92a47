#include "fleet/documentmerge.h"

#include "fleet/fleetmerge.h"
#include "wire/configcodec.h"

#include <algorithm>
#include <fmt/format.h>
#include <set>

namespace wb {

DocumentMerge::DocumentMerge(std::vector<LoaderDocument> documents)
    : m_documents(std::move(documents))
{ }

Result<RunConfig> DocumentMerge::checkTogether(const std::vector<LoaderDocument>& documents)
{
    if (documents.empty()) return Error { "no loader results to merge" };
    auto whole = runConfigFromJson(documents.front().identity.wholeConfigJson);
    if (!whole) return Error { "loader " + std::to_string(documents.front().identity.index) + ": " + whole.error() };
    FleetMerge trial(*whole, documents.front().identity.count, 0);
    for (const LoaderDocument& d : documents)
        if (auto st = trial.started(d.identity); !st) return Error { st.error() };
    return whole->normalized();
}

int64_t DocumentMerge::commonStartUnixMs(const std::vector<LoaderDocument>& documents)
{
    const int64_t requested = documents.front().identity.requestedStartUnixUs;
    const bool shared = requested > 0 && std::all_of(documents.begin(), documents.end(), [&](const LoaderDocument& d) {
        return d.identity.requestedStartUnixUs == requested;
    });
    if (shared) return requested / 1000;
    int64_t earliest = INT64_MAX;
    for (const LoaderDocument& d : documents) {
        if (d.end.measureStartUnixMs > 0) earliest = std::min(earliest, d.end.measureStartUnixMs);
        if (!d.intervals.empty()) earliest = std::min(earliest, d.intervals.front().startUnixMs);
    }
    return earliest == INT64_MAX ? 0 : earliest;
}

Status DocumentMerge::prepare()
{
    auto whole = checkTogether(m_documents);
    if (!whole) return Error { whole.error() };
    const unsigned count = m_documents.front().identity.count;
    if (m_documents.size() < count) {
        std::set<unsigned> have;
        for (const LoaderDocument& d : m_documents)
            have.insert(d.identity.index);
        std::string missing;
        for (unsigned i = 0; i < count; ++i)
            if (!have.count(i)) missing += (missing.empty() ? "" : ", ") + std::to_string(i);
        m_warnings.push_back(fmt::format("loaders {} of {} are missing: the merged run is partial", missing, count));
    }
    return {};
}

RunResult DocumentMerge::run()
{
    auto whole = checkTogether(m_documents);
    const unsigned count = m_documents.front().identity.count;
    FleetMerge merge(*whole, count, commonStartUnixMs(m_documents));
    for (RunObserver* o : m_observers)
        merge.addObserver(o);
    for (const LoaderDocument& d : m_documents)
        merge.started(d.identity);
    merge.announce();
    // Interval k of every loader before interval k+1 of any: the merge keeps only a few open.
    size_t longest = 0;
    for (const LoaderDocument& d : m_documents)
        longest = std::max(longest, d.intervals.size());
    for (size_t k = 0; k < longest; ++k)
        for (const LoaderDocument& d : m_documents)
            if (k < d.intervals.size()) merge.interval(d.identity.index, d.intervals[k]);
    for (const LoaderDocument& d : m_documents) {
        if (d.complete)
            merge.finished(d.identity.index, d.end);
        else
            merge.failed(d.identity.index, d.failure.empty() ? "its stream ended without a result" : d.failure);
    }
    RunResult result = merge.finish(false);
    for (const std::string& w : merge.warnings())
        m_warnings.push_back(w);
    return result;
}

} // namespace wb
