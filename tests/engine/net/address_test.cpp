// Numeric addresses as toString() writes them and wrk.lookup() returns them (a script's thread.addr).

#include "net/address.h"

#include <gtest/gtest.h>

using namespace wb;

TEST(SocketAddress, ParsesWhatToStringWrites)
{
    for (const std::string text : { "127.0.0.2:8080", "[::1]:443", "10.1.2.3:0", "[fe80::1]:65535" }) {
        auto a = parseSocketAddress(text);
        ASSERT_TRUE(a.ok()) << text << ": " << a.error();
        EXPECT_EQ(a->toString(), text);
    }
    EXPECT_EQ(parseSocketAddress("127.0.0.2:80")->family(), AF_INET);
    EXPECT_EQ(parseSocketAddress("[::1]:80")->family(), AF_INET6);
}

TEST(SocketAddress, RefusesWhatIsNotANumericAddressWithAPort)
{
    for (const std::string text : { "", "nowhere", "localhost:80", "127.0.0.1", "127.0.0.1:", ":80", "::1:80",
             "[127.0.0.1]:80", "[::1:80", "127.0.0.1:65536", "127.0.0.1:8o", "127.0.0.1:-1" }) {
        auto a = parseSocketAddress(text);
        ASSERT_FALSE(a.ok()) << text;
        EXPECT_EQ(a.error(), "'" + text + "' is not an address (ip:port or [ipv6]:port)");
    }
}
