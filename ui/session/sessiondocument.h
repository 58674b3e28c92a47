#pragma once
// The open session as the UI thread sees it: one SessionStore connection,
// cached lists of targets, profiles and runs, and signals when they change
// (through this UI, or written by another process such as wrkbench-cli).
//
// Data flows one way: views edit through this class, which writes the store
// and re-reads it; models only ever reflect what the store holds.

#include "store/sessionstore.h"

#include <QObject>
#include <QString>
#include <memory>
#include <vector>

namespace wb::ui {

class SessionFileGuard;
class SessionWatcher;

class SessionDocument : public QObject
{
    Q_OBJECT
public:
    /// Opens (or creates, when `create`) the session at path. On failure returns
    /// null and sets error to a sentence naming the file and the reason.
    static std::unique_ptr<SessionDocument> open(const QString& path, bool create, QString* error);
    ~SessionDocument() override;

    QString path() const { return m_path; }
    bool isReadOnly() const { return m_store->isReadOnly(); }
    /// True when open() created the file.
    bool wasCreated() const { return m_created; }

    const std::vector<Target>& targets() const { return m_targets; }
    const std::vector<LoadProfile>& profiles() const { return m_profiles; }
    const std::vector<RunRecord>& runs() const { return m_runs; }
    /// The cached target with that id, or null.
    const Target* targetById(int64_t id) const;

    /// Edits. Each writes the store, re-reads what changed and emits its signal;
    /// a failure returns the store's message and changes nothing.
    Result<int64_t> addTarget(const Target& target);
    Status updateTarget(const Target& target);
    Status deleteTarget(int64_t id);
    Result<int64_t> addProfile(const LoadProfile& profile);
    Status updateProfile(const LoadProfile& profile);
    Status deleteProfile(int64_t id);
    Status setRunNotes(int64_t runId, const std::string& notes);
    Status deleteRuns(const std::vector<int64_t>& runIds);
    /// Adds and removes run tags on all of runIds at once (RunRepository::changeTags).
    Status changeRunTags(const std::vector<int64_t>& runIds, const std::vector<std::string>& add,
        const std::vector<std::string>& remove);
    /// Number of runs stored against a target.
    int runCountOf(int64_t targetId) const;
    /// A target name not used yet, from base ("NEG ingress (2)").
    std::string uniqueTargetName(const std::string& base) const;
    std::string uniqueProfileName(const std::string& base) const;

    /// Re-reads everything (after an external change); emits only what changed.
    void reload();
    /// Reads run runId alone (one this process just recorded) into runs(): added in
    /// id order, or replacing the cached record. Emits runStored(runId), not runsChanged():
    /// the views add or redraw one row instead of comparing the whole history. A run
    /// that cannot be read emits errorOccurred() and returns false.
    bool refreshRun(int64_t runId);
    /// A run of this process is recording into the session: external changes are picked up less often.
    void setRecording(bool recording);

    /// The store itself: what is not cached here (a run's series, experiments) is read from it directly. Edits of
    /// targets, profiles and runs go through the methods above, which keep the cache and the signals true.
    SessionStore& store() { return *m_store; }

signals:
    void targetsChanged();
    void profilesChanged();
    void runsChanged();
    /// One run was added to runs() or replaced there (refreshRun()).
    void runStored(qint64 runId);
    /// The session's experiments changed (made, run, finished by this or another process).
    void experimentsChanged();
    /// A store call failed while reloading (e.g. the file was removed).
    void errorOccurred(const QString& message);

private:
    SessionDocument(QString path, std::unique_ptr<SessionStore> store, bool created);
    bool reloadTargets();
    bool reloadProfiles();
    bool reloadRuns();
    bool reloadExperiments();

    QString m_path;
    std::unique_ptr<SessionStore> m_store;
    /// Declared after m_store, so released before the connection closes (see sessionfileguard.h).
    std::unique_ptr<SessionFileGuard> m_guard;
    bool m_created = false;
    std::vector<Target> m_targets;
    std::vector<LoadProfile> m_profiles;
    std::vector<RunRecord> m_runs;
    QString m_experimentsStamp; ///< ids, statuses and names of the experiments last seen
    SessionWatcher* m_watcher = nullptr;
};

} // namespace wb::ui
