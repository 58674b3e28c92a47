#include "net/transport.h"

#include "net/socket.h"

namespace wb {

IoStatus TcpTransport::read(char* buffer, size_t length, size_t& bytesRead)
{
    return plainRead(m_fd, buffer, length, bytesRead);
}

IoStatus TcpTransport::write(const char* data, size_t length, size_t& bytesWritten)
{
    return plainWrite(m_fd, data, length, bytesWritten);
}

} // namespace wb
