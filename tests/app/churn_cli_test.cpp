// Connections that come and go (--conn-requests, --conn-lifetime) and the source addresses they
// come from (--source), counted by the servers themselves: nginx logs which connection brought
// each request and from where, caddy the client's port of each HTTP/3 connection, and the
// backends of an L4 balancer (haproxy in TCP mode) what each served.

#include "frontdoors.h"
#include "testsupport.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>

using namespace wb::test;
using Json = nlohmann::json;

namespace {

FrontDoor* started(FrontDoorKind kind)
{
    static std::map<FrontDoorKind, std::unique_ptr<FrontDoor>> doors;
    std::string why;
    if (!FrontDoor::available(kind, why)) {
        EXPECT_FALSE(underCi()) << why;
        return nullptr;
    }
    auto& door = doors[kind];
    if (!door) {
        door = std::make_unique<FrontDoor>(kind);
        if (!door->start(processCertificates())) {
            ADD_FAILURE() << door->log();
            door.reset();
        }
    }
    return door.get();
}

Json runJson(std::vector<std::string> args)
{
    args.insert(args.begin(), { "--json", "-", "--cacert", processCertificates().caCert });
    const ProcessResult r = runCli(args);
    EXPECT_EQ(r.exitCode, 0) << r.err;
    const Json doc = Json::parse(r.out, nullptr, false);
    EXPECT_FALSE(doc.is_discarded()) << r.out << r.err;
    return doc.is_discarded() ? Json::object() : doc;
}

/// The requests each connection brought, by the server's log, from request `from` on.
std::map<std::string, uint64_t> perConnection(const std::vector<FrontDoor::Request>& requests, size_t from)
{
    std::map<std::string, uint64_t> out;
    for (size_t i = from; i < requests.size(); ++i)
        ++out[requests[i].connection];
    return out;
}

struct Case
{
    FrontDoorKind server;
    Wire wire;
};

class ConnectionRequests : public ::testing::TestWithParam<Case>
{ };

} // namespace

// --conn-requests 20:30: every connection the server saw carried 20 to 30 requests, but those the
// end of the run cut short (one per connection slot at most); the run says how many it opened.
TEST_P(ConnectionRequests, EachConnectionCarriesItsDrawnShare)
{
    FrontDoor* door = started(GetParam().server);
    if (!door) GTEST_SKIP();
    const size_t before = door->requests().size();
    std::vector<std::string> args { "-t1", "-c4", "-n", "600", "--conn-requests", "20:30" };
    if (GetParam().wire == Wire::H2c) args.insert(args.end(), { "--http2", "-m", "4" });
    if (GetParam().wire == Wire::H3) args.insert(args.end(), { "--http3", "-m", "4" });
    args.push_back(door->url(GetParam().wire));
    const Json doc = runJson(args);
    door->settle();
    const auto connections = perConnection(door->requests(), before);
    ASSERT_GT(connections.size(), 8u) << "churn reopened connections";
    const Json& c = doc["connections"];
    const uint64_t opened = c["opened"].get<uint64_t>();
    // The server tells connections apart by their port. A UDP port is free again the moment its
    // socket closes (no TIME_WAIT), so over HTTP/3 a later connection may take the port of an
    // earlier one: a port carrying more than one share is allowed only as often as we opened
    // more connections than the server saw ports.
    const size_t portsTakenAgain = GetParam().wire == Wire::H3 && opened > connections.size()
        ? static_cast<size_t>(opened - connections.size())
        : 0;
    size_t short_ = 0, over = 0;
    for (const auto& [id, n] : connections) {
        if (n > 30 && over < portsTakenAgain && n <= 60) {
            ++over;
            continue;
        }
        EXPECT_LE(n, 30u) << "connection " << id;
        if (n < 20) ++short_;
    }
    EXPECT_LE(short_, 4u) << "only the connections open at the end (one per slot) may carry fewer than 20";
    EXPECT_GE(opened + 4, connections.size()) << c.dump();
    EXPECT_LE(opened, connections.size() + 4) << c.dump();
    EXPECT_GE(c["churn_closes"].get<uint64_t>() + 4, connections.size()) << c.dump();
    EXPECT_EQ(doc["summary"]["errors"]["connect"].get<uint64_t>() + doc["summary"]["errors"]["read"].get<uint64_t>()
            + doc["summary"]["errors"]["parse"].get<uint64_t>(),
        0u);
}

