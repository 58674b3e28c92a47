#include "tlsnginx.h"

#include <memory>

namespace wb::test {

TlsNginxPair& TlsNginxPair::shared()
{
    static const std::unique_ptr<TlsNginxPair> pair = [] {
        auto p = std::make_unique<TlsNginxPair>();
        // Without nginx both flags stay false: the tests call WB_REQUIRE_NGINX() (requirenginx.h)
        // before using the pair, which skips them, or fails them under CI.
        if (!Nginx::available()) return p;
        p->ok = generateCertificates(p->dir.path(), p->certs) && p->nginx.start(tlsOptions(p->certs, 1024));
        p->okExpired = generateCertificates(p->expiredDir.path(), p->expiredCerts, true)
            && p->expiredNginx.start(tlsOptions(p->expiredCerts, 1024));
        return p;
    }();
    return *pair;
}

} // namespace wb::test
