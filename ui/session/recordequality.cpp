#include "session/recordequality.h"

#include <algorithm>

namespace wb::ui {

bool sameTarget(const Target& a, const Target& b)
{
    return a.id == b.id && a.name == b.name && a.url == b.url && a.method == b.method && a.headers == b.headers
        && a.body == b.body && a.tls.verifyPeer == b.tls.verifyPeer && a.tls.caFile == b.tls.caFile && a.tags == b.tags
        && a.notes == b.notes && a.httpVersion == b.httpVersion && a.requestMix == b.requestMix
        && a.mixOrder == b.mixOrder && a.script == b.script && a.scriptArgs == b.scriptArgs && a.scrape == b.scrape;
}

bool sameProfile(const LoadProfile& a, const LoadProfile& b)
{
    return a.id == b.id && a.name == b.name && a.notes == b.notes && sameLoad(a.load, b.load);
}

bool sameRun(const RunRecord& a, const RunRecord& b)
{
    return a.id == b.id && a.status == b.status && a.notes == b.notes && a.tags == b.tags && a.hasTotals == b.hasTotals
        && a.finishedAtMs == b.finishedAtMs && a.targetName == b.targetName && a.totals.requests == b.totals.requests
        && a.error == b.error;
}

} // namespace wb::ui
