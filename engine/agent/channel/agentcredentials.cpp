#include "agent/channel/agentcredentials.h"

#include "net/tlscontext.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace wb {

namespace {

std::string hex(const unsigned char* bytes, size_t size)
{
    static const char* digits = "0123456789abcdef";
    std::string out;
    for (size_t i = 0; i < size; ++i) {
        out += digits[bytes[i] >> 4];
        out += digits[bytes[i] & 15];
    }
    return out;
}

/// Writes path with mode `mode` from the start (never readable by others, not even briefly).
Status writePrivateFile(const std::string& path, const std::string& content, mode_t mode)
{
    const std::string tmp = path + ".tmp";
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
    if (fd < 0) return Error { fmt::format("cannot write '{}': {}", tmp, std::strerror(errno)) };
    ::fchmod(fd, mode);
    size_t done = 0;
    while (done < content.size()) {
        const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
        if (n <= 0) {
            ::close(fd);
            return Error { fmt::format("cannot write '{}': {}", tmp, std::strerror(errno)) };
        }
        done += static_cast<size_t>(n);
    }
    ::fsync(fd);
    ::close(fd);
    if (::rename(tmp.c_str(), path.c_str()) != 0)
        return Error { fmt::format("cannot write '{}': {}", path, std::strerror(errno)) };
    return {};
}

Result<std::string> readFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error { fmt::format("cannot read '{}'", path) };
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string bioText(BIO* bio)
{
    char* data = nullptr;
    const long size = BIO_get_mem_data(bio, &data);
    return std::string(data, static_cast<size_t>(size));
}

/// A new P-256 key and a self-signed certificate for ten years, PEM.
Result<std::pair<std::string, std::string>> makeSelfSigned(const std::string& hostName)
{
    EVP_PKEY* key = EVP_EC_gen("P-256");
    if (!key) return Error { "cannot make a key: " + takeOpenSslError() };
    X509* cert = X509_new();
    X509_set_version(cert, 2);
    unsigned char serial[16];
    RAND_bytes(serial, sizeof serial);
    serial[0] &= 0x7f;
    BIGNUM* bn = BN_bin2bn(serial, sizeof serial, nullptr);
    BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(cert));
    BN_free(bn);
    X509_gmtime_adj(X509_getm_notBefore(cert), -3600);
    X509_gmtime_adj(X509_getm_notAfter(cert), 10L * 365 * 24 * 3600);
    X509_set_pubkey(cert, key);
    X509_NAME* name = X509_get_subject_name(cert);
    const std::string cn = ("wrkbench agent " + hostName).substr(0, 64);
    X509_NAME_add_entry_by_txt(
        name, "CN", MBSTRING_UTF8, reinterpret_cast<const unsigned char*>(cn.c_str()), -1, -1, 0);
    X509_set_issuer_name(cert, name);
    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, cert, cert, nullptr, nullptr, 0);
    std::string san = "DNS:localhost,IP:127.0.0.1,IP:::1";
    if (!hostName.empty() && hostName.find_first_of(",:") == std::string::npos) san = "DNS:" + hostName + "," + san;
    for (const auto& [nid, value] : { std::pair { NID_subject_alt_name, san },
             std::pair { NID_basic_constraints, std::string("critical,CA:TRUE,pathlen:0") } }) {
        if (X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value.c_str())) {
            X509_add_ext(cert, ext, -1);
            X509_EXTENSION_free(ext);
        }
    }
    if (X509_sign(cert, key, EVP_sha256()) == 0) {
        X509_free(cert);
        EVP_PKEY_free(key);
        return Error { "cannot sign the certificate: " + takeOpenSslError() };
    }
    BIO* certBio = BIO_new(BIO_s_mem());
    BIO* keyBio = BIO_new(BIO_s_mem());
    PEM_write_bio_X509(certBio, cert);
    PEM_write_bio_PrivateKey(keyBio, key, nullptr, nullptr, 0, nullptr, nullptr);
    std::pair<std::string, std::string> out { bioText(certBio), bioText(keyBio) };
    BIO_free(certBio);
    BIO_free(keyBio);
    X509_free(cert);
    EVP_PKEY_free(key);
    return out;
}

Result<std::string> fingerprintOfPem(const std::string& pem)
{
    BIO* bio = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
    X509* cert = PEM_read_bio_X509(bio, nullptr, nullptr, nullptr);
    BIO_free(bio);
    if (!cert) return Error { "not a PEM certificate" };
    std::string out = certificateFingerprint(cert);
    X509_free(cert);
    return out;
}

/// TLS 1.2 suites of the control channel: ECDHE for forward secrecy and AEAD only (GCM,
/// ChaCha20-Poly1305), as TLS 1.3 has. OpenSSL's default list still takes CBC suites
/// (encrypt-then-MAC padding oracles, Lucky 13). Both sides set it, so neither offers them.
constexpr const char* AGENT_TLS12_CIPHERS = "ECDHE+AESGCM:ECDHE+CHACHA20";

void restrictCiphers(SSL_CTX* ctx)
{
    SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
    SSL_CTX_set_cipher_list(ctx, AGENT_TLS12_CIPHERS);
}

} // namespace

std::string certificateFingerprint(X509* cert)
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    if (X509_digest(cert, EVP_sha256(), md, &size) != 1) return {};
    return hex(md, size);
}

