// libFuzzer target for SLO expressions (--slo EXPR). Checked:
//   - an error is one line that starts with "SLO '" or says the SLO is empty;
//   - a parsed SLO has a finite, non-negative threshold, a percentile in (0, 100],
//     its expression without spaces, and parses again to the same SLO;
//   - evaluating it on nothing measured never says "ok" for a time, a share or a rate.
// A violation traps.

#include "run/slo.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

namespace {

void check(bool ok)
{
    if (!ok) __builtin_trap();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    auto slo = wb::parseSlo(text);
    if (!slo) {
        const std::string& e = slo.error();
        check(e.rfind("SLO '", 0) == 0 || e.rfind("empty SLO", 0) == 0);
        check(e.find('\n') == std::string::npos || text.find('\n') != std::string::npos);
        return 0;
    }
    check(std::isfinite(slo->threshold) && slo->threshold >= 0);
    check(slo->percentile > 0 && slo->percentile <= 100);
    check(slo->expr.find(' ') == std::string::npos);
    auto again = wb::parseSlo(slo->expr);
    check(again.ok() && again->metric == slo->metric && again->threshold == slo->threshold && again->op == slo->op
        && again->share == slo->share);
    const wb::SloVerdict v = wb::evaluateSlo(*slo, wb::SloInputs {});
    if (slo->isTime() || slo->share || slo->metric == wb::Slo::Metric::Rps) check(!v.ok);
    return 0;
}
