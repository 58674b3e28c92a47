#pragma once
// The experiments of a session (SessionStore::experiments()): A-vs-B plans, studies and capacity
// searches (see engine/experiment, engine/capacity).

#include "common/result.h"
#include "store/sessiontypes.h"

#include <cstdint>
#include <string>
#include <vector>

namespace wb {

class SessionStore;

class ExperimentRepository
{
public:
    ExperimentRepository(const ExperimentRepository&) = delete;
    ExperimentRepository& operator=(const ExperimentRepository&) = delete;

    /// Adds an experiment in status 'planned'; planJson is kept as given.
    Result<int64_t> add(const std::string& name, const std::string& planJson, const std::string& notes = {},
        ExperimentKind kind = ExperimentKind::Plan);
    /// Every experiment, oldest first.
    Result<std::vector<ExperimentRecord>> all();
    Result<ExperimentRecord> get(int64_t id);
    /// Marks the experiment 'running', owned by this process (so that it becomes
    /// 'interrupted' if the process dies). Fails while another live process runs it.
    Status begin(int64_t id);
    /// Ends a run of the experiment: completed, stopped or failed (error says why).
    Status finish(int64_t id, ExperimentStatus status, const std::string& error = {});
    /// Adds a study (an experiment of kind 'study', status 'completed': nothing is run) linked
    /// to its runs, each with its cell's group and variant, in one transaction.
    Result<int64_t> addStudy(
        const std::string& name, const std::string& definitionJson, const std::vector<StudyRunLink>& runs);
    /// A study's runs with the group and variant each was given, by run id.
    Result<std::vector<StudyRunLink>> studyLinks(int64_t id);
    /// Appends a trial to a capacity search (an experiment of kind 'capacity'), after those it has.
    Status addCapacityTrial(int64_t experimentId, const CapacityTrialRow& trial);
    /// The trials of a capacity search, in the order they were made.
    Result<std::vector<CapacityTrialRow>> capacityTrials(int64_t experimentId);
    /// The runs of an experiment (made for it, or linked to a study), oldest first (summary only).
    Result<std::vector<RunRecord>> runs(int64_t id);
    /// Deletes an experiment; its runs with it when withRuns, else they stay as ordinary runs.
    Status remove(int64_t id, bool withRuns = false);

private:
    friend class SessionStore;
    explicit ExperimentRepository(SessionStore& store)
        : m_store(store)
    { }
    ExperimentRecord readExperiment(int64_t id);
    /// Turns experiments left 'running' by a dead process of this host into 'interrupted' ones
    /// (SessionStore::recoverDeadRuns).
    void recoverDead();

    SessionStore& m_store;
};

} // namespace wb
