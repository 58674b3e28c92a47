#include "capacity/capacitycompare.h"

#include <fmt/format.h>

namespace wb {
namespace {

/// The upper end as far as it is known: a loader-limited search knows only that the target
/// carried its lower end, so its upper end is open whatever the last failing rate was.
double knownUpper(const CapacityResult& r)
{
    return r.limitedBy == CapacityLimit::Loader ? 0 : r.upperPerS;
}

} // namespace

std::optional<CapacityRatio> capacityRatio(const CapacityResult& base, const CapacityResult& other)
{
    if (base.lowerPerS <= 0 || other.lowerPerS <= 0) return std::nullopt;
    CapacityRatio r;
    r.ratio = other.lowerPerS / base.lowerPerS;
    const double baseUpper = knownUpper(base);
    const double otherUpper = knownUpper(other);
    r.low = baseUpper > 0 ? other.lowerPerS / baseUpper : 0;
    if (otherUpper > 0) r.high = otherUpper / base.lowerPerS;
    return r;
}

std::string describeRatio(const CapacityRatio& r, const std::string& nameA, const std::string& nameB)
{
    if (r.high && r.low > 0)
        return fmt::format("{} carries {:.2f}× {} ({:.2f}–{:.2f})", nameB, r.ratio, nameA, r.low, *r.high);
    if (r.low > 0) return fmt::format("{} carries at least {:.2f}× {}", nameB, r.low, nameA);
    if (r.high) return fmt::format("{} carries at most {:.2f}× {}", nameB, *r.high, nameA);
    return fmt::format("{} and {} cannot be compared: neither bracket is closed", nameB, nameA);
}

} // namespace wb
