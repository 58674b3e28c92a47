#pragma once
// The Kubernetes side of a distributed run (docs/DISTRIBUTED.md, "--on kubernetes"): a ConfigMap holding the whole
// run's configuration, so no header or body is lost to quoting in args, and an Indexed batch/v1 Job, one pod per
// loader (`loader --shard JOB_COMPLETION_INDEX/N`), that meets Pod Security "restricted" (non-root, every capability
// dropped, a read-only root filesystem, the control directory an emptyDir). Each pod prepares, says "ready" in its log
// and waits for the coordinator to write its start time into KUBE_CONTROL_DIR (kubectl exec).

#include "common/result.h"

#include <cstddef>
#include <string>

namespace wb {

struct KubeOptions
{
    std::string kubectl = "kubectl"; ///< the user's kubectl (a path or a name in PATH)
    std::string context; ///< --context; empty: kubectl's current context
    std::string nameSpace = "default";
    std::string image; ///< empty: defaultLoaderImage()
    std::string cpu = "1"; ///< each pod's CPU request (and limit)
    std::string memory = "512Mi"; ///< each pod's memory request (and limit)
    unsigned ttlSeconds = 600; ///< ttlSecondsAfterFinished: a kept Job goes away by itself
    bool keep = false; ///< --keep: leave the Job after the run
    std::string jobName; ///< empty: newJobName()
    uint64_t podsRunningTimeoutUs = 300'000'000; ///< image pulls and scheduling
    /// --pod-metrics-port: each loader serves its live figures for Prometheus on this port
    /// (`loader --metrics-listen 0.0.0.0:PORT`, the series labelled with the Job's name as the
    /// run); the pod template names the port "metrics" and carries the prometheus.io scrape
    /// annotations. 0: none.
    uint16_t metricsPort = 0;
    /// --exec-wave: what one wave of TELL_PARALLELISM `kubectl exec`s (the common start told to the
    /// pods) may take; the start is set 1 s plus one such wave per 16 pods ahead.
    uint64_t execWaveUs = 2'000'000;
};

/// "wrkbench-cli:<version>": build and push it from packaging/Containerfile (docs/DISTRIBUTED.md).
std::string defaultLoaderImage();
/// "wrkbench-20261202-053000-1a2b": unique enough for one namespace, a valid DNS label.
std::string newJobName();

inline constexpr const char* KUBE_CONTROL_DIR = "/var/run/wrkbench";
inline constexpr const char* KUBE_CONFIG_DIR = "/etc/wrkbench";
inline constexpr const char* KUBE_RUN_LABEL = "wrkbench.io/run";

/// Where a pod finds the certificates of --cacert: the CA file of this machine is not in the pods,
/// so its PEM travels in the ConfigMap (key ca.pem) and the pods' configuration names the copy.
inline constexpr const char* KUBE_CA_FILE = "/etc/wrkbench/ca.pem";
/// The largest CA file carried (a ConfigMap holds at most 1 MiB, the configuration included).
inline constexpr size_t KUBE_CA_MAX_BYTES = 512 * 1024;

/// The ConfigMap and the Job as a v1 List (JSON, what `kubectl create -f -` is fed). configJson is
/// the whole run's (runConfigToJson). Error: its CA file cannot be carried (unreadable, too large).
Result<std::string> kubeManifestJson(const KubeOptions& options, const std::string& configJson, unsigned loaders);
/// The same as YAML documents (--manifest-only).
Result<std::string> kubeManifestYaml(const KubeOptions& options, const std::string& configJson, unsigned loaders);

} // namespace wb
