#include "run/filelimit.h"

#include <string>
#include <sys/resource.h>

namespace wb {

Status ensureFileDescriptors(uint64_t connections, unsigned threads)
{
    rlimit limit {};
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return {};
    if (limit.rlim_cur < limit.rlim_max) {
        rlimit raised = limit;
        raised.rlim_cur = limit.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &raised) == 0) limit = raised;
    }
    // Per thread an epoll and an eventfd; plus stdio, the session file, logs.
    const uint64_t needed = connections + 2ull * threads + 64;
    if (limit.rlim_cur != RLIM_INFINITY && needed > limit.rlim_cur)
        return Error { std::to_string(connections) + " connections need about " + std::to_string(needed)
            + " file descriptors, but the limit is " + std::to_string(limit.rlim_cur) + " (hard limit "
            + std::to_string(limit.rlim_max)
            + "); raise it with 'ulimit -n' or in /etc/security/limits.conf, or use fewer connections" };
    return {};
}

} // namespace wb