INSTANTIATE_TEST_SUITE_P(Protocols, ConnectionRequests,
    ::testing::Values(Case { FrontDoorKind::Nginx, Wire::Http1 }, Case { FrontDoorKind::Nginx, Wire::Http1Tls },
        Case { FrontDoorKind::Nginx, Wire::H2c }, Case { FrontDoorKind::Caddy, Wire::H3 }),
    [](const ::testing::TestParamInfo<Case>& param) {
        return std::string(wireName(param.param.wire)) == "h1-tls" ? std::string("h1tls")
                                                                   : std::string(wireName(param.param.wire));
    });

// --conn-lifetime: connections are replaced while the run goes on, whatever they carried.
TEST(Churn, LifetimeReopensConnections)
{
    FrontDoor* door = started(FrontDoorKind::Nginx);
    if (!door) GTEST_SKIP();
    const size_t before = door->requests().size();
    const Json doc = runJson({ "-t1", "-c2", "-d1s", "--conn-lifetime", "100ms:200ms", door->url(Wire::Http1) });
    door->settle();
    const auto connections = perConnection(door->requests(), before);
    EXPECT_GE(connections.size(), 4u) << "two slots, each replaced at least once in a second";
    EXPECT_GE(doc["connections"]["churn_closes"].get<uint64_t>(), 2u);
}

// --source: connections come from each of the addresses in turn, as the server sees them.
TEST(Churn, SourceAddressesSpreadTheConnections)
{
    FrontDoor* door = started(FrontDoorKind::Nginx);
    if (!door) GTEST_SKIP();
    const size_t before = door->requests().size();
    const Json doc = runJson({ "-t1", "-c2", "-n", "400", "--conn-requests", "10", "--source", "127.0.0.2-127.0.0.5",
        door->url(Wire::Http1) });
    door->settle();
    std::map<std::string, uint64_t> byClient;
    const auto all = door->requests();
    for (size_t i = before; i < all.size(); ++i)
        ++byClient[all[i].client];
    ASSERT_EQ(byClient.size(), 4u);
    const uint64_t total = all.size() - before;
    for (const auto& [address, n] : byClient) {
        EXPECT_TRUE(address >= "127.0.0.2" && address <= "127.0.0.5") << address;
        EXPECT_GT(n * 8, total) << address << " carried " << n << " of " << total;
    }
}

TEST(Churn, ASourceThatIsNotThisMachinesIsRefusedBeforeLoad)
{
    FrontDoor* door = started(FrontDoorKind::Nginx);
    if (!door) GTEST_SKIP();
    const ProcessResult r = runCli({ "-t1", "-c1", "-n", "100", "--source", "192.0.2.1", door->url(Wire::Http1) });
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.err.find("--source 192.0.2.1: not an address of this machine"), std::string::npos) << r.err;
}

