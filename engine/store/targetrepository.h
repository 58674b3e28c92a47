#pragma once
// The targets of a session (SessionStore::targets()): what a run loads, each with a unique name.

#include "common/result.h"
#include "store/sessiontypes.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace wb {

class SessionStore;

class TargetRepository
{
public:
    TargetRepository(const TargetRepository&) = delete;
    TargetRepository& operator=(const TargetRepository&) = delete;

    /// Every target, by name.
    Result<std::vector<Target>> all();
    Result<Target> get(int64_t id);
    /// The target of that name, or nullopt.
    Result<std::optional<Target>> byName(const std::string& name);
    /// Adds a target (its id is ignored); fails when the name is taken.
    Result<int64_t> add(const Target& target);
    Status update(const Target& target);
    /// The id of the target named prototype.name; created from prototype when there is none.
    Result<int64_t> ensure(const Target& prototype);
    /// Deletes a target; with runs, only when withRuns (which deletes them too).
    Status remove(int64_t id, bool withRuns = false);

private:
    friend class SessionStore;
    explicit TargetRepository(SessionStore& store)
        : m_store(store)
    { }
    Target readTarget(int64_t id);

    SessionStore& m_store;
};

} // namespace wb
