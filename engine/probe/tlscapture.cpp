#include "probe/tlscapture.h"

#include <arpa/inet.h>
#include <cmath>
#include <ctime>
#include <memory>
#include <mutex>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

namespace wb {

namespace {

// The SSL_CTX slot that points at the probe's TlsCapture.
int captureIndex()
{
    static int index = -1;
    static std::once_flag once;
    std::call_once(once, [] { index = SSL_CTX_get_ex_new_index(0, nullptr, nullptr, nullptr, nullptr); });
    return index;
}

TlsCapture* captureOf(const SSL* ssl)
{
    return ssl ? static_cast<TlsCapture*>(SSL_CTX_get_ex_data(SSL_get_SSL_CTX(ssl), captureIndex())) : nullptr;
}

std::string nameText(const X509_NAME* name)
{
    if (!name) return {};
    std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new(BIO_s_mem()), BIO_free);
    // RFC 2253 order and escaping, but UTF-8 left as it is.
    X509_NAME_print_ex(bio.get(), name, 0, XN_FLAG_RFC2253 & ~ASN1_STRFLGS_ESC_MSB);
    char* data = nullptr;
    const long n = BIO_get_mem_data(bio.get(), &data);
    return n > 0 ? std::string(data, static_cast<size_t>(n)) : std::string();
}

std::string isoTime(const ASN1_TIME* t)
{
    std::tm tm {};
    if (!t || ASN1_TIME_to_tm(t, &tm) != 1) return {};
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return text;
}

int64_t daysUntil(const ASN1_TIME* t)
{
    int days = 0, seconds = 0;
    if (!t || ASN1_TIME_diff(&days, &seconds, nullptr, t) != 1) return 0;
    const double total = static_cast<double>(days) * 86400.0 + seconds;
    return static_cast<int64_t>(std::floor(total / 86400.0));
}

std::string ia5Text(const ASN1_IA5STRING* s)
{
    return s ? std::string(
               reinterpret_cast<const char*>(ASN1_STRING_get0_data(s)), static_cast<size_t>(ASN1_STRING_length(s)))
             : std::string();
}

std::vector<std::string> subjectAltNames(X509* cert)
{
    std::vector<std::string> out;
    auto* names = static_cast<GENERAL_NAMES*>(X509_get_ext_d2i(cert, NID_subject_alt_name, nullptr, nullptr));
    if (!names) return out;
    for (int i = 0; i < sk_GENERAL_NAME_num(names); ++i) {
        const GENERAL_NAME* n = sk_GENERAL_NAME_value(names, i);
        switch (n->type) {
        case GEN_DNS:
            out.push_back("DNS:" + ia5Text(n->d.dNSName));
            break;
        case GEN_EMAIL:
            out.push_back("email:" + ia5Text(n->d.rfc822Name));
            break;
        case GEN_URI:
            out.push_back("URI:" + ia5Text(n->d.uniformResourceIdentifier));
            break;
        case GEN_IPADD: {
            const int len = ASN1_STRING_length(n->d.iPAddress);
            char text[INET6_ADDRSTRLEN] = {};
            const int family = len == 4 ? AF_INET : len == 16 ? AF_INET6 : 0;
            if (family && inet_ntop(family, ASN1_STRING_get0_data(n->d.iPAddress), text, sizeof text))
                out.push_back(std::string("IP:") + text);
            break;
        }
        default:
            break;
        }
    }
    GENERAL_NAMES_free(names);
    return out;
}

ProbeCertificate describe(X509* cert)
{
    ProbeCertificate c;
    if (!cert) return c;
    c.subject = nameText(X509_get_subject_name(cert));
    c.issuer = nameText(X509_get_issuer_name(cert));
    c.sans = subjectAltNames(cert);
    c.notBefore = isoTime(X509_get0_notBefore(cert));
    c.notAfter = isoTime(X509_get0_notAfter(cert));
    c.daysToExpiry = daysUntil(X509_get0_notAfter(cert));
    return c;
}

void copyChain(STACK_OF(X509) * chain, TlsCapture& capture)
{
    if (!chain || !capture.chain.empty()) return;
    for (int i = 0; i < sk_X509_num(chain); ++i)
        capture.chain.push_back(describe(sk_X509_value(chain, i)));
}

int onVerify(int ok, X509_STORE_CTX* store)
{
    auto* ssl = static_cast<SSL*>(X509_STORE_CTX_get_ex_data(store, SSL_get_ex_data_X509_STORE_CTX_idx()));
    if (TlsCapture* capture = captureOf(ssl)) {
        // The untrusted stack of the store context is the chain the server sent.
        copyChain(X509_STORE_CTX_get0_untrusted(store), *capture);
        if (!ok && capture->verifyError == 0) {
            capture->verifyError = X509_STORE_CTX_get_error(store);
            capture->verifyErrorDepth = X509_STORE_CTX_get_error_depth(store);
            capture->verifyErrorText = X509_verify_cert_error_string(capture->verifyError);
            capture->failedCertificate = describe(X509_STORE_CTX_get_current_cert(store));
        }
    }
    return ok; // observe only: curl's verification decides
}

void onInfo(const SSL* ssl, int where, int)
{
    if (!(where & SSL_CB_HANDSHAKE_DONE)) return;
    TlsCapture* capture = captureOf(ssl);
    if (!capture) return;
    capture->version = SSL_get_version(ssl);
    capture->cipher = SSL_get_cipher_name(ssl);
    const unsigned char* alpn = nullptr;
    unsigned alpnLength = 0;
    SSL_get0_alpn_selected(ssl, &alpn, &alpnLength);
    capture->alpn.assign(reinterpret_cast<const char*>(alpn), alpn ? alpnLength : 0);
    // Without verification callbacks (a resumed session) the chain is still on the session.
    copyChain(SSL_get_peer_cert_chain(ssl), *capture);
}

} // namespace

void installTlsCapture(void* sslCtx, TlsCapture* capture)
{
    auto* ctx = static_cast<SSL_CTX*>(sslCtx);
    SSL_CTX_set_ex_data(ctx, captureIndex(), capture);
    // Keep curl's verify mode; OpenSSL calls the callback even with SSL_VERIFY_NONE.
    SSL_CTX_set_verify(ctx, SSL_CTX_get_verify_mode(ctx), onVerify);
    SSL_CTX_set_info_callback(ctx, onInfo);
}

bool isExpiredError(int verifyError)
{
    return verifyError == X509_V_ERR_CERT_HAS_EXPIRED;
}
bool isNotYetValidError(int verifyError)
{
    return verifyError == X509_V_ERR_CERT_NOT_YET_VALID;
}

} // namespace wb
