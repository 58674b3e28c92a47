#pragma once
// A capacity search as a session keeps it: an experiment of kind 'capacity' whose plan is the search's definition
// (its options; each target's configuration, rest latency and first rate) and whose trials are stored in the order
// made, with the verdict the search was told. The search is a state machine fed verdicts, so the trials replayed into
// fresh searches give them back where they stopped: that is how `capacity --resume` goes on (docs/CAPACITY.md, "Stored
// and resumed").

#include "capacity/capacityoptions.h"
#include "capacity/capacitysearch.h"
#include "common/result.h"
#include "prometheus/exposition/scraperecord.h"
#include "run/runconfig.h"
#include "store/sessiontypes.h"

#include <string>
#include <vector>

namespace wb {

struct CapacityTargetDefinition
{
    std::string label; ///< "A", "B"... as the text names it
    std::string url; ///< as typed
    RunConfig config; ///< every trial's settings but the rate and the length
    double restLatencyUs = 0; ///< one request at rest, what each trial settles back to
    double fromPerS = 0; ///< the first rate (given or derived from the rest latency)
    /// The session target whose runs the trials are (a search started in the window); 0: found or
    /// created by the URL, as a CLI run's.
    int64_t sessionTargetId = 0;
};

struct CapacityDefinition
{
    CapacityOptions options;
    std::vector<CapacityTargetDefinition> targets;
    ScrapeSpec scrape; ///< the target metrics every trial reads (--scrape), none when empty
    /// Each target's search, at its start.
    std::vector<CapacitySearch> searches() const;
};

std::string capacityDefinitionToJson(const CapacityDefinition& definition);
/// The inverse; the error names what is wrong ("the search's option 'repeat': ...").
Result<CapacityDefinition> capacityDefinitionFromJson(const std::string& json);

CapacityTrialRow capacityTrialRow(int target, const CapacityTrial& trial, const TrialOutcome& outcome);

/// Feeds the stored trials to the searches (one per target, as searches() made them), each of
/// which must be the trial its search asks for next: a file whose trials do not follow from its
/// definition is refused, naming the first that does not.
Status replayCapacityTrials(std::vector<CapacitySearch>& searches, const std::vector<CapacityTrialRow>& trials);

} // namespace wb
