#pragma once
// The options of a capacity search (not run settings: they say which runs to make, not how one
// run loads), defined once: flag, key, help, default, reader and text. The CLI walks this table,
// and so can a plan's "search" or the window.

#include "common/result.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace wb {

struct CapacityOptions
{
    double fromPerS = 0; ///< the first trial's rate; 0: derived from a probe of the target (suggestedFromPerS)
    double toPerS = 1'000'000; ///< the highest rate tried: passing there says "at least" this
    double minPerS = 1; ///< the lowest rate tried: failing there says the target fails even there
    uint64_t trialUs = 5'000'000; ///< a trial while the bracket is wide
    uint64_t finalUs = 30'000'000; ///< a trial once the bracket is within finalWithin()
    unsigned repeat = 3; ///< final trials of one rate
    unsigned mayFail = 0; ///< of which this many may fail and the rate still passes
    double precision = 0.02; ///< stop when upper / lower - 1 is within this
    uint64_t budgetUs = 15ull * 60 * 1'000'000; ///< stop when the next trial would go past this

    /// Trials are final-length once upper / lower - 1 is within this: a few times the precision, at
    /// least 5%, so the long trials go where they decide the answer.
    double finalWithin() const { return precision * 2 > 0.05 ? precision * 2 : 0.05; }
    /// Options that do not fit together; the error names the flags.
    Status validate() const;
};

struct CapacityOption
{
    std::string_view key; ///< "from", "may_fail": a plan's key
    std::string_view flag; ///< "--from", "--may-fail"
    std::string_view help;
    Status (*read)(CapacityOptions& options, const std::string& text) = nullptr;
    std::string (*text)(const CapacityOptions& options) = nullptr;
    std::string defaultText() const { return text(CapacityOptions {}); }
};

std::span<const CapacityOption> capacityOptions();

/// A first rate from what one connection's probe took: an eighth of what `connections` connections
/// would carry at that latency, within [min, to], two significant digits ("derived from a probe").
double suggestedFromPerS(unsigned connections, double probeLatencyUs, const CapacityOptions& options);

/// "1200", "1.25k", "0.5" as a rate's text (requests per second, %g-like, no exponent).
std::string rateText(double perS);

} // namespace wb
