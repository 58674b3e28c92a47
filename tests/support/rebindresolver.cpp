// A resolver that rebinds, for the agent's attack tests (LD_PRELOAD into a real
// agent and the loaders it starts): getaddrinfo() of the name in
// $WB_REBIND_NAME answers $WB_REBIND_FIRST the first time, in any process, and
// $WB_REBIND_THEN every time after, as a DNS server with a zero TTL controlled
// by an attacker would. The count of lookups is kept in the file
// $WB_REBIND_COUNTER (one byte per lookup, appended under flock), so a test
// reads how often the name was resolved. Every other name goes to the real
// getaddrinfo. Only loopback addresses are ever given, by the test.

#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <netdb.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

using GetAddrInfo = int (*)(const char*, const char*, const addrinfo*, addrinfo**);

GetAddrInfo realGetAddrInfo()
{
    static GetAddrInfo real = reinterpret_cast<GetAddrInfo>(dlsym(RTLD_NEXT, "getaddrinfo"));
    return real;
}

/// Appends one byte to the counter file; returns how many lookups came before this one.
long countLookup(const char* path)
{
    const int fd = ::open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (fd < 0) return 0;
    ::flock(fd, LOCK_EX);
    struct stat info
    { };
    ::fstat(fd, &info);
    const long before = static_cast<long>(info.st_size);
    if (::write(fd, "x", 1) != 1) { }
    ::flock(fd, LOCK_UN);
    ::close(fd);
    return before;
}

} // namespace

extern "C" int getaddrinfo(const char* node, const char* service, const addrinfo* hints, addrinfo** res)
{
    const char* name = std::getenv("WB_REBIND_NAME");
    const char* first = std::getenv("WB_REBIND_FIRST");
    const char* then = std::getenv("WB_REBIND_THEN");
    const char* counter = std::getenv("WB_REBIND_COUNTER");
    if (!node || !name || !first || !then || !counter || ::strcasecmp(node, name) != 0)
        return realGetAddrInfo()(node, service, hints, res);
    const char* address = countLookup(counter) == 0 ? first : then;
    addrinfo numeric {};
    if (hints) numeric = *hints;
    numeric.ai_flags |= AI_NUMERICHOST;
    numeric.ai_flags &= ~AI_ADDRCONFIG;
    return realGetAddrInfo()(address, service, &numeric, res);
}
