#pragma once
// Loaders as the pods of a Kubernetes Indexed Job, driven with the user's own
// kubectl (their context, their credentials): check the RBAC verbs the run
// needs, apply the ConfigMap and the Job, wait until every pod runs, follow
// each pod's log (`kubectl logs -f`), write the common start time into every
// pod (`kubectl exec`), and delete the Job afterwards unless --keep.

#include "fleet/kubemanifest.h"
#include "fleet/loaderexecutor.h"
#include "fleet/subprocess.h"

#include <vector>

namespace wb {

class KubeExecutor final : public LoaderExecutor
{
public:
    explicit KubeExecutor(KubeOptions options);
    ~KubeExecutor() override;

    std::string kind() const override { return "kubernetes"; }
    Status launch(const std::string& configJson, unsigned count, const std::atomic<bool>& stop) override;
    int streamFd(unsigned loader) const override;
    Status tellAll(const std::string& name, const std::string& content) override;
    /// One second, plus one wave of execs per TELL_PARALLELISM pods.
    uint64_t tellAllowanceUs(unsigned count) const override
    {
        return 1'000'000 + m_options.execWaveUs * ((count + TELL_PARALLELISM - 1) / TELL_PARALLELISM);
    }
    std::string endReason(unsigned loader) override;
    std::string where(unsigned loader) const override;
    void cleanup() override;

    /// `kubectl exec`s at once in tellAll(): a fleet of 100 pods is told in 7 waves, without 100
    /// kubectl processes on this machine and 100 exec streams through the API server at once.
    static constexpr unsigned TELL_PARALLELISM = 16;

    /// The RBAC verbs the coordinator needs in the namespace (packaging/wrkbench-loader-role.yaml).
    static const std::vector<std::pair<std::string, std::string>>& requiredAccess();

private:
    std::vector<std::string> kubectl(std::vector<std::string> args) const;
    Result<ProcessOutput> call(
        std::vector<std::string> args, const std::string& input = {}, uint64_t timeoutUs = 30'000'000) const;
    Status checkAccess();
    Status waitForPods(unsigned count, const std::atomic<bool>& stop);

    KubeOptions m_options;
    bool m_applied = false;
    std::vector<std::string> m_pods; ///< by completion index
    std::vector<StreamingProcess> m_logs;
};

} // namespace wb
