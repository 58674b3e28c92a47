#include "run/connection.h"

#include "net/socket.h"

#include <unistd.h>

namespace wb {

void Connection::close()
{
    if (tls) tls->detach();
    if (fd >= 0) ::close(fd); // also removes it from the epoll set
    fd = -1;
    state = State::Idle;
    writeInterest = false;
    closeAfterResponse = false;
    if (session) session->reset();
}

IoStatus Connection::plainReadFd(char* buffer, size_t length, size_t& n)
{
    return plainRead(fd, buffer, length, n);
}

IoStatus Connection::plainWriteFd(const char* data, size_t length, size_t& n)
{
    return plainWrite(fd, data, length, n);
}

} // namespace wb
