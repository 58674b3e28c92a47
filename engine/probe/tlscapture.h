#pragma once
// Watches curl's TLS handshake from inside OpenSSL. curl hands us its SSL_CTX
// (CURLOPT_SSL_CTX_FUNCTION) before it creates the connection; we add a verify
// callback and an info callback that copy what we need while it happens. This
// is the only way to see the chain when verification fails (curl then gives no
// certificate info), e.g. to name the notAfter of an expired certificate.

#include "probe/proberesult.h"

#include <string>
#include <vector>

namespace wb {

/// What the handshake showed. Filled by the callbacks; read after curl returns.
struct TlsCapture
{
    std::string version; ///< "TLSv1.3"
    std::string cipher;
    std::string alpn;
    std::vector<ProbeCertificate> chain; ///< as sent by the server, leaf first

    /// The first verification failure OpenSSL reported (0 = none).
    int verifyError = 0;
    int verifyErrorDepth = -1; ///< 0 = the server's own certificate
    std::string verifyErrorText; ///< OpenSSL's wording, e.g. "certificate has expired"
    ProbeCertificate failedCertificate; ///< the certificate the failure is about
};

/// Installs the callbacks on sslCtx (an SSL_CTX*); they write into capture,
/// which must outlive every connection made with the context.
void installTlsCapture(void* sslCtx, TlsCapture* capture);

/// OpenSSL's X509_V_ERR_* codes the probe words differently.
bool isExpiredError(int verifyError);
bool isNotYetValidError(int verifyError);

} // namespace wb
