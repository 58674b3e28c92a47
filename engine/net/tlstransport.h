#pragma once
// TLS transport for one connection: a non-blocking SSL object over the
// connection's socket. Keeps the last session so a reconnect resumes it.
// A StreamTransport like plain TCP (net/transport.h).

#include "net/iostatus.h"
#include "net/transport.h"

#include <cstddef>
#include <string>
#include <string_view>

using SSL = struct ssl_st;
using SSL_SESSION = struct ssl_session_st;

namespace wb {

class TlsContext;

class TlsTransport final : public StreamTransport
{
public:
    TlsTransport() = default;
    ~TlsTransport(); // not virtual: StreamTransport's destructor is protected
    TlsTransport(const TlsTransport&) = delete;
    TlsTransport& operator=(const TlsTransport&) = delete;

    /// Creates the SSL object for a fresh socket: SNI and host name
    /// verification for serverName (IP literals are checked as IP SANs).
    bool attach(const TlsContext& context, int fd, const std::string& serverName);
    /// Frees the SSL object, keeping its session for the next attach().
    void detach();

    IoStatus handshake();
    IoStatus read(char* buffer, size_t length, size_t& bytesRead) override;
    IoStatus write(const char* data, size_t length, size_t& bytesWritten) override;
    /// Decrypted bytes already buffered inside OpenSSL (the socket may be empty).
    bool hasPendingInput() const override;
    /// The ALPN protocol the server chose in the handshake ("http/1.1", "h2"); empty when it
    /// chose none or no handshake finished. Valid until detach().
    std::string_view negotiatedProtocol() const override;
    /// Human reason for the last failure, e.g. "certificate verify failed: self-signed certificate".
    std::string lastError() const { return m_lastError; }

private:
    IoStatus mapError(int rc);
    SSL* m_ssl = nullptr;
    SSL_SESSION* m_session = nullptr;
    std::string m_lastError;
};

} // namespace wb
