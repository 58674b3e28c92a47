#pragma once
// Small process helpers for the executors: run a command to completion (its
// output captured, stdin fed), or start one whose stdout is read as a stream.
// No shell: arguments go to execvp as they are.

#include "common/result.h"

#include <string>
#include <sys/types.h>
#include <vector>

namespace wb {

struct ProcessOutput
{
    int exitCode = -1; ///< -1: killed (by a signal, or the timeout)
    std::string out; ///< stdout
    std::string err; ///< stderr
};

/// Runs argv[0] (looked up in PATH) with input on its stdin; kills it after timeoutUs.
/// An error only when it could not be started.
Result<ProcessOutput> runProcess(const std::vector<std::string>& argv, const std::string& input, uint64_t timeoutUs);

/// A started process whose stdout (and stderr) is `fd`, non-blocking.
struct StreamingProcess
{
    pid_t pid = -1;
    int fd = -1;
};
/// Starts argv in its own process group (a terminal's Ctrl-C does not reach it), stdin from
/// /dev/null, stdout and stderr into one pipe.
Result<StreamingProcess> startStreaming(const std::vector<std::string>& argv);
/// Ends it (SIGTERM, then waits) and closes its pipe; returns its wait status.
int endStreaming(StreamingProcess& process);

/// True when `program` is an executable path or found in PATH.
bool findProgram(const std::string& program);

} // namespace wb
