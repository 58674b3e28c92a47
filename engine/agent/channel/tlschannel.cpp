#include "agent/channel/tlschannel.h"

#include "agent/channel/agentcredentials.h"
#include "common/clock.h"
#include "net/tlscontext.h"

#include <arpa/inet.h>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <mutex>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace wb {

namespace {

int remainingMs(uint64_t deadlineUs)
{
    const uint64_t now = monotonicNowUs();
    if (now >= deadlineUs) return 0;
    return static_cast<int>(std::min<uint64_t>((deadlineUs - now + 999) / 1000, 60'000));
}

bool waitFd(int fd, short events, uint64_t deadlineUs)
{
    for (;;) {
        pollfd p { fd, events, 0 };
        const int ms = remainingMs(deadlineUs);
        if (ms == 0) return false;
        const int n = ::poll(&p, 1, ms);
        if (n > 0) return true;
        if (n < 0 && errno != EINTR) return false;
    }
}

/// Non-blocking, and TCP keep-alive: a cut link is found in ~25 s even while a stream is
/// silent (a paused loader says nothing for long).
void prepareSocket(int fd)
{
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
    int on = 1, idle = 10, interval = 5, count = 3;
    ::setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof on);
    ::setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle);
    ::setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &interval, sizeof interval);
    ::setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &count, sizeof count);
}

} // namespace

int TlsChannel::waitFor(int sslError, uint64_t deadlineUs)
{
    if (sslError == SSL_ERROR_WANT_READ) return waitFd(m_fd, POLLIN, deadlineUs) ? 1 : 0;
    if (sslError == SSL_ERROR_WANT_WRITE) return waitFd(m_fd, POLLOUT, deadlineUs) ? 1 : 0;
    return -1;
}

Result<std::unique_ptr<TlsChannel>> TlsChannel::handshake(
    SSL_CTX* ctx, int fd, bool server, uint64_t deadlineUs, const std::string& verifyName)
{
    // OpenSSL writes with write(2): a peer that closed first would end the whole process with
    // SIGPIPE, the window's too (it talks to agents before any run ignores the signal).
    static std::once_flag ignoreSigpipe;
    std::call_once(ignoreSigpipe, [] { std::signal(SIGPIPE, SIG_IGN); });
    prepareSocket(fd);
    SSL* ssl = SSL_new(ctx);
    if (!ssl) {
        ::close(fd);
        return Error { "out of memory for a TLS session" };
    }
    SSL_set_fd(ssl, fd);
    std::unique_ptr<TlsChannel> channel(new TlsChannel(ssl, fd));
    if (!server && !verifyName.empty()) {
        X509_VERIFY_PARAM* param = SSL_get0_param(ssl);
        unsigned char ip[16];
        const bool literal
            = ::inet_pton(AF_INET, verifyName.c_str(), ip) == 1 || ::inet_pton(AF_INET6, verifyName.c_str(), ip) == 1;
        // An address is matched against the certificate's IP entries only, a name against its
        // DNS entries (no partial wildcards): OpenSSL checks it with the chain, in the handshake.
        const int set = literal ? X509_VERIFY_PARAM_set1_ip_asc(param, verifyName.c_str())
                                : X509_VERIFY_PARAM_set1_host(param, verifyName.c_str(), 0);
        if (set != 1) return Error { "cannot check the certificate's name: " + takeOpenSslError() };
        X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wold-style-cast" // inside OpenSSL's macro
        if (!literal) SSL_set_tlsext_host_name(ssl, verifyName.c_str()); // SNI is for names only
#pragma GCC diagnostic pop
    }
    for (;;) {
        ERR_clear_error();
        const int rc = server ? SSL_accept(ssl) : SSL_connect(ssl);
        if (rc == 1) return channel;
        const int waited = channel->waitFor(SSL_get_error(ssl, rc), deadlineUs);
        if (waited == 1) continue;
        if (waited == 0) return Error { "TLS handshake timed out" };
        const long verify = SSL_get_verify_result(ssl);
        if (!server && verify != X509_V_OK)
            return Error { std::string("the certificate is not trusted: ") + X509_verify_cert_error_string(verify) };
        return Error { "TLS handshake failed: " + takeOpenSslError() };
    }
}

