#include "fleet/subprocess.h"

#include "common/clock.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <spawn.h>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace wb {

namespace {

std::vector<char*> argvOf(std::vector<std::string>& args)
{
    std::vector<char*> out;
    for (std::string& a : args)
        out.push_back(a.data());
    out.push_back(nullptr);
    return out;
}

} // namespace

bool findProgram(const std::string& program)
{
    if (program.find('/') != std::string::npos) return ::access(program.c_str(), X_OK) == 0;
    const char* path = std::getenv("PATH");
    std::stringstream dirs(path ? path : "/usr/bin:/bin");
    for (std::string dir; std::getline(dirs, dir, ':');)
        if (!dir.empty() && ::access((dir + "/" + program).c_str(), X_OK) == 0) return true;
    return false;
}

Result<ProcessOutput> runProcess(const std::vector<std::string>& command, const std::string& input, uint64_t timeoutUs)
{
    int in[2], out[2], err[2];
    if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0)
        return Error { std::string("pipe: ") + std::strerror(errno) };
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, err[1], STDERR_FILENO);
    std::vector<std::string> args = command;
    std::vector<char*> argv = argvOf(args);
    pid_t pid = -1;
    const int rv = ::posix_spawnp(&pid, args[0].c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(in[0]);
    ::close(out[1]);
    ::close(err[1]);
    if (rv != 0) {
        ::close(in[1]);
        ::close(out[0]);
        ::close(err[0]);
        return Error { fmt::format("cannot run {}: {}", command[0], std::strerror(rv)) };
    }
    ::signal(SIGPIPE, SIG_IGN); // a child that does not read its input must not kill us
    ProcessOutput result;
    size_t written = 0;
    int inFd = in[1];
    if (input.empty()) {
        ::close(inFd);
        inFd = -1;
    }
    const uint64_t deadline = monotonicNowUs() + timeoutUs;
    bool outOpen = true, errOpen = true, killed = false;
    char buffer[65536];
    while (outOpen || errOpen) {
        pollfd fds[3] = { { out[0], POLLIN, 0 }, { err[0], POLLIN, 0 }, { inFd, POLLOUT, 0 } };
        const uint64_t now = monotonicNowUs();
        if (now >= deadline && !killed) {
            ::kill(pid, SIGKILL);
            killed = true;
        }
        const int waitMs = killed ? 100 : static_cast<int>(std::min<uint64_t>((deadline - now) / 1000 + 1, 1000));
        ::poll(fds, inFd >= 0 ? 3 : 2, waitMs);
        if (fds[2].revents & (POLLOUT | POLLERR | POLLHUP)) {
            const ssize_t n = ::write(inFd, input.data() + written, input.size() - written);
            if (n > 0) written += static_cast<size_t>(n);
            if (n < 0 || written == input.size()) {
                ::close(inFd);
                inFd = -1;
            }
        }
        for (int k = 0; k < 2; ++k) {
            if (!(fds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            const ssize_t n = ::read(fds[k].fd, buffer, sizeof buffer);
            if (n > 0) {
                (k == 0 ? result.out : result.err).append(buffer, static_cast<size_t>(n));
            } else if (n == 0 || errno != EINTR) {
                (k == 0 ? outOpen : errOpen) = false;
            }
        }
    }
    if (inFd >= 0) ::close(inFd);
    ::close(out[0]);
    ::close(err[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    result.exitCode = WIFEXITED(status) && !killed ? WEXITSTATUS(status) : -1;
    return result;
}

Result<StreamingProcess> startStreaming(const std::vector<std::string>& command)
{
    int out[2];
    if (::pipe2(out, O_CLOEXEC) != 0) return Error { std::string("pipe: ") + std::strerror(errno) };
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDERR_FILENO);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attributes, 0);
    std::vector<std::string> args = command;
    std::vector<char*> argv = argvOf(args);
    StreamingProcess p;
    const int rv = ::posix_spawnp(&p.pid, args[0].c_str(), &actions, &attributes, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    ::close(out[1]);
    if (rv != 0) {
        ::close(out[0]);
        return Error { fmt::format("cannot run {}: {}", command[0], std::strerror(rv)) };
    }
    p.fd = out[0];
    ::fcntl(p.fd, F_SETFL, ::fcntl(p.fd, F_GETFL) | O_NONBLOCK);
    return p;
}

int endStreaming(StreamingProcess& p)
{
    int status = 0;
    if (p.pid > 0) {
        if (::waitpid(p.pid, &status, WNOHANG) != p.pid) {
            ::kill(p.pid, SIGTERM);
            ::waitpid(p.pid, &status, 0);
        }
        p.pid = -1;
    }
    if (p.fd >= 0) ::close(p.fd);
    p.fd = -1;
    return status;
}

} // namespace wb
