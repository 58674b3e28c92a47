#include "capacity/capacitysearch.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace wb {
namespace {

/// However the budget is set, a search never makes more trials than this (a bound, not a goal).
constexpr size_t MAX_TRIALS = 1000;
/// Range finding's step: Nighthawk's and RFC 2544's, a bracket in one trial per octave.
constexpr double RANGE_FACTOR = 2;
/// How many times a trial the loader limited is made again before its rate is out of reach.
constexpr unsigned LOADER_RETRIES = 2;

} // namespace

const char* capacityLimitName(CapacityLimit limit)
{
    switch (limit) {
    case CapacityLimit::Target:
        return "target";
    case CapacityLimit::Loader:
        return "loader";
    case CapacityLimit::Range:
        return "range";
    }
    return "target";
}

CapacitySearch::CapacitySearch(CapacityOptions options)
    : m_options(options)
{
    if (m_options.fromPerS <= 0) m_options.fromPerS = m_options.minPerS;
}

double CapacitySearch::rounded(double rate)
{
    // Whole requests per second from 100 up (a 1% step there), hundredths below: the rates
    // the runs are given and the reports show are the rates the search reasons about.
    return rate >= 100 ? std::round(rate) : std::round(rate * 100) / 100;
}

CapacitySearch::Verdict CapacitySearch::verdictOf(const Evidence& e) const
{
    // A final set outweighs a short trial at the same rate, whichever came last.
    return e.finalVerdict != Verdict::None ? e.finalVerdict : e.shortVerdict;
}

double CapacitySearch::lowestFail() const
{
    for (const auto& [rate, e] : m_evidence)
        if (verdictOf(e) == Verdict::Fail) return rate;
    return 0;
}

double CapacitySearch::highestPassBelow(double limit) const
{
    double best = 0;
    for (const auto& [rate, e] : m_evidence)
        if (rate < limit && verdictOf(e) == Verdict::Pass) best = rate;
    return best;
}

double CapacitySearch::highestPass() const
{
    return highestPassBelow(INFINITY);
}

double CapacitySearch::targetFail() const
{
    const double fail = lowestFail();
    return fail > 0 && (m_loaderCeiling == 0 || fail < m_loaderCeiling) ? fail : 0;
}

CapacityLimit CapacitySearch::limitSoFar() const
{
    if (targetFail() > 0) return CapacityLimit::Target;
    return m_loaderCeiling > 0 ? CapacityLimit::Loader : CapacityLimit::Range;
}

CapacityTrial CapacitySearch::shortTrial(double rate) const
{
    // Once short trials passed a rate that failed at final length, they are not trusted to steer.
    if (m_shortMisled) return finalTrial(rate);
    return { rate, m_options.trialUs, false };
}

std::optional<CapacityTrial> CapacitySearch::next()
{
    if (m_done) return std::nullopt;
    if (m_current) return m_current; // asked again before record(): the same trial
    std::optional<CapacityTrial> trial = m_retry ? std::exchange(m_retry, std::nullopt) : decide();
    if (!trial) return std::nullopt;
    if (m_trials.size() >= MAX_TRIALS
        || m_elapsedS + static_cast<double>(trial->durationUs) / 1e6 > static_cast<double>(m_options.budgetUs) / 1e6)
        return finish(CapacityStop::Budget, limitSoFar());
    m_current = trial;
    return trial;
}

std::optional<CapacityTrial> CapacitySearch::finish(CapacityStop stop, CapacityLimit limit)
{
    m_done = true;
    m_stop = stop;
    m_limit = limit;
    m_setRate.reset();
    return std::nullopt;
}

