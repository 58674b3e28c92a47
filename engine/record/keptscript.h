#pragma once
// A wrk script around one RecordedRun whose printed output is kept with the run rather than
// written to stdout: a run from the window, an experiment's run, a capacity trial. Before the run the script is checked
// and the run prepared (its hooks on the controller, or setup() for a fleet); after it, done()
// runs (unless the script stopped the run) and everything printed is stored with the run.
//
//   auto script = KeptScript::prepare(config, options);   // options.makeRunner set when needed
//   RecordedRun run(config, options); auto ran = run.run();
//   if (*script) (*script)->finish(ran, store);

#include "common/result.h"
#include "record/recordedrun.h"
#include "script/luastate.h"
#include "script/scriptrun.h"

#include <memory>

namespace wb {

class SessionStore;

class KeptScript
{
public:
    /// Null when config has no script; the error: the script's check or preparation ("the script: ...").
    /// A distributed config gets what setup() gave each thread of the fleet (ScriptSpec::threadSetup).
    static Result<std::unique_ptr<KeptScript>> prepare(RunConfig& config, RecordedRunOptions& options);
    /// done(summary, latency, requests) when the run ran and the script did not stop it (an error
    /// of done() is kept with what the script printed, and said by doneError()), then what the
    /// script printed stored with the run (when it was stored): a storage error is returned.
    Status finish(const RecordedRunOutcome& ran, SessionStore* store);
    /// The same, opening the session at sessionPath only when there is something to store.
    Status finish(const RecordedRunOutcome& ran, const std::string& sessionPath);
    std::string printed() const { return m_printed.text(); }
    /// Why done() failed ("" when it did not, or did not run).
    const std::string& doneError() const { return m_doneError; }

private:
    explicit KeptScript(const RunConfig& config);
    /// done(), its error kept with the output; false when there is nothing to store.
    bool runDone(const RecordedRunOutcome& ran);

    ScriptOutput m_printed;
    ScriptRun m_run;
    std::string m_doneError;
};

} // namespace wb
