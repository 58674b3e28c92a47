#include "record/keptscript.h"

#include "store/sessionstore.h"

namespace wb {

KeptScript::KeptScript(const RunConfig& config)
    : m_run(config.normalized())
{
    m_run.captureOutput(&m_printed);
}

Result<std::unique_ptr<KeptScript>> KeptScript::prepare(RunConfig& config, RecordedRunOptions& options)
{
    if (config.script.empty()) return std::unique_ptr<KeptScript> {};
    std::unique_ptr<KeptScript> script(new KeptScript(config));
    if (Status st = script->m_run.check(); !st) return Error { "the script: " + st.error() };
    auto makeRunner = script->m_run.prepareRun(config);
    if (!makeRunner) return Error { "the script: " + makeRunner.error() };
    if (*makeRunner) options.makeRunner = *makeRunner;
    return script;
}

bool KeptScript::runDone(const RecordedRunOutcome& ran)
{
    if (!ran.ran()) return false;
    if (ran.result->failure.empty())
        if (Status st = m_run.done(*ran.result); !st) {
            m_doneError = st.error();
            m_printed.append(st.error() + "\n");
        }
    return ran.runId && !m_printed.text().empty();
}

Status KeptScript::finish(const RecordedRunOutcome& ran, SessionStore* store)
{
    if (!runDone(ran) || !store) return {};
    return store->runs().setScriptOutput(ran.runId, m_printed.text());
}

Status KeptScript::finish(const RecordedRunOutcome& ran, const std::string& sessionPath)
{
    if (!runDone(ran) || sessionPath.empty()) return {};
    auto store = SessionStore::open(sessionPath, SessionOpenOptions { false, false });
    if (!store) return Error { store.error() };
    return (*store)->runs().setScriptOutput(ran.runId, m_printed.text());
}

} // namespace wb
