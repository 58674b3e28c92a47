#pragma once
// GnuTLS for the QUIC adapter (quicconnection.h): internal to engine/quic.

#include "quic/quicconnection.h"

#include <cstdint>
#include <string>

namespace wb {

/// A client TLS session for QUIC offering "h3" (gnutls_session_t), with connRef as its pointer
/// (an ngtcp2_crypto_conn_ref, how ngtcp2's GnuTLS helper finds the connection). The session
/// keeps a pointer to serverName (gnutls_session_set_verify_cert copies nothing): it must live
/// as long as the session.
Result<void*> newQuicTlsSession(const QuicTlsContext& context, const std::string& serverName, void* connRef);
void deleteQuicTlsSession(void* session);
/// Why the handshake failed: the certificate check's verdict, or the alert.
std::string quicTlsFailure(void* session, uint8_t alert);
/// "42 (Certificate is bad)".
std::string quicTlsAlertName(uint8_t alert);
/// The protocol selected by ALPN ("h3"), or empty.
std::string quicTlsAlpn(void* session);
/// Random bytes (connection ids, tokens).
void quicRandom(uint8_t* out, size_t length);

} // namespace wb