Result<std::string> normalizeFingerprint(const std::string& text)
{
    std::string out;
    for (char c : text) {
        if (c == ':' || c == ' ') continue;
        if (!std::isxdigit(static_cast<unsigned char>(c)))
            return Error { fmt::format("'{}' is not a SHA-256 fingerprint: '{}' is not a hex digit", text, c) };
        out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    if (out.size() != 64)
        return Error { fmt::format(
            "'{}' is not a SHA-256 fingerprint: it has {} hex digits, not 64", text, out.size()) };
    return out;
}

std::string displayFingerprint(const std::string& hexDigits)
{
    std::string out;
    for (size_t i = 0; i < hexDigits.size(); i += 2) {
        if (i) out += ':';
        out += static_cast<char>(std::toupper(static_cast<unsigned char>(hexDigits[i])));
        if (i + 1 < hexDigits.size())
            out += static_cast<char>(std::toupper(static_cast<unsigned char>(hexDigits[i + 1])));
    }
    return out;
}

bool constantTimeEquals(const std::string& a, const std::string& b)
{
    if (a.size() != b.size()) return false; // the length of a token is no secret (always 64)
    return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

Result<AgentCredentials> loadOrCreateCredentials(const std::string& stateDir, const std::string& hostName)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::create_directories(stateDir, ec);
    if (ec) return Error { fmt::format("cannot create the state directory '{}': {}", stateDir, ec.message()) };
    ::chmod(stateDir.c_str(), 0700);
    AgentCredentials c;
    c.certPath = stateDir + "/cert.pem";
    c.keyPath = stateDir + "/key.pem";
    const std::string tokenPath = stateDir + "/token";
    if (!fs::exists(c.certPath) || !fs::exists(c.keyPath)) {
        auto made = makeSelfSigned(hostName);
        if (!made) return Error { made.error() };
        if (auto st = writePrivateFile(c.keyPath, made->second, 0600); !st) return Error { st.error() };
        // Public, but nothing in the state directory is anyone else's to read (nor to rely on
        // the directory's 0700 for).
        if (auto st = writePrivateFile(c.certPath, made->first, 0600); !st) return Error { st.error() };
        c.certCreated = true;
    }
    auto certPem = readFile(c.certPath);
    if (!certPem) return Error { certPem.error() };
    auto fingerprint = fingerprintOfPem(*certPem);
    if (!fingerprint) return Error { fmt::format("'{}': {}", c.certPath, fingerprint.error()) };
    c.fingerprint = *fingerprint;
    if (!fs::exists(tokenPath)) {
        unsigned char bytes[32];
        if (RAND_bytes(bytes, sizeof bytes) != 1) return Error { "no randomness for a token" };
        if (auto st = writePrivateFile(tokenPath, hex(bytes, sizeof bytes) + "\n", 0600); !st)
            return Error { st.error() };
        c.tokenCreated = true;
    }
    struct stat info
    { };
    if (::stat(tokenPath.c_str(), &info) == 0 && (info.st_mode & 077) != 0)
        return Error { fmt::format(
            "'{}' is readable by others (mode {:o}): chmod 600 it", tokenPath, info.st_mode & 0777) };
    auto token = readFile(tokenPath);
    if (!token) return Error { token.error() };
    c.token = *token;
    while (!c.token.empty() && std::isspace(static_cast<unsigned char>(c.token.back())))
        c.token.pop_back();
    if (c.token.size() < 16) return Error { fmt::format("'{}' holds no token of at least 16 characters", tokenPath) };
    return c;
}

Result<std::shared_ptr<SSL_CTX>> makeAgentServerContext(const AgentCredentials& credentials)
{
    SSL_CTX* raw = SSL_CTX_new(TLS_server_method());
    if (!raw) return Error { "cannot make a TLS context: " + takeOpenSslError() };
    std::shared_ptr<SSL_CTX> ctx(raw, SSL_CTX_free);
    restrictCiphers(raw);
    if (SSL_CTX_use_certificate_chain_file(raw, credentials.certPath.c_str()) != 1)
        return Error { fmt::format("'{}': {}", credentials.certPath, takeOpenSslError()) };
    if (SSL_CTX_use_PrivateKey_file(raw, credentials.keyPath.c_str(), SSL_FILETYPE_PEM) != 1
        || SSL_CTX_check_private_key(raw) != 1)
        return Error { fmt::format("'{}': {}", credentials.keyPath, takeOpenSslError()) };
    return ctx;
}

Result<std::shared_ptr<SSL_CTX>> makeAgentClientContext(const std::string& caFile)
{
    SSL_CTX* raw = SSL_CTX_new(TLS_client_method());
    if (!raw) return Error { "cannot make a TLS context: " + takeOpenSslError() };
    std::shared_ptr<SSL_CTX> ctx(raw, SSL_CTX_free);
    restrictCiphers(raw);
    if (caFile.empty()) {
        SSL_CTX_set_verify(raw, SSL_VERIFY_NONE, nullptr); // pinned: the caller checks the fingerprint
    } else {
        if (SSL_CTX_load_verify_locations(raw, caFile.c_str(), nullptr) != 1)
            return Error { fmt::format("--agent-cacert '{}': {}", caFile, takeOpenSslError()) };
        SSL_CTX_set_verify(raw, SSL_VERIFY_PEER, nullptr);
    }
    return ctx;
}

} // namespace wb
