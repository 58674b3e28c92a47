#pragma once

namespace wb {

/// Outcome of one non-blocking transport operation.
enum class IoStatus {
    Ok, ///< progress was made (bytes moved, handshake finished)
    WantRead, ///< would block until the socket is readable
    WantWrite, ///< would block until the socket is writable
    Closed, ///< the peer closed the connection (read returned 0)
    Error, ///< the connection failed; errno or the TLS error tells why
};

} // namespace wb