std::optional<CapacityTrial> CapacitySearch::resolveContradiction(double failRate, double passRate)
{
    const Evidence& f = m_evidence[failRate];
    const Evidence& p = m_evidence[passRate];
    // A short trial's word against another's: measure it at final length first.
    if (f.finalVerdict == Verdict::None) return finalTrial(failRate);
    if (p.finalVerdict == Verdict::None) return finalTrial(passRate);
    // Both at final length: try each once more (noise or drift resolves; a real dip stays).
    if (m_retries[failRate] == 0) {
        ++m_retries[failRate];
        return finalTrial(failRate);
    }
    if (m_retries[passRate] == 0) {
        ++m_retries[passRate];
        return finalTrial(passRate);
    }
    // It persists: say so, and answer below the failing rate.
    if (!m_nonMonotone) {
        m_nonMonotone = true;
        m_nonMonotoneFail = failRate;
        m_nonMonotonePass = passRate;
    }
    return std::nullopt;
}

std::optional<CapacityTrial> CapacitySearch::decide()
{
    const CapacityOptions& o = m_options;
    if (m_setRate) return finalTrial(*m_setRate); // the repeats of a rate go on until it is decided

    // A rate the loader cannot make ends the search unless the target failed below it: then the
    // bracket there is the target's, and the trials at the ceiling (a look-ahead) cost nothing else.
    // Closing in on the ceiling would measure the loader, whose limit is ragged (a trial passes
    // at one rate and lags at a lower one), not the target.
    const double upper = targetFail();
    if (m_loaderCeiling > 0 && upper == 0) return finish(CapacityStop::Loader, CapacityLimit::Loader);
    // A pass above a fail contradicts the method's assumption: retried, and if it persists,
    // reported once, and then only the passes below that failing rate count.
    const double reach = m_loaderCeiling > 0 ? m_loaderCeiling : INFINITY;
    const double highest = highestPassBelow(m_nonMonotone ? std::min(m_nonMonotoneFail, reach) : reach);
    if (upper > 0 && highest > upper)
        if (auto trial = resolveContradiction(upper, highest)) return trial;
    const double lower = upper > 0 ? highestPassBelow(upper) : highestPass();
    const auto isFinal = [this](double rate, Verdict v) { return m_evidence[rate].finalVerdict == v; };

    if (upper == 0 && lower == 0) return shortTrial(rounded(std::clamp(o.fromPerS, o.minPerS, o.toPerS)));
    if (upper == 0) { // only passes: up, until a fail or --to
        const double next = rounded(std::min(lower * RANGE_FACTOR, o.toPerS));
        if (next <= lower) {
            if (!isFinal(lower, Verdict::Pass)) return finalTrial(lower);
            return finish(CapacityStop::AtMost, CapacityLimit::Range);
        }
        return shortTrial(next);
    }
    if (lower == 0) { // only fails: down, until a pass or --min
        if (upper <= o.minPerS) {
            if (!isFinal(upper, Verdict::Fail)) return finalTrial(upper);
            return finish(CapacityStop::FailsAtMin, CapacityLimit::Range);
        }
        return shortTrial(rounded(std::max(upper / RANGE_FACTOR, o.minPerS)));
    }
    // The first failure of the climb is checked once against the next step up: a target whose
    // pass/fail is not monotone (an autoscaler that adds capacity under load, a cache that warms)
    // would pass there, and bisecting below the failure would hide it.
    if (!m_lookedAhead && m_climbed && upper < o.toPerS && m_evidence.rbegin()->first == upper) {
        m_lookedAhead = true;
        const double ahead = rounded(std::min(upper * RANGE_FACTOR, o.toPerS));
        if (m_loaderCeiling == 0 || ahead < m_loaderCeiling) return shortTrial(ahead);
    }
    // A bracket: its ends are measured at final length before it is the answer.
    const double width = upper / lower - 1;
    const double mid = rounded((lower + upper) / 2);
    const bool splittable = mid > lower && mid < upper;
    if (width <= o.precision || !splittable) {
        if (!isFinal(lower, Verdict::Pass)) return finalTrial(lower);
        if (!isFinal(upper, Verdict::Fail)) return finalTrial(upper);
        // The upper end is what the answer rests on: one unlucky set of repeats there would hold the
        // search below the capacity for good, so it is tried once more (a threshold fails it at once).
        if (m_evidence[upper].finalSets < 2) return finalTrial(upper);
        return finish(width <= o.precision ? CapacityStop::Precision : CapacityStop::Resolution, CapacityLimit::Target);
    }
    if (width <= o.finalWithin() || m_shortMisled) {
        if (!isFinal(lower, Verdict::Pass)) return finalTrial(lower);
        return finalTrial(mid);
    }
    return shortTrial(mid);
}

