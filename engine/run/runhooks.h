#pragma once
// What a caller of RunController may put in front of and behind the sessions:
// a request source of its own (wrk's Lua request()) and a response observer
// (wrk's Lua response(), "which backend answered"). Both are per worker, called
// on that worker's thread only. Unset, the run sends the configured request or
// mix and observes nothing.

#include "net/address.h"

#include <functional>
#include <memory>
#include <vector>

namespace wb {

class RequestSource;
class ResponseObserver;

struct RunHooks
{
    /// Where worker `workerIndex` connects (wrk's thread.addr, which setup() may set), given the
    /// address that answered the pre-run check. Asked first, before requestSource. Null: that address.
    std::function<SocketAddress(unsigned workerIndex, const SocketAddress& checked)> connectAddress;
    /// Makes worker `workerIndex`'s source; globalSlots[i] is its connection i's slot
    /// among all connections. Null: the configured request or mix.
    std::function<std::unique_ptr<RequestSource>(unsigned workerIndex, const std::vector<uint32_t>& globalSlots)>
        requestSource;
    /// Worker `workerIndex`'s observer (owned by the caller, alive until run() returns), or
    /// null for none. Null function: no observer.
    std::function<ResponseObserver*(unsigned workerIndex)> responseObserver;
    /// Why the run failed while it ran (a script's Lua error), asked once the workers have
    /// stopped, before the observers see the result (so the store keeps it as 'failed'). "": it did not.
    std::function<std::string()> failure;
};

} // namespace wb
