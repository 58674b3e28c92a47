#include "session/sessiondocument.h"

#include "session/recordequality.h"
#include "session/sessionfileguard.h"
#include "session/sessionwatcher.h"

#include <QDir>
#include <QFileInfo>
#include <algorithm>
#include <functional>

namespace wb::ui {

namespace {

template<typename T, typename Eq> bool sameList(const std::vector<T>& a, const std::vector<T>& b, Eq eq)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), eq);
}

std::string uniqueName(const std::string& base, const std::function<bool(const std::string&)>& taken)
{
    if (!taken(base)) return base;
    for (int i = 2;; ++i) {
        const std::string name = base + " (" + std::to_string(i) + ")";
        if (!taken(name)) return name;
    }
}

} // namespace

std::unique_ptr<SessionDocument> SessionDocument::open(const QString& path, bool create, QString* error)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    const bool existed = QFileInfo::exists(absolute);
    if (create && !existed) QDir().mkpath(QFileInfo(absolute).absolutePath());
    SessionOpenOptions options;
    options.create = create;
    auto store = SessionStore::open(absolute.toStdString(), options);
    if (!store) {
        if (error) *error = QString::fromStdString(store.error());
        return nullptr;
    }
    std::unique_ptr<SessionDocument> doc(new SessionDocument(absolute, std::move(*store), !existed));
    doc->reloadTargets();
    doc->reloadProfiles();
    doc->reloadRuns();
    return doc;
}

SessionDocument::SessionDocument(QString path, std::unique_ptr<SessionStore> store, bool created)
    : m_path(std::move(path))
    , m_store(std::move(store))
    , m_guard(std::make_unique<SessionFileGuard>(m_path))
    , m_created(created)
    , m_watcher(new SessionWatcher(m_path, this))
{
    connect(m_watcher, &SessionWatcher::changed, this, &SessionDocument::reload);
}

SessionDocument::~SessionDocument() = default;

const Target* SessionDocument::targetById(int64_t id) const
{
    for (const Target& t : m_targets)
        if (t.id == id) return &t;
    return nullptr;
}

bool SessionDocument::reloadTargets()
{
    auto targets = m_store->targets().all();
    if (!targets) {
        emit errorOccurred(QString::fromStdString(targets.error()));
        return false;
    }
    if (sameList(*targets, m_targets, sameTarget)) return false;
    m_targets = std::move(*targets);
    return true;
}

bool SessionDocument::reloadProfiles()
{
    auto profiles = m_store->profiles().all();
    if (!profiles) {
        emit errorOccurred(QString::fromStdString(profiles.error()));
        return false;
    }
    if (sameList(*profiles, m_profiles, sameProfile)) return false;
    m_profiles = std::move(*profiles);
    return true;
}

bool SessionDocument::reloadRuns()
{
    auto runs = m_store->runs().list();
    if (!runs) {
        emit errorOccurred(QString::fromStdString(runs.error()));
        return false;
    }
    if (sameList(*runs, m_runs, sameRun)) return false;
    m_runs = std::move(*runs);
    return true;
}

bool SessionDocument::refreshRun(int64_t runId)
{
    auto run = m_store->runs().record(runId);
    if (!run) {
        emit errorOccurred(QString::fromStdString(run.error()));
        return false;
    }
    // runs() is in id order (RunRepository::list); a new run is nearly always the last.
    auto at = std::lower_bound(
        m_runs.begin(), m_runs.end(), runId, [](const RunRecord& r, int64_t id) { return r.id < id; });
    if (at != m_runs.end() && at->id == runId)
        *at = std::move(*run);
    else
        m_runs.insert(at, std::move(*run));
    emit runStored(runId);
    return true;
}

void SessionDocument::setRecording(bool recording)
{
    m_watcher->setBusy(recording);
}

void SessionDocument::reload()
{
    if (reloadTargets()) emit targetsChanged();
    if (reloadProfiles()) emit profilesChanged();
    if (reloadRuns()) emit runsChanged();
    if (reloadExperiments()) emit experimentsChanged();
}

bool SessionDocument::reloadExperiments()
{
    auto list = m_store->experiments().all();
    if (!list) return false; // reloadRuns() reports a store that fails
    QString stamp;
    for (const ExperimentRecord& e : *list)
        stamp += QStringLiteral("%1:%2:%3:%4\n")
                     .arg(e.id)
                     .arg(static_cast<int>(e.status))
                     .arg(QString::fromStdString(e.name), QString::fromStdString(e.error));
    if (stamp == m_experimentsStamp) return false;
    m_experimentsStamp = stamp;
    return true;
}

Result<int64_t> SessionDocument::addTarget(const Target& target)
{
    auto id = m_store->targets().add(target);
    if (id && reloadTargets()) emit targetsChanged();
    return id;
}

Status SessionDocument::updateTarget(const Target& target)
{
    Status st = m_store->targets().update(target);
    if (st && reloadTargets()) emit targetsChanged();
    // Runs show their target's name: a rename shows in the history at once.
    if (st && reloadRuns()) emit runsChanged();
    return st;
}

Status SessionDocument::deleteTarget(int64_t id)
{
    Status st = m_store->targets().remove(id, true);
    if (!st) return st;
    if (reloadTargets()) emit targetsChanged();
    if (reloadRuns()) emit runsChanged();
    return st;
}

Result<int64_t> SessionDocument::addProfile(const LoadProfile& profile)
{
    auto id = m_store->profiles().add(profile);
    if (id && reloadProfiles()) emit profilesChanged();
    return id;
}

Status SessionDocument::updateProfile(const LoadProfile& profile)
{
    Status st = m_store->profiles().update(profile);
    if (st && reloadProfiles()) emit profilesChanged();
    return st;
}

Status SessionDocument::deleteProfile(int64_t id)
{
    Status st = m_store->profiles().remove(id);
    if (st && reloadProfiles()) emit profilesChanged();
    return st;
}

Status SessionDocument::setRunNotes(int64_t runId, const std::string& notes)
{
    Status st = m_store->runs().setNotes(runId, notes);
    if (st && reloadRuns()) emit runsChanged();
    return st;
}

Status SessionDocument::changeRunTags(
    const std::vector<int64_t>& runIds, const std::vector<std::string>& add, const std::vector<std::string>& remove)
{
    Status st = m_store->runs().changeTags(runIds, add, remove);
    if (st && reloadRuns()) emit runsChanged();
    return st;
}

Status SessionDocument::deleteRuns(const std::vector<int64_t>& runIds)
{
    Status st = m_store->transaction([&]() -> Status {
        for (int64_t id : runIds)
            if (Status one = m_store->runs().remove(id); !one) return one;
        return {};
    });
    if (st && reloadRuns()) emit runsChanged();
    return st;
}

int SessionDocument::runCountOf(int64_t targetId) const
{
    return static_cast<int>(
        std::count_if(m_runs.begin(), m_runs.end(), [&](const RunRecord& r) { return r.targetId == targetId; }));
}

std::string SessionDocument::uniqueTargetName(const std::string& base) const
{
    return uniqueName(base, [this](const std::string& name) {
        return std::any_of(m_targets.begin(), m_targets.end(), [&](const Target& t) { return t.name == name; });
    });
}

std::string SessionDocument::uniqueProfileName(const std::string& base) const
{
    return uniqueName(base, [this](const std::string& name) {
        return std::any_of(m_profiles.begin(), m_profiles.end(), [&](const LoadProfile& p) { return p.name == name; });
    });
}

} // namespace wb::ui
