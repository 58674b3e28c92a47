#pragma once
// The capacity search as a state machine with no clock, no network and no CLI: it is told each trial's verdict and
// says which trial comes next (record() what next() asked for, until next() says nothing). So the CLI, a plan and the
// window drive one search, tests drive it with simulated targets, and stored trials replayed into a fresh one resume
// it (capacityrecord.h). The method (range finding, bisection, repeats at final length, the look-ahead, non-monotone
// targets, the loader's ceiling) is docs/CAPACITY.md, "The method, step by step".

#include "capacity/capacityoptions.h"
#include "run/slo.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace wb {

/// The next trial to make.
struct CapacityTrial
{
    double ratePerS = 0;
    uint64_t durationUs = 0;
    bool final = false; ///< a final-length trial (one of a rate's repeats)
};

/// What a trial showed.
struct TrialOutcome
{
    bool passed = false; ///< every SLO held
    /// The loader could not make the load asked (saturated, requests sent late or not at all): the
    /// trial says nothing about the target. It is made again twice; the third time its rate is the
    /// loader's ceiling (the search goes on only if the target failed below it).
    bool loaderLimited = false;
    std::string loaderReason; ///< why, one phrase ("its workers were busy 97% of the time")
    std::string failedSlo; ///< the first SLO that failed ("p99<50ms"), when !passed
    std::vector<SloVerdict> slo; ///< every verdict, for the report
    int64_t runId = 0; ///< the stored run, 0 when not stored
    double elapsedS = 0; ///< wall time the trial took with its warm-up and the settling after it
};

/// One trial made, as the result lists it.
struct CapacityTrialRecord
{
    CapacityTrial trial;
    TrialOutcome outcome;
};

enum class CapacityLimit : uint8_t {
    Target, ///< the target's SLOs broke between lower and upper
    Loader, ///< the loader could not make a rate below any failure of the target: no capacity is claimed
    Range, ///< passed at --to ("at least"), or failed at --min
};
const char* capacityLimitName(CapacityLimit limit); ///< "target", "loader", "range"

enum class CapacityStop : uint8_t {
    Precision, ///< the bracket is within --precision
    Resolution, ///< the bracket cannot be split further (rates closer than the rounding)
    Budget, ///< the next trial would have gone past --budget
    Loader, ///< the loader could not make a rate, and the target failed nothing below it
    AtMost, ///< passed at --to
    FailsAtMin, ///< failed at --min
    Stopped, ///< stopped from outside (Ctrl-C)
};

struct CapacityResult
{
    /// The capacity: the highest rate that passed (at final length when the search got there);
    /// 0 when no rate passed.
    double ratePerS = 0;
    double lowerPerS = 0; ///< the highest rate that passed below upperPerS (0: none)
    double upperPerS = 0; ///< the lowest rate that failed (0: none failed: unbounded)
    CapacityLimit limitedBy = CapacityLimit::Target;
    CapacityStop stop = CapacityStop::Precision;
    /// The lowest rate the loader could not make (0: none). Beside a target's capacity, it says a
    /// trial above the capacity was out of the loader's reach and did not count.
    double loaderLimitPerS = 0;
    std::string loaderReason;
    std::string firstFailedSlo; ///< the SLO that failed at upperPerS
    bool lowerFinal = false; ///< lowerPerS passed its final-length repeats (not only a short trial)
    bool upperFinal = false; ///< upperPerS failed its final-length repeats
    /// Short trials passed a rate that failed at final length: the target degrades over a trial,
    /// and the search went on with final-length trials only.
    bool shortTrialsMisled = false;
    /// A rate passed above one that failed, at final length, and still did when both were tried
    /// again: pass/fail is not monotone in the rate. The bracket is then the one below the failing
    /// rate (the conservative answer), and these name the pair.
    bool nonMonotone = false;
    double nonMonotoneFailPerS = 0;
    double nonMonotonePassPerS = 0;
    double elapsedS = 0; ///< the trials' time, as reported to record()
    std::vector<CapacityTrialRecord> trials;
};

class CapacitySearch
{
public:
    /// options are validated by the caller (CapacityOptions::validate); fromPerS must be set.
    explicit CapacitySearch(CapacityOptions options);

    /// The next trial, or nothing when the search is over (then result() is final).
    std::optional<CapacityTrial> next();
    /// The outcome of the trial next() returned last.
    void record(const TrialOutcome& outcome);
    /// Ends the search from outside (Ctrl-C): result() says the bracket measured so far.
    void stop();
    bool done() const { return m_done; }
    /// The result so far (a search not done yet: its current bracket).
    CapacityResult result() const;
    const CapacityOptions& options() const { return m_options; }
    /// Time left in the budget, in seconds.
    double budgetLeftS() const;

private:
    enum class Verdict : uint8_t { None, Pass, Fail };
    struct Evidence
    {
        Verdict shortVerdict = Verdict::None; ///< the latest short trial
        Verdict finalVerdict = Verdict::None; ///< the latest completed set of final trials
        unsigned setPasses = 0; ///< of the set in progress
        unsigned setFails = 0;
        unsigned finalSets = 0; ///< completed sets of final trials
        std::string failedSlo; ///< of its latest failing trial
    };

    Verdict verdictOf(const Evidence& e) const;
    /// The lowest rate whose verdict is Fail (0: none), and the highest passing below it (0: none).
    double lowestFail() const;
    double highestPassBelow(double rate) const;
    double highestPass() const;
    /// lowestFail() below the loader's ceiling: a failure the target's SLOs decided (0: none).
    double targetFail() const;
    CapacityLimit limitSoFar() const;
    CapacityTrial shortTrial(double rate) const;
    CapacityTrial finalTrial(double rate) const { return { rate, m_options.finalUs, true }; }
    std::optional<CapacityTrial> decide();
    std::optional<CapacityTrial> finish(CapacityStop stop, CapacityLimit limit);
    /// A contradiction at final length (a pass above a fail): retries, or accepts and reports it.
    std::optional<CapacityTrial> resolveContradiction(double failRate, double passRate);
    static double rounded(double rate);

    CapacityOptions m_options;
    std::map<double, Evidence> m_evidence;
    std::map<double, unsigned> m_retries; ///< extra final sets asked for because of a contradiction
    std::optional<CapacityTrial> m_current; ///< handed out by next(), not yet recorded
    std::optional<CapacityTrial> m_retry; ///< a trial the loader limited, to be made again
    std::map<double, unsigned> m_loaderRetries; ///< by rate
    std::optional<double> m_setRate; ///< a final set in progress
    std::vector<CapacityTrialRecord> m_trials;
    bool m_done = false;
    CapacityStop m_stop = CapacityStop::Precision;
    CapacityLimit m_limit = CapacityLimit::Target;
    double m_loaderCeiling = 0; ///< the lowest rate the loader failed every time (0: none)
    std::string m_loaderReason;
    bool m_shortMisled = false;
    bool m_climbed = false; ///< the first trial passed: the range was found going up
    bool m_lookedAhead = false; ///< the one trial above the climb's first failure was made
    bool m_nonMonotone = false;
    double m_nonMonotoneFail = 0;
    double m_nonMonotonePass = 0;
    double m_elapsedS = 0;
};

} // namespace wb
