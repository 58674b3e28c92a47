#pragma once
// Loaders on remote agents (docs/AGENT.md): each agent runs one paused loader
// with its share; its stream comes over HTTPS into a local socket the
// coordinator reads like a child's pipe. If the link drops, the loader goes on
// and this side re-attaches, reading on from the byte it had; only an agent
// unreachable for `reattachUs` ends that loader's stream (the run is partial).

#include "agent/client/agentclient.h"
#include "fleet/loaderexecutor.h"

#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace wb {

class AgentExecutor final : public LoaderExecutor
{
public:
    AgentExecutor(std::vector<AgentEndpoint> agents, uint64_t reattachUs);
    ~AgentExecutor() override;

    std::string kind() const override { return "agents"; }
    Status launch(const std::string& configJson, unsigned count, const std::atomic<bool>& stop) override;
    int streamFd(unsigned loader) const override;
    Status tellAll(const std::string& name, const std::string& content) override;
    uint64_t tellAllowanceUs(unsigned) const override { return 1'500'000; } // parallel calls
    std::string endReason(unsigned loader) override;
    std::string where(unsigned loader) const override;
    void cleanup() override;

private:
    struct Remote
    {
        std::unique_ptr<AgentClient> client;
        std::string runId;
        int readFd = -1; ///< the coordinator's end
        int writeFd = -1; ///< the pump's end
        std::thread pump;
        bool complete = false;
        std::atomic<bool> pumpDone { false };
        std::string endReason;
    };
    void pump(Remote& remote);

    std::vector<AgentEndpoint> m_agents;
    uint64_t m_reattachUs;
    std::vector<std::unique_ptr<Remote>> m_remotes;
    std::atomic<bool> m_stop { false };
    std::mutex m_mutex; ///< endReason, complete
};

} // namespace wb
