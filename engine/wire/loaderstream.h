#pragma once
// A loader's side of a distributed run: one JSON object a line, so a coordinator can follow it live (a pipe, `kubectl
// logs -f`, an agent's HTTP stream) and merge the loaders exactly. Made of the wire records, not the --json report; the
// reader is wire/loaderread.h. A loader that dies leaves the lines it wrote: its intervals so far are kept.
//   {"event":"ready","loader":{"index":0,"count":4,"host":..,"clock":..,"requested_start_unix_us":0,"config":{..}}}
//   {"event":"started","loader":0}                                     connecting (sends nothing yet)
//   {"event":"interval","loader":0,"interval":{wire/intervalcodec}}    one per interval
//   {"event":"finished","loader":0,"end":{wire/runendcodec}}   or   {"event":"failed","loader":0,"error":"..."}

#include "run/runobserver.h"
#include "wire/wirejson.h"

#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>

namespace wb {

/// Who a loader is and what it was asked to do.
struct LoaderIdentity
{
    unsigned index = 0;
    unsigned count = 1;
    std::string host; ///< host name (a pod's is its name)
    std::string clock; ///< systemClockNote()
    int64_t requestedStartUnixUs = 0; ///< the common start it was given (0: none)
    std::string wholeConfigJson; ///< the whole run's configuration (runConfigToJson), not the share
};

WireJson loaderIdentityToJson(const LoaderIdentity& identity);

/// The "loader" object a loader's --json document carries (`run --shard I/N --json F`, read
/// back by `merge`): who it is, and its end-of-run record.
WireJson loaderSectionJson(const RunResult& share, const LoaderIdentity& identity);

/// Writes the stream, one flushed line per event, to a file descriptor (stdout for a pod).
class LoaderStreamWriter : public RunObserver
{
public:
    LoaderStreamWriter(int fd, LoaderIdentity identity);

    /// Prepared (the target answered): who it is, waiting for its start time.
    void ready();
    /// The whole run's configuration (runConfigToJson), once it is known: the ready line carries it.
    void setWholeConfig(std::string json) { m_identity.wholeConfigJson = std::move(json); }
    /// The start it was given (the started line's identity carries it).
    void setRequestedStart(int64_t startUnixUs) { m_identity.requestedStartUnixUs = startUnixUs; }
    void onStarted(const RunConfig& share) override;
    void onInterval(const IntervalRecord& interval) override;
    void onFinished(const RunResult& result) override;
    /// The loader could not run (or stopped with an error before its result).
    void failed(const std::string& error);

private:
    void writeLine(const std::string& line);

    int m_fd;
    LoaderIdentity m_identity;
    RunConfig m_share; ///< what this loader runs (the intervals' JSON depends on it)
    std::mutex m_mutex;
};

} // namespace wb
