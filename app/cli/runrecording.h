#pragma once
// `wrkbench-cli run --db FILE [--target NAME] [--tag TAG]...`: stores the run
// in a session while it happens (SessionRecorder), creating the target on
// first use from the URL and request options.

#include "common/result.h"
#include "run/runconfig.h"

#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace wb {
class RunObserver;
class SessionRecorder;
class SessionStore;
} // namespace wb

namespace wb::cli {

class RunRecording
{
public:
    /// Opens (or creates) the session and finds or creates the target. A
    /// session that cannot be opened is an error; a read-only one only a
    /// warning (the run goes on, finish() reports that it was not stored).
    static Result<std::unique_ptr<RunRecording>> open(const std::string& dbPath, const std::string& targetName,
        const std::vector<std::string>& tags, const RunConfig& config);
    ~RunRecording();

    /// The probe made before the run (ProbeResult JSON), stored with it (or with its failure).
    void setProbeJson(std::string json) { m_probeJson = std::move(json); }
    /// Stores a run that could not start (the pre-run check failed) as 'failed'.
    void recordFailure(const std::string& error);
    /// The observer to attach to the run controller.
    RunObserver& observer();
    /// Waits for the last writes. Prints "Stored as run N in 'FILE'" to text, or
    /// one warning line to stderr. Returns 0, or 3 when the run was not stored whole.
    int finish(std::ostream& text);

private:
    RunRecording() = default;

    std::string m_path;
    RunConfig m_config;
    std::vector<std::string> m_tags;
    int64_t m_targetId = 0;
    std::string m_probeJson;
    std::unique_ptr<SessionStore> m_store; ///< until the recorder takes it
    std::unique_ptr<SessionRecorder> m_recorder;
};

/// Prints "wrkbench-cli: warning: <message>" to stderr.
void printWarning(const std::string& message);

} // namespace wb::cli
