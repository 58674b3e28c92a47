// GnuTLS under QUIC (ngtcp2's GnuTLS crypto helper): the credentials of a worker
// and each connection's TLS session. Part of the adapter (quicconnection.h).

#include "quic/quictls.h"

#include <arpa/inet.h>
#include <cstring>
#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <ngtcp2/ngtcp2_crypto_gnutls.h>

namespace wb {

namespace {
// TLS 1.3 only (QUIC has no other), without the middlebox compatibility mode (RFC 9001 8.4).
constexpr const char* PRIORITY = "NORMAL:-VERS-ALL:+VERS-TLS1.3:%DISABLE_TLS13_COMPAT_MODE";

bool isIpAddress(const std::string& host)
{
    unsigned char buffer[sizeof(in6_addr)];
    return inet_pton(AF_INET, host.c_str(), buffer) == 1 || inet_pton(AF_INET6, host.c_str(), buffer) == 1;
}
} // namespace

Result<std::shared_ptr<QuicTlsContext>> QuicTlsContext::create(bool verifyPeer, const std::string& caFile)
{
    gnutls_certificate_credentials_t credentials = nullptr;
    if (gnutls_certificate_allocate_credentials(&credentials) != 0)
        return Error { "cannot allocate TLS credentials for QUIC" };
    std::shared_ptr<QuicTlsContext> context(new QuicTlsContext);
    context->m_credentials = credentials;
    context->m_verifyPeer = verifyPeer;
    if (!verifyPeer) return context;
    if (!caFile.empty()) {
        const int n = gnutls_certificate_set_x509_trust_file(credentials, caFile.c_str(), GNUTLS_X509_FMT_PEM);
        if (n <= 0)
            return Error { "cannot load CA file " + caFile
                + (n < 0 ? std::string(": ") + gnutls_strerror(n) : std::string(": no certificate in it")) };
    } else if (gnutls_certificate_set_x509_system_trust(credentials) < 0) {
        return Error { "cannot load the system's trusted certificates for QUIC (GnuTLS)" };
    }
    return context;
}

QuicTlsContext::~QuicTlsContext()
{
    if (m_credentials)
        gnutls_certificate_free_credentials(static_cast<gnutls_certificate_credentials_t>(m_credentials));
}

Result<void*> newQuicTlsSession(const QuicTlsContext& context, const std::string& serverName, void* connRef)
{
    gnutls_session_t session = nullptr;
    if (gnutls_init(&session, GNUTLS_CLIENT) != 0) return Error { "cannot create a TLS session for QUIC" };
    auto failed = [&](const char* what) -> Result<void*> {
        gnutls_deinit(session);
        return Error { what };
    };
    if (gnutls_priority_set_direct(session, PRIORITY, nullptr) != 0)
        return failed("GnuTLS refused the TLS 1.3 priorities");
    if (ngtcp2_crypto_gnutls_configure_client_session(session) != 0)
        return failed("ngtcp2 could not set up the TLS session for QUIC");
    gnutls_session_set_ptr(session, connRef);
    if (gnutls_credentials_set(session, GNUTLS_CRD_CERTIFICATE, context.credentials()) != 0)
        return failed("cannot set TLS credentials for QUIC");
    gnutls_datum_t alpn { reinterpret_cast<unsigned char*>(const_cast<char*>("h3")), 2 };
    gnutls_alpn_set_protocols(session, &alpn, 1, GNUTLS_ALPN_MANDATORY);
    // SNI carries a DNS name only (RFC 6066 3); an address is still checked against the certificate.
    if (!serverName.empty() && !isIpAddress(serverName))
        gnutls_server_name_set(session, GNUTLS_NAME_DNS, serverName.data(), serverName.size());
    if (context.verifyPeer()) gnutls_session_set_verify_cert(session, serverName.c_str(), 0);
    return static_cast<void*>(session);
}

void deleteQuicTlsSession(void* session)
{
    if (session) gnutls_deinit(static_cast<gnutls_session_t>(session));
}

std::string quicTlsFailure(void* session, uint8_t alert)
{
    auto* s = static_cast<gnutls_session_t>(session);
    if (s) {
        if (const unsigned status = gnutls_session_get_verify_cert_status(s); status != 0) {
            gnutls_datum_t text {};
            std::string out = "certificate verification failed";
            if (gnutls_certificate_verification_status_print(status, GNUTLS_CRT_X509, &text, 0) == 0) {
                out += ": ";
                out.append(reinterpret_cast<const char*>(text.data), text.size);
                gnutls_free(text.data);
                while (!out.empty() && (out.back() == ' ' || out.back() == '\0'))
                    out.pop_back();
            }
            return out;
        }
    }
    if (alert != 0) return "TLS alert " + quicTlsAlertName(alert);
    return "TLS handshake failed";
}

std::string quicTlsAlertName(uint8_t alert)
{
    const char* name = gnutls_alert_get_strname(static_cast<gnutls_alert_description_t>(alert));
    return std::to_string(alert) + (name ? std::string(" (") + name + ")" : std::string());
}

std::string quicTlsAlpn(void* session)
{
    gnutls_datum_t selected {};
    if (!session || gnutls_alpn_get_selected_protocol(static_cast<gnutls_session_t>(session), &selected) != 0)
        return {};
    return std::string(reinterpret_cast<const char*>(selected.data), selected.size);
}

void quicRandom(uint8_t* out, size_t length)
{
    gnutls_rnd(GNUTLS_RND_RANDOM, out, length);
}

} // namespace wb
