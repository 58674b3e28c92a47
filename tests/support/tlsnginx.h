#pragma once
// Two real nginx servers on loopback speaking TLS, for the engine's and the
// probe's TLS tests: one with a valid chain (a test CA and a server certificate
// for localhost, 127.0.0.1 and ::1; it also listens on 127.0.0.2, which the
// certificate does not name), one whose server certificate has already
// expired. Started on first use, stopped when the test program exits.

#include "nginx.h"

namespace wb::test {

struct TlsNginxPair
{
    TempDir dir;
    TempDir expiredDir;
    Nginx nginx;
    Nginx expiredNginx;
    TestCertificates certs;
    TestCertificates expiredCerts;
    bool ok = false; ///< the valid server runs
    bool okExpired = false; ///< the expired server runs

    /// The program's pair, started on the first call (both flags false when nginx is missing).
    static TlsNginxPair& shared();
};

} // namespace wb::test
