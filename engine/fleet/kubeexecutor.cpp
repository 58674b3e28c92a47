#include "fleet/kubeexecutor.h"

#include "common/clock.h"
#include "common/jsontext.h"

#include <algorithm>
#include <atomic>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <thread>

namespace wb {

namespace {

using Json = nlohmann::json;

std::string firstLine(const std::string& text)
{
    std::string line = text.substr(0, text.find('\n'));
    while (!line.empty() && (line.back() == '\r' || line.back() == ' '))
        line.pop_back();
    return line;
}

// Why a pod cannot start, from its container statuses (an image that cannot be pulled, ...).
std::string podProblem(const Json& pod)
{
    const Json& statuses = pod["status"].value("containerStatuses", Json::array());
    for (const Json& c : statuses) {
        const Json& waiting = c["state"].value("waiting", Json::object());
        const std::string reason = waiting.value("reason", "");
        if (reason == "ErrImagePull" || reason == "ImagePullBackOff" || reason == "InvalidImageName")
            return fmt::format("image pull failed for {}: {}", c.value("image", "?"), waiting.value("message", reason));
        if (reason == "CreateContainerConfigError" || reason == "CrashLoopBackOff")
            return fmt::format("{}: {}", reason, waiting.value("message", ""));
        const Json& terminated = c["state"].value("terminated", Json::object());
        if (!terminated.empty() && terminated.value("exitCode", 0) != 0)
            return fmt::format("its container exited with {} ({})", terminated.value("exitCode", 0),
                terminated.value("reason", "error"));
    }
    if (pod["status"].value("phase", "") == "Failed")
        return "it failed: " + pod["status"].value("message", "no reason given");
    return {};
}

} // namespace

KubeExecutor::KubeExecutor(KubeOptions options)
    : m_options(std::move(options))
{
    if (m_options.jobName.empty()) m_options.jobName = newJobName();
}

KubeExecutor::~KubeExecutor()
{
    cleanup();
}

const std::vector<std::pair<std::string, std::string>>& KubeExecutor::requiredAccess()
{
    static const std::vector<std::pair<std::string, std::string>> verbs { { "create", "configmaps" },
        { "create", "jobs" }, { "list", "pods" }, { "get", "pods/log" }, { "create", "pods/exec" },
        { "delete", "jobs" }, { "delete", "configmaps" } };
    return verbs;
}

std::vector<std::string> KubeExecutor::kubectl(std::vector<std::string> args) const
{
    std::vector<std::string> out { m_options.kubectl };
    if (!m_options.context.empty()) out.insert(out.end(), { "--context", m_options.context });
    out.insert(out.end(), { "-n", m_options.nameSpace });
    out.insert(out.end(), args.begin(), args.end());
    return out;
}

Result<ProcessOutput> KubeExecutor::call(
    std::vector<std::string> args, const std::string& input, uint64_t timeoutUs) const
{
    return runProcess(kubectl(std::move(args)), input, timeoutUs);
}

Status KubeExecutor::checkAccess()
{
    std::vector<std::string> missing;
    for (const auto& [verb, resource] : requiredAccess()) {
        auto r = call({ "auth", "can-i", verb, resource });
        if (!r) return Error { r.error() };
        const std::string answer = firstLine(r->out);
        if (answer == "yes") continue;
        if (answer != "no") {
            const std::string why = firstLine(r->err.empty() ? r->out : r->err);
            return Error { "kubectl cannot reach the cluster: " + (why.empty() ? "no answer" : why) };
        }
        missing.push_back(verb + " " + resource);
    }
    if (missing.empty()) return {};
    std::string list;
    for (const std::string& m : missing)
        list += (list.empty() ? "" : ", ") + m;
    return Error { fmt::format("no access in namespace '{}': missing {} (packaging/wrkbench-loader-role.yaml grants "
                               "what a run needs)",
        m_options.nameSpace, list) };
}

Status KubeExecutor::waitForPods(unsigned count, const std::atomic<bool>& stop)
{
    const uint64_t deadline = monotonicNowUs() + m_options.podsRunningTimeoutUs;
    for (;;) {
        auto r = call({ "get", "pods", "-l", std::string(KUBE_RUN_LABEL) + "=" + m_options.jobName, "-o", "json" });
        if (!r) return Error { r.error() };
        if (r->exitCode != 0) return Error { "kubectl get pods: " + firstLine(r->err) };
        auto parsed = parseJsonText<Json>(r->out);
        if (!parsed) return Error { "kubectl get pods answered something that is not JSON" };
        const Json pods = std::move(*parsed);
        std::vector<std::string> names(count);
        unsigned running = 0;
        for (const Json& pod : pods.value("items", Json::array())) {
            const std::string name = pod["metadata"].value("name", "");
            const std::string problem = podProblem(pod);
            if (!problem.empty()) return Error { fmt::format("pod {}: {}", name, problem) };
            const Json& annotations = pod["metadata"].value("annotations", Json::object());
            const std::string index = annotations.value("batch.kubernetes.io/job-completion-index", "");
            unsigned i = 0;
            try {
                i = static_cast<unsigned>(std::stoul(index));
            } catch (...) {
                continue;
            }
            if (i >= count) continue;
            const std::string phase = pod["status"].value("phase", "");
            if (phase == "Running" || phase == "Succeeded") {
                names[i] = name;
                ++running;
            }
        }
        if (running == count) {
            m_pods = names;
            return {};
        }
        if (stop.load()) return Error { "stopped while the pods were starting" };
        if (monotonicNowUs() > deadline)
            return Error { fmt::format("{} of {} pods were not running after {} s (scheduling, image pull?)",
                count - running, count, m_options.podsRunningTimeoutUs / 1'000'000) };
        std::this_thread::sleep_for(std::chrono::seconds(1));
    }
}

Status KubeExecutor::launch(const std::string& configJson, unsigned count, const std::atomic<bool>& stop)
{
    if (!findProgram(m_options.kubectl))
        return Error { "kubectl not found ('" + m_options.kubectl + "'): install it or give --kubectl PATH" };
    auto manifest = kubeManifestJson(m_options, configJson, count); // what cannot travel is said first
    if (!manifest) return Error { manifest.error() };
    if (auto st = checkAccess(); !st) return st;
    auto applied = call({ "create", "-f", "-" }, *manifest);
    if (!applied) return Error { applied.error() };
    if (applied->exitCode != 0) return Error { "kubectl create: " + firstLine(applied->err) };
    m_applied = true;
    if (auto st = waitForPods(count, stop); !st) return st;
    for (const std::string& pod : m_pods) {
        auto logs = startStreaming(kubectl({ "logs", "-f", pod, "-c", "loader" }));
        if (!logs) return Error { logs.error() };
        m_logs.push_back(*logs);
    }
    return {};
}

int KubeExecutor::streamFd(unsigned loader) const
{
    return loader < m_logs.size() ? m_logs[loader].fd : -1;
}

Status KubeExecutor::tellAll(const std::string& name, const std::string& content)
{
    // One exec per pod, TELL_PARALLELISM at a time (each worker takes the next pod until none is
    // left): the common start leaves tellAllowanceUs() for them, one wave per TELL_PARALLELISM pods.
    std::vector<std::string> errors(m_pods.size());
    const std::string path = std::string(KUBE_CONTROL_DIR) + "/" + name;
    std::atomic<size_t> next { 0 };
    auto worker = [&] {
        for (size_t i; (i = next.fetch_add(1)) < m_pods.size();) {
            auto r = call({ "exec", m_pods[i], "-c", "loader", "--", "sh", "-c",
                R"(printf %s "$1" > "$2.tmp" && mv "$2.tmp" "$2")", "sh", content, path });
            if (!r)
                errors[i] = r.error();
            else if (r->exitCode != 0)
                errors[i] = firstLine(r->err);
        }
    };
    std::vector<std::thread> workers;
    for (size_t w = 0; w < std::min<size_t>(TELL_PARALLELISM, m_pods.size()); ++w)
        workers.emplace_back(worker);
    for (std::thread& t : workers)
        t.join();
    for (size_t i = 0; i < errors.size(); ++i)
        if (!errors[i].empty()) return Error { fmt::format("kubectl exec into {}: {}", m_pods[i], errors[i]) };
    return {};
}

std::string KubeExecutor::endReason(unsigned loader)
{
    if (loader >= m_pods.size()) return "its pod never ran";
    auto r = call({ "get", "pod", m_pods[loader], "-o", "json" });
    if (r && r->exitCode == 0) {
        try {
            const std::string problem = podProblem(parseJsonTextOrDiscarded<Json>(r->out));
            if (!problem.empty()) return "pod " + m_pods[loader] + ": " + problem;
        } catch (const Json::exception&) { }
    }
    return "pod " + m_pods[loader] + ": its log ended without a result";
}

std::string KubeExecutor::where(unsigned loader) const
{
    return loader < m_pods.size() ? m_pods[loader] : m_options.jobName;
}

void KubeExecutor::cleanup()
{
    for (StreamingProcess& p : m_logs)
        endStreaming(p);
    m_logs.clear();
    if (m_applied && !m_options.keep) {
        // The pods go with their Job; the ConfigMap was made for this run alone.
        call({ "delete", "job", m_options.jobName, "--wait=false", "--ignore-not-found" });
        call({ "delete", "configmap", m_options.jobName, "--wait=false", "--ignore-not-found" });
    }
    m_applied = false;
}

} // namespace wb
