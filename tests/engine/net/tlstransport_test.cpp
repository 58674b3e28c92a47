// ALPN against a real nginx: the protocols offered are a TlsContext parameter,
// the one the server chose is read back from the TlsTransport.

#include "net/address.h"
#include "net/socket.h"
#include "net/tlscontext.h"
#include "net/tlstransport.h"
#include "requirenginx.h"
#include "tlsnginx.h"

#include <gtest/gtest.h>
#include <poll.h>
#include <string>
#include <unistd.h>
#include <vector>

using namespace wb;

namespace {

test::TlsNginxPair& tls()
{
    return test::TlsNginxPair::shared();
}

// Handshakes with the valid nginx offering `alpn`; returns the protocol it chose.
std::string negotiate(const std::vector<std::string>& alpn)
{
    auto context = TlsContext::create({ true, tls().certs.caCert, alpn });
    EXPECT_TRUE(context) << context.error();
    if (!context) return "(no context)";
    auto addresses = resolveHost("127.0.0.1", tls().nginx.tlsPort());
    EXPECT_TRUE(addresses);
    auto fd = connectWithTimeout(addresses->front(), 5000);
    EXPECT_TRUE(fd) << fd.error();
    if (!fd) return "(no connection)";
    TlsTransport transport;
    EXPECT_TRUE(transport.attach(**context, *fd, "127.0.0.1")) << transport.lastError();
    EXPECT_TRUE(transport.negotiatedProtocol().empty()); // nothing before the handshake
    IoStatus st = IoStatus::WantRead;
    for (int i = 0; i < 1000 && (st == IoStatus::WantRead || st == IoStatus::WantWrite); ++i) {
        st = transport.handshake();
        pollfd p { *fd, static_cast<short>(st == IoStatus::WantWrite ? POLLOUT : POLLIN), 0 };
        if (st != IoStatus::Ok) ::poll(&p, 1, 100);
    }
    EXPECT_EQ(st, IoStatus::Ok) << transport.lastError();
    std::string chosen(transport.negotiatedProtocol());
    transport.detach();
    EXPECT_TRUE(transport.negotiatedProtocol().empty());
    ::close(*fd);
    return chosen;
}

} // namespace

TEST(TlsAlpn, TheServerChoosesFromTheProtocolsOffered)
{
    WB_REQUIRE_NGINX();
    ASSERT_TRUE(tls().ok) << tls().nginx.log();
    EXPECT_EQ(negotiate({ "http/1.1" }), "http/1.1");
    // This nginx has no HTTP/2: it picks the one it speaks from a longer list.
    EXPECT_EQ(negotiate({ "h2", "http/1.1" }), "http/1.1");
    EXPECT_EQ(negotiate({}), ""); // nothing offered, nothing chosen
}

TEST(TlsAlpn, AnEmptyProtocolIdIsRejected)
{
    auto context = TlsContext::create({ false, {}, { "http/1.1", "" } });
    ASSERT_FALSE(context);
    EXPECT_NE(context.error().find("invalid ALPN protocol id"), std::string::npos) << context.error();
}
