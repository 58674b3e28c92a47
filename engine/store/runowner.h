#pragma once
// Who is writing a run: enough to tell, when a session is opened, whether the
// process that left a run 'running' still exists. A pid alone is not enough
// (pids are reused, containers have their own); the token adds the boot id, the
// pid namespace and the process start time.

#include <string>
#include <sys/types.h>

namespace wb {

struct RunOwner
{
    std::string hostName;
    pid_t pid = 0;
    std::string token; ///< "boot id/pid namespace/start time in clock ticks"

    /// This process.
    static RunOwner current();
};

enum class OwnerState {
    Alive, ///< the owner still runs (or we cannot tell: another host)
    Dead, ///< same host, and the process is gone (or the host rebooted since)
};

/// Judges owner from this host's point of view. Runs of other hosts are
/// always Alive: we cannot see their processes.
OwnerState ownerState(const RunOwner& owner);

/// The host name (gethostname), "" when unknown.
std::string localHostName();
/// Online CPUs.
unsigned localCpuCount();

} // namespace wb
