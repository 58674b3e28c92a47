#include "run/clocknote.h"

#include <fmt/format.h>
#include <sys/timex.h>

namespace wb {

std::string systemClockNote()
{
    timex tx {}; // modes 0: read only
    const int state = adjtimex(&tx);
    if (state < 0) return "unknown (adjtimex failed)";
    if (state == TIME_ERROR || (tx.status & STA_UNSYNC))
        return "not synchronized (no NTP discipline: starts may differ by the clocks' offset)";
    return fmt::format("synchronized (est. error {:.1f} ms, max {:.0f} ms)", static_cast<double>(tx.esterror) / 1000.0,
        static_cast<double>(tx.maxerror) / 1000.0);
}

} // namespace wb
