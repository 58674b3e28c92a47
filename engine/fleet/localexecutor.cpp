#include "fleet/localexecutor.h"

#include "fleet/controlfiles.h"
#include "fleet/subprocess.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

namespace wb {

std::string thisExecutable()
{
    std::error_code ec;
    const auto path = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::string() : path.string();
}

LocalExecutor::LocalExecutor(std::string cliPath)
    : m_cliPath(std::move(cliPath))
{ }

LocalExecutor::~LocalExecutor()
{
    cleanup();
}

Status LocalExecutor::launch(const std::string& configJson, unsigned count, const std::atomic<bool>&)
{
    if (m_cliPath.empty() || ::access(m_cliPath.c_str(), X_OK) != 0)
        return Error { "cannot run loaders: '" + m_cliPath + "' is not an executable wrkbench-cli" };
    char pattern[] = "/tmp/wrkbench-loaders-XXXXXX";
    if (!::mkdtemp(pattern))
        return Error { std::string("cannot create a directory for the loaders: ") + std::strerror(errno) };
    m_dir = pattern;
    if (auto st = writeControlFile(m_dir, "config.json", configJson); !st) return st;

    for (unsigned i = 0; i < count; ++i) {
        Child child;
        child.controlDir = fmt::format("{}/loader-{}", m_dir, i);
        std::filesystem::create_directory(child.controlDir);
        // Each in its own process group: a terminal's Ctrl-C reaches the coordinator only,
        // which stops the loaders through their control files, so each still reports.
        auto process = startStreaming({ m_cliPath, "loader", "--config", m_dir + "/config.json", "--shard",
            fmt::format("{}/{}", i, count), "--control-dir", child.controlDir });
        if (!process) return Error { fmt::format("cannot start loader {}: {}", i, process.error()) };
        child.process = *process;
        m_children.push_back(std::move(child));
    }
    return {};
}

int LocalExecutor::streamFd(unsigned loader) const
{
    return loader < m_children.size() ? m_children[loader].process.fd : -1;
}

Status LocalExecutor::tellAll(const std::string& name, const std::string& content)
{
    for (const Child& c : m_children)
        if (auto st = writeControlFile(c.controlDir, name, content); !st) return st;
    return {};
}

std::string LocalExecutor::endReason(unsigned loader)
{
    if (loader >= m_children.size()) return "never started";
    Child& c = m_children[loader];
    if (!c.reaped && c.process.pid > 0) {
        // Its output ended: it exits now, give it a moment before asking.
        for (int i = 0; i < 100 && !c.reaped; ++i) {
            if (::waitpid(c.process.pid, &c.status, WNOHANG) == c.process.pid)
                c.reaped = true;
            else
                ::usleep(10'000);
        }
    }
    if (!c.reaped) return "its output ended, the process is still running";
    if (WIFSIGNALED(c.status))
        return fmt::format("killed by signal {} ({})", WTERMSIG(c.status), strsignal(WTERMSIG(c.status)));
    return fmt::format("exited with status {} before its result", WEXITSTATUS(c.status));
}

std::string LocalExecutor::where(unsigned loader) const
{
    return loader < m_children.size() ? fmt::format("pid {}", m_children[loader].process.pid) : std::string();
}

void LocalExecutor::cleanup()
{
    for (Child& c : m_children) {
        if (c.reaped) c.process.pid = -1; // its status is known; the pid may be another's by now
        endStreaming(c.process);
        c.reaped = true;
    }
    if (!m_dir.empty()) {
        std::error_code ec;
        std::filesystem::remove_all(m_dir, ec);
        m_dir.clear();
    }
}

} // namespace wb
