// waitForEvents where the kernel has no epoll_pwait2 (Linux before 5.11, valgrind): a
// seccomp filter makes the call fail with ENOSYS in a child process, as such a kernel would.
// Before the fallback existed, a worker there spun without ever seeing an event and a run
// counted 0 requests without a word.

#include "net/eventwait.h"
#include "run/runcontroller.h"
#include "serve/targetserver.h"

#include <chrono>
#include <cstddef>
#include <gtest/gtest.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace wb;

namespace {

// Makes epoll_pwait2 answer ENOSYS in this process from now on; true when the filter is in.
bool denyEpollPwait2()
{
    sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_epoll_pwait2, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    sock_fprog program { static_cast<unsigned short>(sizeof filter / sizeof filter[0]), filter };
    return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 && prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) == 0;
}

// Runs body in a child without epoll_pwait2; the child's exit code is body's (0 = passed).
int inChildWithoutPwait2(int (*body)())
{
    const pid_t pid = fork();
    if (pid == 0) _exit(denyEpollPwait2() ? body() : 100);
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 200 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

int waitsAndWakes()
{
    epoll_event events[4];
    timespec noTimeout {};
    const int epollFd = epoll_create1(0);
    if (syscall(__NR_epoll_pwait2, epollFd, events, 4, &noTimeout, nullptr) != -1 || errno != ENOSYS) return 1;
    const int wake = eventfd(0, EFD_NONBLOCK);
    epoll_event ev { EPOLLIN, {} };
    ev.data.u64 = 7;
    epoll_ctl(epollFd, EPOLL_CTL_ADD, wake, &ev);

    // No event: the wait lasts at least the timeout (rounded up to a millisecond, never early).
    const auto before = std::chrono::steady_clock::now();
    if (waitForEvents(epollFd, events, 4, 1'500'000) != 0) return 2;
    if (std::chrono::steady_clock::now() - before < std::chrono::microseconds(1500)) return 3;

    // An event: it is returned, with its data.
    const uint64_t one = 1;
    if (write(wake, &one, sizeof one) != sizeof one) return 4;
    if (waitForEvents(epollFd, events, 4, WAIT_FOREVER_NS) != 1 || events[0].data.u64 != 7) return 5;
    return 0;
}

int runCountsRequests()
{
    TargetServer server({});
    if (!server.start().ok()) return 10;
    RunConfig cfg;
    cfg.request.url = *parseUrl("http://127.0.0.1:" + std::to_string(server.port()) + "/");
    cfg.threads = 1;
    cfg.connections = 4;
    cfg.durationUs = 400'000;
    cfg.intervalUs = 100'000;
    RunController run(cfg);
    if (!run.prepare().ok()) return 11;
    const RunResult result = run.run();
    if (result.requests == 0) return 12;
    if ((result.errors.transportErrors() + result.status.non2xx()) != 0) return 13;
    return 0;
}

} // namespace

TEST(EventWait, WaitsAndWakesWithoutEpollPwait2)
{
    EXPECT_EQ(inChildWithoutPwait2(waitsAndWakes), 0);
}

TEST(EventWait, ARunCountsRequestsWithoutEpollPwait2)
{
    EXPECT_EQ(inChildWithoutPwait2(runCountsRequests), 0);
}

TEST(EventWait, TimesOutAndWakesWithEpollPwait2)
{
    const int epollFd = epoll_create1(0);
    const int wake = eventfd(0, EFD_NONBLOCK);
    epoll_event ev { EPOLLIN, {} };
    ev.data.u64 = 9;
    ASSERT_EQ(epoll_ctl(epollFd, EPOLL_CTL_ADD, wake, &ev), 0);
    epoll_event events[4];
    const auto before = std::chrono::steady_clock::now();
    EXPECT_EQ(waitForEvents(epollFd, events, 4, 300'000), 0);
    EXPECT_GE(std::chrono::steady_clock::now() - before, std::chrono::microseconds(300));
    const uint64_t one = 1;
    ASSERT_EQ(write(wake, &one, sizeof one), static_cast<ssize_t>(sizeof one));
    EXPECT_EQ(waitForEvents(epollFd, events, 4, WAIT_FOREVER_NS), 1);
    const uint64_t tag = events[0].data.u64; // epoll_event is packed: its u64 is not aligned for a reference
    EXPECT_EQ(tag, 9u);
    close(wake);
    close(epollFd);
}
