#include "probe/probeerror.h"

#include "common/format.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <curl/curl.h>
#include <openssl/x509_vfy.h>

namespace wb {

namespace {

std::string datePart(const std::string& iso)
{
    return iso.substr(0, iso.find('T'));
}

std::string describeTimeout(const ProbeFailure& f)
{
    const uint64_t connectLimit
        = f.connectTimeoutUs && f.connectTimeoutUs < f.timeoutUs ? f.connectTimeoutUs : f.timeoutUs;
    const std::string inConnect = "timed out after " + formatLimit(connectLimit);
    const std::string inRequest = "timed out after " + formatLimit(f.timeoutUs);
    if (!f.dnsUs) return inConnect + " looking up " + f.host;
    if (!f.connectUs) return inConnect + " connecting to " + f.endpoint;
    if (f.tls && !f.tlsUs) return inConnect + " in the TLS handshake with " + f.endpoint;
    if (!f.requestSentUs) return inRequest + " sending the request to " + f.endpoint;
    if (!f.firstByteUs) return inRequest + " waiting for the first byte";
    return inRequest + " receiving the body (" + std::to_string(f.bodyBytes) + " bytes received)";
}

std::string describeConnectFailure(const ProbeFailure& f)
{
    switch (f.osErrno) {
    case ECONNREFUSED:
        return "connection refused by " + f.endpoint;
    case ENETUNREACH:
        return "network unreachable for " + f.endpoint;
    case EHOSTUNREACH:
        return "host unreachable: " + f.endpoint;
    case 0:
        return "cannot connect to " + f.endpoint + ": " + f.curlText;
    default:
        return "cannot connect to " + f.endpoint + ": " + std::strerror(f.osErrno);
    }
}

std::string describeVerifyFailure(const ProbeFailure& f)
{
    const TlsCapture* c = f.capture;
    if (c && c->verifyError != 0) {
        const ProbeCertificate& cert = c->failedCertificate;
        const std::string which = c->verifyErrorDepth > 0 ? "CA certificate " + cert.subject : "certificate";
        if (isExpiredError(c->verifyError)) return which + " has expired (notAfter " + datePart(cert.notAfter) + ")";
        if (isNotYetValidError(c->verifyError))
            return which + " is not yet valid (notBefore " + datePart(cert.notBefore) + ")";
        std::string text = "certificate verify failed: " + c->verifyErrorText;
        switch (c->verifyError) {
        case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
        case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT:
        case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN:
        case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT:
            if (!cert.issuer.empty()) text += " (issuer " + cert.issuer + " is not trusted)";
            break;
        default:
            break;
        }
        return text;
    }
    // OpenSSL accepted the chain; curl's own host name check refused it.
    if (c && !c->chain.empty() && f.curlText.find("name") != std::string::npos) {
        const ProbeCertificate& leaf = c->chain.front();
        const std::string names = leaf.sans.empty() ? leaf.subject : joined(leaf.sans);
        return "certificate name mismatch: " + f.host + " is not among the certificate's names (" + names + ")";
    }
    return "certificate verify failed: " + f.curlText;
}

} // namespace

std::string formatLimit(uint64_t us)
{
    char text[32];
    if (us >= 1'000'000) {
        if (us % 1'000'000 == 0) return std::to_string(us / 1'000'000) + " s";
        std::snprintf(text, sizeof text, "%.3g s", static_cast<double>(us) / 1e6);
        return text;
    }
    if (us >= 1000) {
        if (us % 1000 == 0) return std::to_string(us / 1000) + " ms";
        std::snprintf(text, sizeof text, "%.3g ms", static_cast<double>(us) / 1e3);
        return text;
    }
    return std::to_string(us) + " us";
}

std::string describeFailure(const ProbeFailure& f)
{
    switch (static_cast<CURLcode>(f.curlCode)) {
    case CURLE_COULDNT_RESOLVE_HOST:
        return "DNS lookup failed for " + f.host;
    case CURLE_COULDNT_CONNECT:
        return describeConnectFailure(f);
    case CURLE_OPERATION_TIMEDOUT:
        return describeTimeout(f);
    case CURLE_PEER_FAILED_VERIFICATION:
        return describeVerifyFailure(f);
    case CURLE_SSL_CACERT_BADFILE:
        return "cannot load CA file '" + f.caFile + "'";
    case CURLE_SSL_CONNECT_ERROR:
        return "TLS handshake with " + f.endpoint + " failed: " + f.curlText;
    case CURLE_GOT_NOTHING:
        return f.endpoint + " closed the connection without answering";
    case CURLE_RECV_ERROR:
        if (f.osErrno == ECONNRESET) return "connection reset by " + f.endpoint;
        return "receiving from " + f.endpoint + " failed: " + f.curlText;
    case CURLE_SEND_ERROR:
        if (f.osErrno == ECONNRESET || f.osErrno == EPIPE) return "connection reset by " + f.endpoint;
        return "sending to " + f.endpoint + " failed: " + f.curlText;
    case CURLE_PARTIAL_FILE:
        return f.endpoint + " closed the connection " + std::to_string(f.bodyBytes) + " bytes into the body";
    case CURLE_WEIRD_SERVER_REPLY:
        return "not a valid HTTP response from " + f.endpoint + ": " + f.curlText;
    case CURLE_ABORTED_BY_CALLBACK:
        return "cancelled";
    default:
        return f.curlText;
    }
}

} // namespace wb
