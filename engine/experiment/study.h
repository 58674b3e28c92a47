#pragma once
// A study: the results table of an experiment built from runs already stored (imported wrk logs, CLI runs), with
// nothing run (docs/EXPERIMENTS.md, "Studies"). Every run falls into one cell, group x level x variant (the variant is
// its target or a variant tag, the group a group tag, the level its connections, threads or rate), and a study is an
// ExperimentResults, so the statistics and every report are the experiment's own. Stored, it is an experiment of kind
// 'study' whose runs keep the group and variant they were given, so a later report shows the cells as they were made
// even when tags change.

#include "common/result.h"
#include "experiment/experimentresults.h"
#include "store/sessiontypes.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace wb {

class SessionStore;

/// The load axis that tells the levels of a study apart.
enum class StudyLevel { Connections, Threads, Rate, None };

struct StudySpec
{
    std::string name; ///< shown in lists and reports; "" = made from the variants
    std::string runs; ///< as given: "1-8,12"
    std::vector<int64_t> runIds; ///< parsed from runs, in the order given
    std::vector<std::string> variantTags; ///< empty: variants are targets
    std::vector<std::string> groupTags; ///< empty: one group
    StudyLevel level = StudyLevel::Connections;
    std::string baseline; ///< a variant (target name or variant tag); "" = the first variant
    RateMetric metric = RateMetric::Total;
    /// Run metrics compared beside req/s and latency (--metric backend-cv,front-door-share).
    std::vector<RunMetric> metrics;
};

const char* studyLevelName(StudyLevel level);
std::optional<StudyLevel> studyLevelFromName(const std::string& name);
const char* rateMetricName(RateMetric metric);
std::optional<RateMetric> rateMetricFromName(const std::string& name);
/// --metric: a comma list of at most one rate metric (total, per-thread) and any run metrics
/// (runmetric.h), into spec.metric and spec.metrics; the error names the option.
Status parseStudyMetrics(const std::string& text, StudySpec& spec);

/// The canonical JSON kept in the session ({"kind": "study", ...}), and back.
std::string studySpecToJson(const StudySpec& spec);
Result<StudySpec> studySpecFromJson(const std::string& json);

/// Splits "T1,T2" into tags; the error names the option: "--variant-by-tags: an empty tag".
Result<std::vector<std::string>> parseTagList(const std::string& text, const std::string& option);

/// The cells of the runs: each run's group and variant (StudyRunLink). The error
/// names the run and what is wrong with it: "run 7 carries none of the variant tags
/// native, docker", "run 7 carries two group tags, go-gin and actix: it would fall
/// into two cells", "tag 'k8s' is carried by none of the runs 1-8", "run 3 has no
/// per-thread Req/Sec statistics (--metric per-thread)", "mixed metrics: ...".
/// targetTags: the tags of each target, by target id.
Result<std::vector<StudyRunLink>> assignStudyCells(const StudySpec& spec, const std::vector<RunRecord>& runs,
    const std::map<int64_t, std::vector<std::string>>& targetTags);

/// The results of a study whose cells are known (links name each run's group and
/// variant). The error names a baseline absent from every group.
Result<ExperimentResults> computeStudyResults(const ExperimentRecord& record, const StudySpec& spec,
    const std::vector<RunRecord>& runs, const std::vector<StudyRunLink>& links);

/// Checks everything, then stores the study as an experiment of kind 'study'
/// linked to its runs, in one transaction; nothing is stored on an error.
/// Returns the experiment id.
Result<int64_t> createStudy(SessionStore& store, StudySpec spec);

/// A stored study's results (loadExperimentResults() dispatches here for kind 'study').
Result<ExperimentResults> loadStudyResults(SessionStore& store, const ExperimentRecord& record);

} // namespace wb