// Out of local ports: in a network namespace of its own with eight ports to connect from and no
// reuse of ports in TIME_WAIT, a connection per request runs out after eight. The run stops and
// says why and what helps, in one line, instead of counting connect errors.
TEST(Churn, RunningOutOfPortsIsOneLineNamingTheRemedy)
{
    if (::geteuid() != 0) GTEST_SKIP() << "needs root for a network namespace of its own";
    const std::string cli = cliPath();
    const std::string script = "ip link set lo up && sysctl -qw net.ipv4.ip_local_port_range='40000 40007' && "
                               "sysctl -qw net.ipv4.tcp_tw_reuse=0 && { timeout 60 '"
        + cli + "' serve --port 18080 >/dev/null 2>&1 & } && sleep 0.5 && '" + cli
        + "' -t1 -c1 -d30s --conn-requests 1 --json - http://127.0.0.1:18080/";
    const ProcessResult r = runProcess({ "unshare", "-n", "sh", "-c", script }, scaledMs(60'000));
    ASSERT_FALSE(r.timedOut) << r.err;
    EXPECT_NE(r.err.find("out of local ports: no free port from this machine to 127.0.0.1:18080"), std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("--source"), std::string::npos) << r.err;
    const Json doc = Json::parse(r.out, nullptr, false);
    ASSERT_FALSE(doc.is_discarded()) << r.out << r.err;
    EXPECT_EQ(doc["summary"]["errors"]["connect"].get<uint64_t>(), 0u) << "not a stream of connect errors";
    EXPECT_TRUE(doc["summary"]["stopped_early"].get<bool>());
}

// An L4 balancer places each connection (round robin here). Three connections kept open over
// four backends leave one backend without a request; reopening each after 100 requests spreads
// the run over all four, as the backends' own logs and the run's backend split both say.
TEST(Churn, AnL4BalancersSplitEvensOutWithChurn)
{
    std::string why;
    if (!L4Balancer::available(why)) {
        if (underCi()) FAIL() << why;
        GTEST_SKIP() << why;
    }
    L4Balancer balancer;
    ASSERT_TRUE(balancer.start(4)) << balancer.log();
    const std::string url = "http://127.0.0.1:" + std::to_string(balancer.port()) + "/";
    auto served = [&balancer](const std::vector<uint64_t>& before) {
        std::vector<uint64_t> now = balancer.requestsPerBackend();
        for (size_t i = 0; i < now.size(); ++i)
            now[i] -= before[i];
        return now;
    };

    const auto beforeKept = balancer.requestsPerBackend();
    const Json kept = runJson({ "-t1", "-c3", "-n", "300", "--backend-from", "header:x-backend", url });
    const auto keptServed = served(beforeKept);
    EXPECT_EQ(std::count(keptServed.begin(), keptServed.end(), 0u), 1) << "three connections, four backends";
    EXPECT_EQ(kept["backends"]["count"].get<unsigned>(), 3u) << kept["backends"].dump();

    const auto beforeChurn = balancer.requestsPerBackend();
    const Json churned
        = runJson({ "-t1", "-c3", "-d1s", "--conn-requests", "100", "--backend-from", "header:x-backend", url });
    const auto churnServed = served(beforeChurn);
    const auto [least, most] = std::minmax_element(churnServed.begin(), churnServed.end());
    ASSERT_GT(*least, 0u);
    EXPECT_LT(static_cast<double>(*most) / static_cast<double>(*least), 1.5)
        << churnServed[0] << " " << churnServed[1] << " " << churnServed[2] << " " << churnServed[3];
    EXPECT_EQ(churned["backends"]["count"].get<unsigned>(), 4u) << churned["backends"].dump();
}

// HTTP/2 with several streams: a connection closed on purpose (a ramp going down, churn) while a
// read completes several streams at once counts every one of them, as nginx's log does.
TEST(Churn, ClosingOnPurposeCountsEveryStreamOfTheLastRead)
{
    FrontDoor* door = started(FrontDoorKind::Nginx);
    if (!door) GTEST_SKIP();
    const uint64_t before = door->logged("h2", 200);
    const Json doc
        = runJson({ "-t1", "-c2", "-n", "400", "--http2", "-m", "8", "--conn-requests", "40", door->url(Wire::H2c) });
    door->settle();
    const uint64_t logged = door->logged("h2", 200) - before;
    const uint64_t counted = doc["summary"]["requests"].get<uint64_t>();
    EXPECT_GE(logged, counted);
    EXPECT_LE(logged, counted + 16) << "at most the streams in flight at the end go uncounted";
}
