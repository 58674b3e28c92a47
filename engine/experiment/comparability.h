#pragma once
// Are these runs comparable? Runs set side by side (Compare, a cell of a study or an experiment) should differ in the
// variant only (the target, or the tag that names it); any other field that differs is named, so a table never hides
// it (docs/EXPERIMENTS.md, "Comparability warnings"). Only what the store keeps per run (RunRecord) is read, and a
// field nobody knows for a run (an imported run's loader host or TLS verification) is left out for that run rather
// than counted as a difference. A saturated loader is named even when every run had one: such a run measured its
// loader as much as its target.

#include "store/sessiontypes.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace wb {

struct ExperimentResults;

/// One field in which the runs differ, and each value with the runs that have it.
struct FieldDifference
{
    std::string field; ///< "threads", "connections", "duration", "rate", "protocol", "TLS verification",
                       ///< "engine version", "loader host", "source" (imported vs measured),
                       ///< "loader saturated", "script"
    struct Value
    {
        std::string text; ///< "2", "30s", "h2", "imported", "0.1.0"
        std::vector<int64_t> runIds;
    };
    std::vector<Value> values; ///< two or more, in the order first seen ("loader saturated": one or more)
};

/// The field that names runs whose loader was saturated ("yes, workers 97% busy ...: run 3; no:
/// runs 1, 2"); present whenever one was, even if all were.
inline constexpr const char* LOADER_SATURATED_FIELD = "loader saturated";

/// The fields compared, in this order (the names FieldDifference::field takes).
const std::vector<std::string>& comparabilityFields();

/// The fields in which the runs differ (none: they are comparable). Runs are taken in order.
std::vector<FieldDifference> compareRuns(const std::vector<const RunRecord*>& runs);

/// "threads (2: runs 1, 3; 4: run 2); imported vs measured (imported: run 3; measured: runs 1, 2)".
std::string describeDifferences(const std::vector<FieldDifference>& differences);

/// The warning's sentence: "the runs differ in more than the <compared>: threads (...)", or, when the
/// loader's saturation is the only difference, "the figures may measure the loader rather than the
/// target: loader saturated (...)" (runs alike in all else, one of them measured on a busy loader).
/// Empty when there are no differences.
std::string differencesSentence(const std::vector<FieldDifference>& differences, std::string_view compared);

/// Runs that are set side by side and differ in more than the variant.
struct ComparabilityWarning
{
    std::string scope; ///< where: "c50", "go-gin, c50" (a group and a level), "" for the runs as a whole
    std::vector<int64_t> runIds; ///< the runs compared there
    std::vector<FieldDifference> differences;

    /// "c50: the runs differ in more than the variant: threads (...); ..." (one line).
    std::string text() const;
    /// "threads, duration": the field names alone.
    std::string fieldList() const;
};

/// The warnings of an experiment or a study: within each group and level (the runs its
/// table compares), the runs used that differ in more than the variant. The level's own
/// axis never differs inside a level, so a sweep is not flagged for sweeping.
std::vector<ComparabilityWarning> experimentComparability(const ExperimentResults& results);

} // namespace wb
