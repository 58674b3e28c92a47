#pragma once
// One TLS connection of the agent's control traffic, on either side, with a
// deadline on every step: a client that sends its request a byte a minute, or
// an agent that stops answering, costs a bounded wait, never a stuck thread.
// (The load itself goes through net/tlstransport.h on the engine's event loops.)

#include "common/result.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

using SSL_CTX = struct ssl_ctx_st;
using SSL = struct ssl_st;

namespace wb {

class TlsChannel
{
public:
    /// The agent's side: the TLS handshake on an accepted socket (taken over, closed on failure).
    static Result<std::unique_ptr<TlsChannel>> accept(SSL_CTX* ctx, int fd, uint64_t deadlineUs);
    /// The client's side: TCP connect to host:port (a name or an address), then the handshake.
    /// With verifyName (a context that verifies the chain), the certificate must also name it
    /// (a DNS name, or an IP address in its subjectAltName), checked in the handshake: a
    /// certificate the CA signed for another host is refused before a byte is sent.
    static Result<std::unique_ptr<TlsChannel>> connect(
        SSL_CTX* ctx, const std::string& host, uint16_t port, uint64_t deadlineUs, const std::string& verifyName = {});
    ~TlsChannel();
    TlsChannel(const TlsChannel&) = delete;
    TlsChannel& operator=(const TlsChannel&) = delete;

    static constexpr long TIMED_OUT = -2;
    static constexpr long FAILED = -1;
    /// Bytes read (> 0), 0 when the peer closed, TIMED_OUT at the deadline (monotonic µs), or
    /// FAILED (error() says why).
    long read(char* buffer, size_t size, uint64_t deadlineUs);
    Status writeAll(std::string_view data, uint64_t deadlineUs);
    const std::string& error() const { return m_error; }
    SSL* ssl() const { return m_ssl; }
    /// SHA-256 of the peer's certificate (DER), 64 lower-case hex digits; "" when it sent none.
    std::string peerFingerprint() const;

private:
    TlsChannel(SSL* ssl, int fd)
        : m_ssl(ssl)
        , m_fd(fd)
    { }
    /// The TLS handshake on a connected socket (taken over), either side.
    static Result<std::unique_ptr<TlsChannel>> handshake(
        SSL_CTX* ctx, int fd, bool server, uint64_t deadlineUs, const std::string& verifyName = {});
    /// Waits for what OpenSSL asked (SSL_ERROR_WANT_*), up to the deadline.
    int waitFor(int sslError, uint64_t deadlineUs);

    SSL* m_ssl;
    int m_fd;
    std::string m_error;
};

} // namespace wb
