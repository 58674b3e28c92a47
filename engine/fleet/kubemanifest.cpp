#include "fleet/kubemanifest.h"

#include "common/jsontext.h"
#include "run/runcontroller.h"
#include "wire/configcodec.h"

#include <chrono>
#include <ctime>
#include <fmt/format.h>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <random>

namespace wb {

namespace {

using Json = nlohmann::ordered_json;

Json labels(const std::string& job)
{
    return Json { { "app.kubernetes.io/name", "wrkbench-loader" }, { KUBE_RUN_LABEL, job } };
}

std::string nameOf(const KubeOptions& o)
{
    return o.jobName.empty() ? newJobName() : o.jobName;
}

// What the ConfigMap carries: the pods' configuration, and the PEM of its CA file if it names one.
struct PodFiles
{
    std::string configJson;
    std::string caPem;
};

Result<PodFiles> podFilesOf(const std::string& configJson)
{
    auto config = runConfigFromJson(configJson);
    if (!config) return Error { "the run's configuration does not read back: " + config.error() };
    if (config->tls.caFile.empty()) return PodFiles { configJson, {} };
    const std::string path = config->tls.caFile;
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error { fmt::format("--cacert '{}': cannot read it, and the pods need its certificates", path) };
    std::string pem((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) return Error { fmt::format("--cacert '{}': cannot read it", path) };
    if (pem.size() > KUBE_CA_MAX_BYTES)
        return Error { fmt::format("--cacert '{}' is {} bytes: at most {} travel in the Job's ConfigMap", path,
            pem.size(), KUBE_CA_MAX_BYTES) };
    if (pem.find("-----BEGIN CERTIFICATE-----") == std::string::npos)
        return Error { fmt::format("--cacert '{}' holds no PEM certificate", path) };
    config->tls.caFile = KUBE_CA_FILE;
    return PodFiles { runConfigToJson(*config), std::move(pem) };
}

Json manifest(const KubeOptions& o, const PodFiles& files, unsigned loaders)
{
    const std::string job = nameOf(o);
    const std::string image = o.image.empty() ? defaultLoaderImage() : o.image;
    Json data { { "config.json", files.configJson } };
    if (!files.caPem.empty()) data["ca.pem"] = files.caPem;
    Json configMap { { "apiVersion", "v1" }, { "kind", "ConfigMap" },
        { "metadata", { { "name", job }, { "namespace", o.nameSpace }, { "labels", labels(job) } } },
        { "data", data } };
    Json resources { { "cpu", o.cpu }, { "memory", o.memory } };
    Json container {
        { "name", "loader" },
        { "image", image },
        { "args",
            Json::array({ "loader", "--config", std::string(KUBE_CONFIG_DIR) + "/config.json", "--shard",
                fmt::format("JOB_COMPLETION_INDEX/{}", loaders), "--control-dir", KUBE_CONTROL_DIR, "--host",
                "$(POD_NAME)" }) },
        { "env",
            Json::array({
                { { "name", "POD_NAME" }, { "valueFrom", { { "fieldRef", { { "fieldPath", "metadata.name" } } } } } },
                // Set by Kubernetes for Indexed Jobs since 1.22; spelled out for older clusters.
                { { "name", "JOB_COMPLETION_INDEX" },
                    { "valueFrom",
                        { { "fieldRef",
                            { { "fieldPath",
                                "metadata.annotations['batch.kubernetes.io/job-completion-index']" } } } } } },
            }) },
        { "resources", { { "requests", resources }, { "limits", resources } } },
        { "volumeMounts",
            Json::array({ { { "name", "config" }, { "mountPath", KUBE_CONFIG_DIR }, { "readOnly", true } },
                { { "name", "control" }, { "mountPath", KUBE_CONTROL_DIR } } }) },
        // What Pod Security's "restricted" level asks of a container (many clusters admit nothing
        // less), and a root filesystem the loader cannot write: it writes only its control directory,
        // an emptyDir. tests/packaging/image_test.sh runs the image under these settings.
        { "securityContext",
            { { "allowPrivilegeEscalation", false }, { "readOnlyRootFilesystem", true },
                { "capabilities", { { "drop", Json::array({ "ALL" }) } } } } },
    };
    Json podMetadata { { "labels", labels(job) } };
    if (o.metricsPort > 0) {
        // Live figures for Prometheus: the port by name (a PodMonitor's podMetricsEndpoints), and
        // the annotations that annotation-driven scrape configs read.
        for (const std::string& arg : { std::string("--metrics-listen"), fmt::format("0.0.0.0:{}", o.metricsPort),
                 std::string("--metrics-run"), job })
            container["args"].push_back(arg);
        container["ports"]
            = Json::array({ { { "name", "metrics" }, { "containerPort", o.metricsPort }, { "protocol", "TCP" } } });
        podMetadata["annotations"] = Json { { "prometheus.io/scrape", "true" },
            { "prometheus.io/port", std::to_string(o.metricsPort) }, { "prometheus.io/path", "/metrics" } };
    }
    Json podSpec {
        { "restartPolicy", "Never" },
        // The image's numeric USER (nobody) satisfies runAsNonRoot; seccomp as the runtime's default.
        { "securityContext", { { "runAsNonRoot", true }, { "seccompProfile", { { "type", "RuntimeDefault" } } } } },
        // One loader per node where the cluster allows it: loaders that share a node measure the node.
        { "topologySpreadConstraints",
            Json::array({ { { "maxSkew", 1 }, { "topologyKey", "kubernetes.io/hostname" },
                { "whenUnsatisfiable", "ScheduleAnyway" },
                { "labelSelector", { { "matchLabels", { { KUBE_RUN_LABEL, job } } } } } } }) },
        { "containers", Json::array({ container }) },
        { "volumes",
            Json::array({ { { "name", "config" }, { "configMap", { { "name", job } } } },
                { { "name", "control" }, { "emptyDir", Json::object() } } }) },
    };
    Json jobManifest { { "apiVersion", "batch/v1" }, { "kind", "Job" },
        { "metadata", { { "name", job }, { "namespace", o.nameSpace }, { "labels", labels(job) } } },
        { "spec",
            { { "completionMode", "Indexed" }, { "completions", loaders }, { "parallelism", loaders },
                { "backoffLimit", 0 }, { "ttlSecondsAfterFinished", o.ttlSeconds },
                { "template", { { "metadata", podMetadata }, { "spec", podSpec } } } } } };
    return Json { { "apiVersion", "v1" }, { "kind", "List" }, { "items", Json::array({ configMap, jobManifest }) } };
}

bool isScalar(const Json& j)
{
    return !j.is_object() && !j.is_array();
}

std::string scalar(const Json& j)
{
    return jsonText(j);
}

void emit(const Json& j, int indent, std::string& out);

// A value after "key:" or "- ": on the same line when scalar or empty, else below.
void emitValue(const Json& v, int indent, std::string& out)
{
    if (isScalar(v)) {
        out += " " + scalar(v) + "\n";
    } else if (v.empty()) {
        out += v.is_object() ? " {}\n" : " []\n";
    } else {
        out += "\n";
        emit(v, indent, out);
    }
}

void emit(const Json& j, int indent, std::string& out)
{
    const std::string pad(static_cast<size_t>(indent), ' ');
    if (j.is_object()) {
        for (auto it = j.begin(); it != j.end(); ++it) {
            out += pad + scalar(Json(it.key())) + ":";
            emitValue(it.value(), indent + 2, out);
        }
    } else if (j.is_array()) {
        for (const Json& item : j) {
            if (item.is_object() && !item.empty()) {
                // "- key: value" then the other keys under the first.
                std::string nested;
                emit(item, indent + 2, nested);
                out += pad + "- " + nested.substr(static_cast<size_t>(indent) + 2);
            } else {
                out += pad + "-";
                emitValue(item, indent + 2, out);
            }
        }
    } else {
        out += pad + scalar(j) + "\n";
    }
}

} // namespace

std::string defaultLoaderImage()
{
    return std::string("wrkbench-cli:") + engineVersion();
}

std::string newJobName()
{
    const std::time_t now = std::time(nullptr);
    std::tm tm {};
    gmtime_r(&now, &tm);
    std::random_device random;
    return fmt::format("wrkbench-{:04}{:02}{:02}-{:02}{:02}{:02}-{:04x}", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
        tm.tm_hour, tm.tm_min, tm.tm_sec, random() & 0xffff);
}

Result<std::string> kubeManifestJson(const KubeOptions& options, const std::string& configJson, unsigned loaders)
{
    auto files = podFilesOf(configJson);
    if (!files) return Error { files.error() };
    return jsonText(manifest(options, *files, loaders), 2);
}

Result<std::string> kubeManifestYaml(const KubeOptions& options, const std::string& configJson, unsigned loaders)
{
    auto files = podFilesOf(configJson);
    if (!files) return Error { files.error() };
    const Json list = manifest(options, *files, loaders);
    std::string out = "# wrkbench: " + std::to_string(loaders) + " loaders as an Indexed Job (kubectl create -f -)\n";
    for (const Json& item : list["items"]) {
        out += "---\n";
        emit(item, 0, out);
    }
    return out;
}

} // namespace wb
