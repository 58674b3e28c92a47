#pragma once
// Where the loaders of a distributed run live: child processes of this one
// (localexecutor.h), pods of a Kubernetes Indexed Job (kubeexecutor.h). An
// executor starts them paused, gives the coordinator one stream of lines per
// loader (loaderstream.h), tells them things through control files, and cleans
// up after them.

#include "common/result.h"

#include <atomic>
#include <string>

namespace wb {

class LoaderExecutor
{
public:
    virtual ~LoaderExecutor() = default;
    /// "local", "kubernetes": for messages.
    virtual std::string kind() const = 0;
    /// Starts `count` loaders of the run whose whole configuration is configJson
    /// (runConfigToJson), each paused after its preparation. Returns once every loader has
    /// a stream to read (it may still fail on it). stop: a pull gives up early.
    virtual Status launch(const std::string& configJson, unsigned count, const std::atomic<bool>& stop) = 0;
    /// Loader i's stream (non-blocking, read until end of file); -1 when it has none.
    virtual int streamFd(unsigned loader) const = 0;
    /// Writes control file `name` with `content` in every loader (fleet/controlfiles.h).
    virtual Status tellAll(const std::string& name, const std::string& content) = 0;
    /// How long tellAll() may take for this many loaders: the common start leaves that much.
    virtual uint64_t tellAllowanceUs(unsigned count) const = 0;
    /// Why loader i's stream ended without a result (an exit status, a pod's state).
    virtual std::string endReason(unsigned loader) = 0;
    /// Where loader i runs (a host, a pod), for the loaders table when its stream says nothing.
    virtual std::string where(unsigned loader) const = 0;
    /// Ends and removes what launch() made. Idempotent.
    virtual void cleanup() = 0;
};

} // namespace wb
