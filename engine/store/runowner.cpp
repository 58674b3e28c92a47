#include "store/runowner.h"

#include <climits>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace wb {

namespace {

std::string firstLineOf(const std::string& path)
{
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line;
}

std::string pidNamespace()
{
    char buf[128];
    const ssize_t n = ::readlink("/proc/self/ns/pid", buf, sizeof buf - 1);
    return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
}

// Field 22 of /proc/PID/stat: start time in clock ticks since boot; "" when
// there is no such process or it is a zombie (dead, not yet reaped). The
// command name (field 2) may contain spaces and parentheses: count from the last ')'.
std::string startTimeOf(pid_t pid)
{
    const std::string stat = firstLineOf("/proc/" + std::to_string(pid) + "/stat");
    const auto close = stat.rfind(')');
    if (close == std::string::npos) return {};
    std::istringstream rest(stat.substr(close + 1));
    std::string state, field;
    rest >> state;
    if (state == "Z" || state == "X") return {};
    for (int i = 4; i <= 22 && rest >> field; ++i) { }
    return rest ? field : std::string();
}

struct Token
{
    std::string bootId, pidNs, startTime;
};

Token splitToken(const std::string& token)
{
    Token t;
    const auto a = token.find('/');
    const auto b = token.rfind('/');
    if (a == std::string::npos || a == b) return t;
    t.bootId = token.substr(0, a);
    t.pidNs = token.substr(a + 1, b - a - 1);
    t.startTime = token.substr(b + 1);
    return t;
}

} // namespace

std::string localHostName()
{
    char buf[HOST_NAME_MAX + 1] = {};
    if (::gethostname(buf, sizeof buf - 1) != 0) return {};
    return buf;
}

unsigned localCpuCount()
{
    const long n = ::sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? static_cast<unsigned>(n) : 0;
}

RunOwner RunOwner::current()
{
    RunOwner o;
    o.hostName = localHostName();
    o.pid = ::getpid();
    // A '/' would break splitting; the pid namespace reads "pid:[4026531836]".
    o.token = firstLineOf("/proc/sys/kernel/random/boot_id") + "/" + pidNamespace() + "/" + startTimeOf(o.pid);
    return o;
}

OwnerState ownerState(const RunOwner& owner)
{
    const RunOwner self = RunOwner::current();
    if (owner.hostName != self.hostName || owner.pid <= 0) return OwnerState::Alive;
    const Token theirs = splitToken(owner.token);
    const Token ours = splitToken(self.token);
    if (theirs.bootId.empty() || ours.bootId.empty()) return OwnerState::Alive; // cannot tell
    if (theirs.bootId != ours.bootId) return OwnerState::Dead; // the host rebooted since
    if (theirs.pidNs != ours.pidNs) return OwnerState::Alive; // another container: its pids are not ours to see
    const std::string start = startTimeOf(owner.pid);
    if (start.empty()) return OwnerState::Dead; // no such process
    return start == theirs.startTime ? OwnerState::Alive : OwnerState::Dead; // else the pid was reused
}

} // namespace wb
