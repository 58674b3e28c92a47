#include "capacity/capacityjson.h"

#include "wire/configcodec.h"

#include <cmath>

namespace wb {
namespace {

using Json = nlohmann::ordered_json;

Json rateOrNull(double perS)
{
    return perS > 0 ? Json(perS) : Json();
}

Json ratioValue(const std::optional<CapacityRatio>& r, int which)
{
    if (!r) return Json();
    if (which == 0) return r->ratio;
    if (which == 1) return r->low > 0 ? Json(r->low) : Json();
    return r->high ? Json(*r->high) : Json();
}

} // namespace

Json capacityToJson(const CapacityResult& r)
{
    // A capacity is claimed only where the target's SLOs decided it: not when the loader stopped
    // the search (the target carried at least lower_rps) nor when nothing passed.
    const bool claimed = r.limitedBy != CapacityLimit::Loader && r.ratePerS > 0;
    Json trials = Json::array();
    for (const CapacityTrialRecord& t : r.trials) {
        trials.push_back(
            Json { { "rate", t.trial.ratePerS }, { "duration_s", static_cast<double>(t.trial.durationUs) / 1e6 },
                { "passed", t.outcome.passed }, { "run_id", t.outcome.runId > 0 ? Json(t.outcome.runId) : Json() },
                { "slo", sloVerdictsJson(t.outcome.slo) }, { "loader_limited", t.outcome.loaderLimited },
                { "loader_reason", t.outcome.loaderLimited ? Json(t.outcome.loaderReason) : Json() } });
    }
    return Json { { "rate_per_s", claimed ? Json(r.ratePerS) : Json() }, { "lower_rps", rateOrNull(r.lowerPerS) },
        { "upper_rps", r.limitedBy == CapacityLimit::Loader ? Json() : rateOrNull(r.upperPerS) },
        { "limited_by", capacityLimitName(r.limitedBy) },
        { "first_failed_slo", r.firstFailedSlo.empty() ? Json() : Json(r.firstFailedSlo) },
        { "loader_limit_rps", rateOrNull(r.loaderLimitPerS) },
        { "loader_reason", r.loaderLimitPerS > 0 ? Json(r.loaderReason) : Json() }, { "trials", std::move(trials) } };
}

Json capacityDocument(const std::vector<CapacityTarget>& targets)
{
    if (targets.size() == 1) return Json { { "capacity", capacityToJson(targets[0].result) } };
    Json list = Json::array();
    for (const CapacityTarget& t : targets)
        list.push_back(Json { { "url", t.url }, { "capacity", capacityToJson(t.result) } });
    Json doc { { "targets", std::move(list) } };
    if (targets.size() == 2) {
        const auto r = capacityRatio(targets[0].result, targets[1].result);
        doc["ratio"] = ratioValue(r, 0);
        doc["ratio_low"] = ratioValue(r, 1);
        doc["ratio_high"] = ratioValue(r, 2);
        return doc;
    }
    for (const char* key : { "ratio", "ratio_low", "ratio_high" })
        doc[key] = Json::array();
    for (size_t i = 1; i < targets.size(); ++i) {
        const auto r = capacityRatio(targets[0].result, targets[i].result);
        doc["ratio"].push_back(ratioValue(r, 0));
        doc["ratio_low"].push_back(ratioValue(r, 1));
        doc["ratio_high"].push_back(ratioValue(r, 2));
    }
    return doc;
}

} // namespace wb