Result<std::unique_ptr<TlsChannel>> TlsChannel::accept(SSL_CTX* ctx, int fd, uint64_t deadlineUs)
{
    return handshake(ctx, fd, true, deadlineUs);
}

Result<std::unique_ptr<TlsChannel>> TlsChannel::connect(
    SSL_CTX* ctx, const std::string& host, uint16_t port, uint64_t deadlineUs, const std::string& verifyName)
{
    addrinfo hints {};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    const std::string service = std::to_string(port);
    if (int rc = ::getaddrinfo(host.c_str(), service.c_str(), &hints, &found); rc != 0)
        return Error { fmt::format("cannot resolve {}: {}", host, gai_strerror(rc)) };
    std::string lastError = "no address";
    int fd = -1;
    for (addrinfo* ai = found; ai && fd < 0; ai = ai->ai_next) {
        fd = ::socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, ai->ai_protocol);
        if (fd < 0) continue;
        int rc = ::connect(fd, ai->ai_addr, ai->ai_addrlen);
        if (rc != 0 && errno == EINPROGRESS) {
            if (!waitFd(fd, POLLOUT, deadlineUs)) {
                lastError = "connect timed out";
                ::close(fd);
                fd = -1;
                continue;
            }
            int soError = 0;
            socklen_t len = sizeof soError;
            ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &soError, &len);
            rc = soError == 0 ? 0 : -1;
            errno = soError;
        }
        if (rc != 0) {
            lastError = std::strerror(errno);
            ::close(fd);
            fd = -1;
        }
    }
    ::freeaddrinfo(found);
    if (fd < 0) return Error { fmt::format("cannot connect to {}:{}: {}", host, port, lastError) };
    auto channel = handshake(ctx, fd, false, deadlineUs, verifyName);
    if (!channel) return Error { fmt::format("{}:{}: {}", host, port, channel.error()) };
    return channel;
}

TlsChannel::~TlsChannel()
{
    if (m_ssl) {
        SSL_shutdown(m_ssl); // best effort, non-blocking: a close_notify if it fits
        SSL_free(m_ssl);
    }
    if (m_fd >= 0) ::close(m_fd);
}

long TlsChannel::read(char* buffer, size_t size, uint64_t deadlineUs)
{
    for (;;) {
        ERR_clear_error();
        size_t got = 0;
        const int rc = SSL_read_ex(m_ssl, buffer, size, &got);
        if (rc == 1) return static_cast<long>(got);
        const int err = SSL_get_error(m_ssl, rc);
        if (err == SSL_ERROR_ZERO_RETURN) return 0;
        if (err == SSL_ERROR_SYSCALL && ERR_peek_error() == 0) return 0; // closed without close_notify
        const int waited = waitFor(err, deadlineUs);
        if (waited == 1) continue;
        if (waited == 0) return TIMED_OUT;
        m_error = err == SSL_ERROR_SYSCALL ? std::string(std::strerror(errno)) : takeOpenSslError();
        return FAILED;
    }
}

Status TlsChannel::writeAll(std::string_view data, uint64_t deadlineUs)
{
    while (!data.empty()) {
        ERR_clear_error();
        size_t wrote = 0;
        const int rc = SSL_write_ex(m_ssl, data.data(), data.size(), &wrote);
        if (rc == 1) {
            data.remove_prefix(wrote);
            continue;
        }
        const int err = SSL_get_error(m_ssl, rc);
        const int waited = waitFor(err, deadlineUs);
        if (waited == 1) continue;
        if (waited == 0) return Error { "timed out sending" };
        return Error { err == SSL_ERROR_SYSCALL ? std::string(std::strerror(errno)) : takeOpenSslError() };
    }
    return {};
}

std::string TlsChannel::peerFingerprint() const
{
    X509* cert = SSL_get1_peer_certificate(m_ssl);
    if (!cert) return {};
    std::string out = certificateFingerprint(cert);
    X509_free(cert);
    return out;
}

} // namespace wb
