#include "runrecording.h"

#include "store/sessionrecorder.h"
#include "store/sessionstore.h"

#include <iostream>

namespace wb::cli {

void printWarning(const std::string& message)
{
    std::cerr << "wrkbench-cli: warning: " << message << std::endl;
}

RunRecording::~RunRecording() = default;

Result<std::unique_ptr<RunRecording>> RunRecording::open(const std::string& dbPath, const std::string& targetName,
    const std::vector<std::string>& tags, const RunConfig& config)
{
    for (const auto& tag : tags)
        if (auto st = validateTag(tag); !st) return Error { st.error() };
    auto store = SessionStore::open(dbPath);
    if (!store) return Error { store.error() };
    std::unique_ptr<RunRecording> rec(new RunRecording);
    rec->m_path = dbPath;
    rec->m_config = config;
    rec->m_tags = tags;

    const std::string url = config.request.url.displayText();
    const std::string name = targetName.empty() ? url : targetName;
    auto existing = (*store)->targetByName(name);
    if (!existing) return Error { existing.error() };
    if (existing->has_value()) {
        rec->m_targetId = (*existing)->id;
        if ((*existing)->url != url)
            printWarning("target '" + name + "' was created with URL " + (*existing)->url + "; this run uses " + url);
    } else if (!(*store)->isReadOnly()) {
        Target target;
        target.name = name;
        target.url = url;
        target.method = config.request.method;
        target.headers = config.request.headers;
        target.body = config.request.body;
        target.tls = config.tls;
        auto id = (*store)->ensureTarget(target);
        if (!id) return Error { id.error() };
        rec->m_targetId = *id;
    }
    // Said now, so that a long run can be stopped; finish() says it again.
    if ((*store)->isReadOnly()) printWarning("'" + dbPath + "' is read-only: this run will not be stored");
    rec->m_store = std::move(*store);
    return rec;
}

void RunRecording::recordFailure(const std::string& error)
{
    if (!m_store || m_store->isReadOnly()) return;
    NewRun run;
    run.targetId = m_targetId;
    run.config = m_config;
    run.tags = m_tags;
    run.probeJson = m_probeJson;
    // The error itself is already on stderr; a failure to record it adds nothing useful.
    (void)m_store->addFailedRun(run, error);
}

RunObserver& RunRecording::observer()
{
    if (!m_recorder) {
        RecordingOptions options;
        options.targetId = m_targetId;
        options.tags = m_tags;
        options.probeJson = m_probeJson;
        m_recorder = std::make_unique<SessionRecorder>(std::move(m_store), options);
    }
    return *m_recorder;
}

int RunRecording::finish(std::ostream& text)
{
    if (!m_recorder) return 0;
    m_recorder->finish();
    const int64_t id = m_recorder->runId();
    if (id == 0 || m_recorder->droppedWrites() > 0) {
        printWarning((id ? "run " + std::to_string(id) + " was not stored completely: " : "the run was not stored: ")
            + m_recorder->lastError());
        return 3;
    }
    text << "Stored as run " << m_recorder->runId() << " in '" << m_path << "'" << std::endl;
    return 0;
}

} // namespace wb::cli
