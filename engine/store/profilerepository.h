#pragma once
// The load profiles of a session (SessionStore::profiles()): named load settings a run can start from.

#include "common/result.h"
#include "store/sessiontypes.h"

#include <cstdint>
#include <vector>

namespace wb {

class SessionStore;

class ProfileRepository
{
public:
    ProfileRepository(const ProfileRepository&) = delete;
    ProfileRepository& operator=(const ProfileRepository&) = delete;

    /// Every load profile, by name.
    Result<std::vector<LoadProfile>> all();
    Result<int64_t> add(const LoadProfile& profile);
    Status update(const LoadProfile& profile);
    /// Deletes a profile; its runs keep their configuration and the profile's name.
    Status remove(int64_t id);

private:
    friend class SessionStore;
    explicit ProfileRepository(SessionStore& store)
        : m_store(store)
    { }

    SessionStore& m_store;
};

} // namespace wb
