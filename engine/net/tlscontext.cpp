#include "net/tlscontext.h"

#include <openssl/err.h>
#include <openssl/ssl.h>

namespace wb {

std::string takeOpenSslError()
{
    const unsigned long code = ERR_get_error();
    ERR_clear_error();
    if (!code) return {};
    char text[256];
    ERR_error_string_n(code, text, sizeof text);
    // "error:0A000086:SSL routines::certificate verify failed" -> keep the reason.
    const char* reason = ERR_reason_error_string(code);
    return reason ? reason : text;
}

Result<std::shared_ptr<TlsContext>> TlsContext::create(const TlsClientOptions& options)
{
    SSL_CTX* ctx = SSL_CTX_new(TLS_client_method());
    if (!ctx) return Error { "cannot create TLS context: " + takeOpenSslError() };
    std::shared_ptr<TlsContext> result(new TlsContext(ctx, options.verifyPeer));

    SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
    // A server that closes without close_notify ends an until-close body; treat it as EOF.
    SSL_CTX_set_options(ctx, SSL_OP_IGNORE_UNEXPECTED_EOF);
    // Partial writes keep the request buffer stable across retries; read-ahead
    // pulls whole socket buffers in one read() instead of header + record.
    SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    SSL_CTX_set_read_ahead(ctx, 1);
    SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_CLIENT | SSL_SESS_CACHE_NO_INTERNAL_STORE);

    if (!options.alpn.empty()) {
        // Wire format (RFC 7301): each id preceded by its length.
        std::string protos;
        for (const std::string& id : options.alpn) {
            if (id.empty() || id.size() > 255) return Error { "invalid ALPN protocol id '" + id + "'" };
            protos += static_cast<char>(id.size());
            protos += id;
        }
        // The one OpenSSL call that returns 0 on success.
        if (SSL_CTX_set_alpn_protos(
                ctx, reinterpret_cast<const unsigned char*>(protos.data()), static_cast<unsigned>(protos.size()))
            != 0)
            return Error { "cannot set ALPN protocols: " + takeOpenSslError() };
    }

    if (options.verifyPeer) {
        SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nullptr);
        if (!options.caFile.empty()) {
            if (SSL_CTX_load_verify_locations(ctx, options.caFile.c_str(), nullptr) != 1)
                return Error { "cannot load CA file '" + options.caFile + "': " + takeOpenSslError() };
        } else if (SSL_CTX_set_default_verify_paths(ctx) != 1) {
            return Error { "cannot load the system CA store: " + takeOpenSslError() };
        }
    } else {
        SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, nullptr);
    }
    return result;
}

TlsContext::~TlsContext()
{
    SSL_CTX_free(m_ctx);
}

} // namespace wb
