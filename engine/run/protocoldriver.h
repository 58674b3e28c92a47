#pragma once
// One place per protocol: everything that differs between HTTP/1.1 and HTTP/2
// (and HTTP/3 next) outside the sessions themselves. The run controller and the
// workers ask the run's driver and never branch on the HTTP version: adding a
// protocol is a new driver (and its sessions), not new branches.
//
// A driver says which ALPN id it offers and requires, what it checks on one
// connection before any load (HTTP/2: the SETTINGS exchange), what it warns
// about the run's requests, which error kinds it counts beyond every
// protocol's, which transport it runs on, and it makes a worker's pool of
// sessions. The options of a protocol still sit flat in RunConfig (the
// configuration codec reads them there); a driver reads the ones it owns.

#include "common/result.h"
#include "net/address.h"
#include "net/transport.h"
#include "run/clientsession.h"
#include "run/connectionfacts.h"
#include "run/http3/quicsummary.h"
#include "run/runconfig.h"
#include "stats/counters.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace wb {

class RequestSource;
class ResponseObserver;
class TlsTransport;

/// The sessions of one worker, one per connection slot, made by the run's driver.
class SessionPool
{
public:
    virtual ~SessionPool() = default;
    virtual ClientSession& session(size_t i) = 0;
    virtual size_t size() const = 0;
    /// The lowest limit of requests in flight a server set below what was asked (HTTP/2's
    /// SETTINGS_MAX_CONCURRENT_STREAMS below --streams; 0 = none, or no such thing).
    virtual uint32_t serverStreamLimit() const { return 0; }
    /// HTTP/3: what the worker's connections learnt about QUIC (empty for other protocols).
    virtual QuicSummary quicSummary() const { return {}; }
    /// Server behaviour the worker's sessions tolerated (HTTP/2: a table size update omitted).
    virtual ConnectionFacts connectionFacts() const { return {}; }
};

/// The connection the pre-run check runs on: connected, non-blocking, TLS finished if any.
struct PreflightLink
{
    int fd = -1;
    TlsTransport* tls = nullptr; ///< null for a plain connection
    int timeoutMs = 0;
};

/// An error kind a protocol counts beyond connect, read, write, timeout, tls and parse.
struct ProtocolErrorKind
{
    uint64_t ErrorCounts::*counter;
    const char* name; ///< as in reports ("stream")
    const char* meaning;
};

class ProtocolDriver
{
public:
    virtual ~ProtocolDriver() = default;
    /// For sentences: "HTTP/1.1", "HTTP/2", "HTTP/3".
    virtual const char* name() const = 0;
    /// The ALPN id offered for the run's TLS connections ("http/1.1", "h2", "h3").
    virtual const char* alpn() const = 0;
    /// Whether a connection whose server selected another ALPN protocol (or none) is refused.
    virtual bool requiresAlpn() const = 0;
    /// What the pre-run check offers by ALPN (HTTP/2 offers http/1.1 too, to name the server's choice).
    virtual std::vector<std::string> preflightAlpn() const { return { alpn() }; }
    /// What the sessions run on; the worker drives a datagram transport's timers (net/transport.h).
    virtual TransportKind transport() const { return TransportKind::Stream; }

    /// Warnings about the run's requests before any load (HTTP/2: fields that cannot be sent).
    virtual std::vector<std::string> requestWarnings(const std::vector<RequestSpec>&) const { return {}; }
    /// The pre-run check on one connection, after the TLS handshake and its ALPN check; may
    /// add warnings. An error is one sentence (the controller names the address).
    virtual Status preflight(const RunConfig&, const PreflightLink&, std::vector<std::string>&) const { return {}; }
    /// The pre-run check of a datagram driver, which opens its own link (HTTP/3: a QUIC handshake
    /// over UDP, TLS inside it) instead of the controller's TCP connection and TLS handshake. An
    /// error is one sentence naming the address.
    virtual Status preflightDatagram(
        const RunConfig&, const SocketAddress&, int /*timeoutMs*/, std::vector<std::string>&) const
    {
        return {};
    }
    /// Error kinds of this protocol's own (a report may leave out those of other protocols).
    virtual std::span<const ProtocolErrorKind> errorKinds() const { return {}; }

    /// A worker's sessions: one per connection, serialising the source's table once.
    /// observer: sees every response (or null: nothing is kept).
    virtual std::unique_ptr<SessionPool> makePool(const RunConfig& config, bool closedLoop, const RequestSource& source,
        ResponseObserver* observer, size_t sessions) const = 0;
};

/// The driver of the run's protocol (the one place that maps HttpVersion to a driver).
const ProtocolDriver& protocolDriverFor(HttpVersion version);

} // namespace wb
