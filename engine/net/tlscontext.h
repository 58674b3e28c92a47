#pragma once
// One OpenSSL client context per run, shared by all workers (SSL_CTX is
// thread-safe once configured): verification against the system store or a CA
// file, the ALPN protocols offered, client session cache for resumption on reconnect.

#include "common/result.h"

#include <memory>
#include <string>
#include <vector>

using SSL_CTX = struct ssl_ctx_st;

namespace wb {

struct TlsClientOptions
{
    bool verifyPeer = true;
    std::string caFile; ///< PEM CA bundle; empty = system store
    /// ALPN protocol ids offered, most preferred first (e.g. "h2", "http/1.1"); empty = no ALPN.
    std::vector<std::string> alpn;
};

class TlsContext
{
public:
    static Result<std::shared_ptr<TlsContext>> create(const TlsClientOptions& options);
    ~TlsContext();
    TlsContext(const TlsContext&) = delete;
    TlsContext& operator=(const TlsContext&) = delete;

    SSL_CTX* get() const { return m_ctx; }
    bool verifiesPeer() const { return m_verify; }

private:
    TlsContext(SSL_CTX* ctx, bool verify)
        : m_ctx(ctx)
        , m_verify(verify)
    { }
    SSL_CTX* m_ctx;
    bool m_verify;
};

/// The oldest error on OpenSSL's thread-local queue as text (and clears the queue).
std::string takeOpenSslError();

} // namespace wb
