#include "run/connection.h"

#include <unistd.h>

namespace wb {

void Connection::close()
{
    if (tls) tls->detach();
    if (tcp.fd() >= 0) ::close(tcp.fd()); // also removes it from the epoll set
    tcp.setFd(-1);
    udp.close();
    timerUs = UINT64_MAX;
    state = State::Idle;
    writeInterest = false;
    closeAfterResponse = false;
    delayedUntilUs = 0;
    if (session) session->reset();
}

} // namespace wb