void CapacitySearch::record(const TrialOutcome& outcome)
{
    if (!m_current || m_done) return;
    const CapacityTrial trial = *m_current;
    m_current.reset();
    m_trials.push_back({ trial, outcome });
    m_elapsedS += outcome.elapsedS;
    if (outcome.loaderLimited) {
        // A loader that lagged for a moment (another process took its CPU) is not one that cannot
        // make the rate: the trial is made again. A rate the loader fails every time is its
        // ceiling: nothing from there up counts (decide() says whether the search goes on).
        if (++m_loaderRetries[trial.ratePerS] <= LOADER_RETRIES) {
            m_retry = trial;
            return;
        }
        if (m_loaderCeiling == 0 || trial.ratePerS < m_loaderCeiling) {
            m_loaderCeiling = trial.ratePerS;
            m_loaderReason = outcome.loaderReason;
        }
        m_setRate.reset();
        return;
    }
    if (m_trials.size() == 1) m_climbed = outcome.passed; // the search climbs from a first pass
    Evidence& e = m_evidence[trial.ratePerS];
    if (!outcome.passed) e.failedSlo = outcome.failedSlo;
    if (!trial.final) {
        e.shortVerdict = outcome.passed ? Verdict::Pass : Verdict::Fail;
        return;
    }
    (outcome.passed ? e.setPasses : e.setFails) += 1;
    // A set ends as soon as it is decided: one failure too many, or enough passes.
    const bool failed = e.setFails > m_options.mayFail;
    const bool passed = e.setPasses >= m_options.repeat - m_options.mayFail;
    if (!failed && !passed) {
        m_setRate = trial.ratePerS;
        return;
    }
    m_setRate.reset();
    e.finalVerdict = failed ? Verdict::Fail : Verdict::Pass;
    e.setPasses = e.setFails = 0;
    ++e.finalSets;
    if (failed && e.shortVerdict == Verdict::Pass) m_shortMisled = true;
}

void CapacitySearch::stop()
{
    if (m_done) return;
    m_current.reset();
    finish(CapacityStop::Stopped, limitSoFar());
}

double CapacitySearch::budgetLeftS() const
{
    return std::max(0.0, static_cast<double>(m_options.budgetUs) / 1e6 - m_elapsedS);
}

CapacityResult CapacitySearch::result() const
{
    CapacityResult r;
    r.upperPerS = targetFail();
    r.lowerPerS = highestPassBelow(r.upperPerS > 0 ? r.upperPerS : m_loaderCeiling > 0 ? m_loaderCeiling : INFINITY);
    r.ratePerS = r.lowerPerS;
    r.limitedBy = m_done ? m_limit : limitSoFar();
    r.stop = m_done ? m_stop : CapacityStop::Stopped;
    r.loaderLimitPerS = m_loaderCeiling;
    r.loaderReason = m_loaderReason;
    if (auto it = m_evidence.find(r.upperPerS); it != m_evidence.end()) {
        r.firstFailedSlo = it->second.failedSlo;
        r.upperFinal = it->second.finalVerdict == Verdict::Fail;
    }
    if (auto it = m_evidence.find(r.lowerPerS); it != m_evidence.end())
        r.lowerFinal = it->second.finalVerdict == Verdict::Pass;
    r.shortTrialsMisled = m_shortMisled;
    r.nonMonotone = m_nonMonotone;
    r.nonMonotoneFailPerS = m_nonMonotoneFail;
    r.nonMonotonePassPerS = m_nonMonotonePass;
    r.elapsedS = m_elapsedS;
    r.trials = m_trials;
    return r;
}

} // namespace wb
