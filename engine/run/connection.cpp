#include "run/connection.h"

#include "common/clock.h"

#include <unistd.h>

namespace wb {

void Connection::close()
{
    if (tls) tls->detach();
    if (tcp.fd() >= 0) ::close(tcp.fd()); // also removes it from the epoll set
    tcp.setFd(-1);
    if (udp.fd() >= 0 && session) {
        // A QUIC server keeps a connection until its idle timeout unless told (TCP's close
        // tells it itself): one CONNECTION_CLOSE, best effort (a full socket buffer drops it).
        const std::span<const char> farewell = session->closingDatagrams(monotonicNowUs());
        size_t sent = 0;
        if (!farewell.empty()) udp.send(farewell, farewell.size(), sent);
    }
    udp.close();
    timerUs = UINT64_MAX;
    state = State::Idle;
    writeInterest = false;
    closeAfterResponse = false;
    dueBehindWrite = false;
    requestsLeft = UINT32_MAX;
    retireAtUs = UINT64_MAX;
    delayedUntilUs = 0;
    if (session) session->reset();
}

} // namespace wb
