#include "tlsnginx.h"

#include <memory>

namespace wb::test {

TlsNginxPair& TlsNginxPair::shared()
{
    static const std::unique_ptr<TlsNginxPair> pair = [] {
        auto p = std::make_unique<TlsNginxPair>();
        if (!Nginx::available()) return p;
        p->ok = generateCertificates(p->dir.path(), p->certs)
            && p->nginx.start({ p->certs.serverCert, p->certs.serverKey, 1024 });
        p->okExpired = generateCertificates(p->expiredDir.path(), p->expiredCerts, true)
            && p->expiredNginx.start({ p->expiredCerts.serverCert, p->expiredCerts.serverKey, 1024 });
        return p;
    }();
    return *pair;
}

} // namespace wb::test
