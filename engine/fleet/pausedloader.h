#pragma once
// A loader's LoadRunner: this process's RunController, held between its
// preparation and its start until the coordinator says when (control files,
// fleet/controlfiles.h). It says "ready" on its stream once the target
// answered, measures from the start it is given, and stops when told.

#include "run/runcontroller.h"
#include "wire/loaderstream.h"

#include <atomic>
#include <string>

namespace wb {

class PausedLoader final : public LoadRunner
{
public:
    /// share: this loader's part of the run; controlDir: where the start and stop files appear;
    /// startTimeoutUs: how long to wait for a start before giving up.
    PausedLoader(RunConfig share, LoaderStreamWriter& stream, std::string controlDir, uint64_t startTimeoutUs);

    void addObserver(RunObserver* observer) override { m_controller.addObserver(observer); }
    /// What runs in front of and behind the sessions (a script's request()/response()).
    void setHooks(RunHooks hooks) { m_controller.setHooks(std::move(hooks)); }
    Status prepare() override;
    RunResult run() override;
    void stop() override;
    const std::vector<std::string>& warnings() const override { return m_controller.warnings(); }

private:
    RunController m_controller;
    LoaderStreamWriter& m_stream;
    std::string m_controlDir;
    uint64_t m_startTimeoutUs;
    std::atomic<bool> m_stopped { false };
};

} // namespace wb
