#pragma once
// What every worker of a run reads and nobody writes once the run starts.

#include "net/address.h"
#include "net/tlscontext.h"
#include "run/mixpicker.h"
#include "run/rateschedule.h"
#include "run/runconfig.h"
#include "run/runhooks.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace wb {

class ProtocolDriver;

struct LoadPlan
{
    RunConfig config; ///< the request itself is serialised by each worker's sessions
    std::unique_ptr<RateSchedule> schedule; ///< open model; null for the closed loop
    std::unique_ptr<MixTable> mix; ///< a request mix: its order (and weights); null without one
    SocketAddress address; ///< the address that answered the pre-run check
    /// --source: the local addresses connections bind to in turn (port 0); empty: the kernel's choice.
    std::vector<SocketAddress> sources;
    std::shared_ptr<TlsContext> tls; ///< null for plain http
    std::string serverName; ///< SNI and certificate name
    RunHooks hooks; ///< the caller's request source and response observer, if any
    const ProtocolDriver* driver = nullptr; ///< the run's protocol (set by RunController::prepare)

    // Phases on the monotonic clock (h2load's warm-up / main duration split):
    // [startUs, measureStartUs) warm-up, only counted (warmupRequests); [measureStartUs, endUs)
    // measured. Before startUs (a common start's lead) connections may open but send nothing.
    uint64_t startUs = 0;
    uint64_t measureStartUs = 0;
    uint64_t endUs = 0;

    std::atomic<bool> stopRequested { false }; ///< set by RunController::stop(); workers exit promptly
    std::atomic<uint64_t> stopAtUs { UINT64_MAX }; ///< when stop() was called
    /// -n: the workers that counted their share of the responses, the latest of them to do it,
    /// and, once all have, when the run ended (the measured time ends there, not at endUs).
    /// Written by the workers, which see the plan as const.
    mutable std::atomic<unsigned> sharesCounted { 0 };
    mutable std::atomic<uint64_t> lastShareUs { 0 };
    mutable std::atomic<uint64_t> countedAtUs { UINT64_MAX };
};

} // namespace wb
