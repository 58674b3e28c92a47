#pragma once
// Reading what loaders say (wire/loaderstream.h): one line of a stream, or a
// whole --json document of a loader run by hand (`run --shard I/N --json F`).
// Untrusted input (a pod's log, a file from another machine, an agent's stream):
// every problem is one sentence, never an exception.

#include "common/result.h"
#include "run/runfold.h"
#include "stats/intervalrecord.h"
#include "wire/loaderstream.h"

#include <string>
#include <string_view>
#include <vector>

namespace wb {

struct LoaderEvent
{
    enum class Kind { Ready, Started, Interval, Finished, Failed, Text };
    Kind kind = Kind::Text;
    unsigned loader = 0;
    LoaderIdentity identity; ///< Ready
    IntervalRecord interval; ///< Interval
    RunEnd end; ///< Finished
    uint64_t intervalRequests = UINT64_MAX; ///< Finished: the requests its intervals hold (UINT64_MAX: not said)
    std::string text; ///< Failed: the error; Text: a line that is not an event (a log line)
};

/// One line of a loader's stream. A line that is not JSON is a Text event (pods log other
/// things too); a JSON event that does not read is an error naming what is wrong.
Result<LoaderEvent> parseLoaderLine(std::string_view line);

/// A loader's whole output: its identity, every interval, its end.
struct LoaderDocument
{
    LoaderIdentity identity;
    std::vector<IntervalRecord> intervals;
    RunEnd end;
    bool complete = false; ///< an end was there (a stream cut short has none)
    std::string failure; ///< a stream that said "failed"
};

/// A --json document of a loader, or a saved stream (JSON Lines). The error names the file.
Result<LoaderDocument> readLoaderFile(const std::string& path);
/// The same from text (`source` names it in errors).
Result<LoaderDocument> parseLoaderDocument(std::string_view text, const std::string& source);

} // namespace wb
