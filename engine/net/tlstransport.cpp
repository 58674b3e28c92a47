#include "net/tlstransport.h"

#include "net/tlscontext.h"

#include <cerrno>
#include <cstring>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

namespace wb {

TlsTransport::~TlsTransport()
{
    detach();
    if (m_session) SSL_SESSION_free(m_session);
}

bool TlsTransport::attach(const TlsContext& context, int fd, const std::string& serverName)
{
    detach();
    m_lastError.clear();
    m_ssl = SSL_new(context.get());
    if (!m_ssl || SSL_set_fd(m_ssl, fd) != 1) {
        m_lastError = "cannot create TLS connection: " + takeOpenSslError();
        return false;
    }
    const bool isIpLiteral
        = serverName.find(':') != std::string::npos || serverName.find_first_not_of("0123456789.") == std::string::npos;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wold-style-cast" // inside OpenSSL's macro
    if (!isIpLiteral) SSL_set_tlsext_host_name(m_ssl, serverName.c_str()); // SNI is for names only
#pragma GCC diagnostic pop
    if (context.verifiesPeer()) {
        X509_VERIFY_PARAM* param = SSL_get0_param(m_ssl);
        if (isIpLiteral)
            X509_VERIFY_PARAM_set1_ip_asc(param, serverName.c_str());
        else
            X509_VERIFY_PARAM_set1_host(param, serverName.c_str(), 0);
    }
    if (m_session) SSL_set_session(m_ssl, m_session);
    SSL_set_connect_state(m_ssl);
    return true;
}

void TlsTransport::detach()
{
    if (!m_ssl) return;
    if (SSL_SESSION* session = SSL_get1_session(m_ssl)) {
        if (SSL_SESSION_is_resumable(session)) {
            if (m_session) SSL_SESSION_free(m_session);
            m_session = session;
        } else {
            SSL_SESSION_free(session);
        }
    }
    // No close_notify round trip: the socket is closed right after, as wrk does. Marking
    // the shutdown as done matters: SSL_free() of a connection that was not shut down
    // flags its session as not resumable.
    SSL_set_shutdown(m_ssl, SSL_SENT_SHUTDOWN | SSL_RECEIVED_SHUTDOWN);
    SSL_free(m_ssl);
    m_ssl = nullptr;
}

IoStatus TlsTransport::mapError(int rc)
{
    const int err = SSL_get_error(m_ssl, rc);
    switch (err) {
    case SSL_ERROR_WANT_READ:
        return IoStatus::WantRead;
    case SSL_ERROR_WANT_WRITE:
        return IoStatus::WantWrite;
    case SSL_ERROR_ZERO_RETURN:
        return IoStatus::Closed;
    case SSL_ERROR_SYSCALL: {
        const int sysErr = errno;
        ERR_clear_error();
        if (rc == 0 || sysErr == 0) {
            m_lastError = "connection closed by the server during TLS";
            return IoStatus::Closed;
        }
        m_lastError = std::strerror(sysErr);
        return IoStatus::Error;
    }
    default: {
        const long verify = SSL_get_verify_result(m_ssl);
        std::string reason = takeOpenSslError();
        if (verify != X509_V_OK) reason += std::string(": ") + X509_verify_cert_error_string(verify);
        m_lastError = reason.empty() ? "TLS error" : reason;
        return IoStatus::Error;
    }
    }
}

IoStatus TlsTransport::handshake()
{
    ERR_clear_error();
    const int rc = SSL_do_handshake(m_ssl);
    return rc == 1 ? IoStatus::Ok : mapError(rc);
}

IoStatus TlsTransport::read(char* buffer, size_t length, size_t& bytesRead)
{
    ERR_clear_error();
    if (SSL_read_ex(m_ssl, buffer, length, &bytesRead) == 1) return IoStatus::Ok;
    bytesRead = 0;
    return mapError(0);
}

IoStatus TlsTransport::write(const char* data, size_t length, size_t& bytesWritten)
{
    ERR_clear_error();
    if (SSL_write_ex(m_ssl, data, length, &bytesWritten) == 1) return IoStatus::Ok;
    bytesWritten = 0;
    return mapError(0);
}

bool TlsTransport::hasPendingInput() const
{
    return m_ssl && SSL_has_pending(m_ssl);
}

std::string_view TlsTransport::negotiatedProtocol() const
{
    if (!m_ssl) return {};
    const unsigned char* id = nullptr;
    unsigned length = 0;
    SSL_get0_alpn_selected(m_ssl, &id, &length);
    return id ? std::string_view(reinterpret_cast<const char*>(id), length) : std::string_view();
}

} // namespace wb
