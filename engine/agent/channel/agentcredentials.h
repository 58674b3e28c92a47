#pragma once
// What makes an agent safe by default (docs/AGENT.md): its own self-signed
// certificate and a bearer token, both made on first start and kept in the
// state directory (every file mode 0600); the workstation pins the
// certificate's SHA-256 fingerprint, as SSH pins a host key.

#include "common/result.h"

#include <memory>
#include <string>

using SSL_CTX = struct ssl_ctx_st;
using X509 = struct x509_st;

namespace wb {

struct AgentCredentials
{
    std::string certPath;
    std::string keyPath;
    std::string token;
    std::string fingerprint; ///< SHA-256 of the certificate, 64 lower-case hex digits
    bool certCreated = false; ///< made now (first start)
    bool tokenCreated = false; ///< made now: the only time it is printed
};

/// Loads the state directory's cert.pem, key.pem and token, making what is missing
/// (the directory too, mode 0700). hostNames go into the new certificate's subjectAltName.
Result<AgentCredentials> loadOrCreateCredentials(const std::string& stateDir, const std::string& hostName);

/// The server's TLS context: TLS 1.2 (ECDHE + AEAD suites only) or later, the agent's
/// certificate and key.
Result<std::shared_ptr<SSL_CTX>> makeAgentServerContext(const AgentCredentials& credentials);

/// The client's TLS context: with a pinned fingerprint the chain is not verified during the
/// handshake (the agent's certificate is self-signed) and the caller compares
/// TlsChannel::peerFingerprint() with the pin; with a CA file the chain must verify, and the
/// caller names the host it expects (TlsChannel::connect's verifyName).
Result<std::shared_ptr<SSL_CTX>> makeAgentClientContext(const std::string& caFile);

/// SHA-256 of a certificate's DER form, 64 lower-case hex digits.
std::string certificateFingerprint(X509* cert);
/// "3A:91:..." or "3a91...": the 64 lower-case hex digits, or an error naming the problem.
Result<std::string> normalizeFingerprint(const std::string& text);
/// 64 hex digits as "3A:91:...:C4", as people compare them.
std::string displayFingerprint(const std::string& hex);

/// Equal without leaking where they differ through timing (a token check).
bool constantTimeEquals(const std::string& a, const std::string& b);

} // namespace wb
