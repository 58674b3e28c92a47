#pragma once
// Everything that defines a run. Built by the CLI or the GUI, validated by
// validate(), then read-only for the engine.

#include "common/result.h"
#include "http/request.h"
#include "run/mixorder.h"
#include "run/responsenotes.h"
#include "run/slo.h"

#include <cstdint>
#include <string>
#include <vector>

namespace wb {

struct TlsOptions
{
    bool verifyPeer = true; ///< verify the server certificate (against caFile or the system store)
    std::string caFile; ///< PEM file with trusted CA certificates; empty = system store
};

/// The HTTP version a run speaks. HTTP/2 runs over TLS as "h2" (ALPN) and over
/// plain TCP as "h2c" with prior knowledge, as h2load and curl --http2-prior-knowledge.
/// HTTP/3 runs over QUIC (UDP, always TLS 1.3) as "h3".
enum class HttpVersion : uint8_t { Http1, Http2, Http3 };

/// "http/1.1", "h2" (HTTP/2 over TLS), "h2c" (cleartext) or "h3": the names of the JSON and the store.
const char* protocolId(HttpVersion version, bool tls);
/// "http/1.1", "h2" or "h3": the HTTP version alone, as a target and a config file keep it.
inline const char* httpVersionId(HttpVersion version)
{
    return version == HttpVersion::Http3 ? "h3" : version == HttpVersion::Http2 ? "h2" : "http/1.1";
}
/// Parses "http/1.1", "h1", "1.1", or "h2", "h2c", "http/2", "2", or "h3", "http/3", "3" (case-insensitive).
Result<HttpVersion> parseHttpVersion(const std::string& text);

/// One step of a ramp: over durationUs, move linearly from the previous
/// target (0 at the start) to this one: a rate (requests/s) in the open model,
/// a connection count in the closed model.
struct Stage
{
    uint64_t durationUs = 0;
    double target = 0;
    bool operator==(const Stage&) const = default;
};

/// One request of a request mix (--requests): what is sent, and how often (weighted order).
struct MixRequest
{
    RequestSpec request;
    double weight = 1;
    unsigned line = 0; ///< where it starts in the mix file (0: not from a file)
    std::string label; ///< "GET /path?q", for report tables
};

/// A request mix: several requests to one origin, each connection choosing its next one
/// (MixPicker). Empty: the run sends RunConfig::request alone.
struct RequestMixSpec
{
    std::string source; ///< the file it was read from
    std::vector<MixRequest> entries;
    MixOrder order = MixOrder::RoundRobin;
    uint64_t seed = 1; ///< random and weighted orders repeat with the same seed
    bool empty() const { return entries.empty(); }
};

/// Where the load is made: this process, or several loaders whose streams merge into one run
/// (engine/fleet, docs/DISTRIBUTED.md): child processes here, or the pods of a Kubernetes Job.
struct LoaderPlacement
{
    enum class On : uint8_t { Local, Kubernetes, Agents };
    unsigned count = 1; ///< loaders; 1 on Local is this process; on Agents, one per agent
    On on = On::Local;
    std::string kubeContext; ///< Kubernetes: kubectl context ("" = the current one)
    std::string kubeNamespace = "default";
    std::string image; ///< Kubernetes: the loader image ("" = the documented default)
    std::string podCpu = "1"; ///< Kubernetes: each pod's CPU request and limit
    std::string podMemory = "512Mi";
    /// Agents: the remote loaders, as the user named them (HOST:PORT on the CLI, a name from
    /// the GUI's remote loaders); their tokens and pinned certificates are never part of a run.
    std::vector<std::string> agents;
    /// The run is made by loaders of the fleet, not by this process.
    bool distributed() const { return count > 1 || on != On::Local; }
    bool operator==(const LoaderPlacement&) const = default;
};
const char* loaderPlaceId(LoaderPlacement::On on); ///< "local", "kubernetes", "agents"

/// wrk's -s: a Lua script (engine/script) and the arguments after `--`. The text itself travels
/// with the run (bytes, as read), so a session keeps what produced a run.
struct ScriptSpec
{
    std::string name; ///< the file it was read from (errors say name:line)
    std::string text; ///< the script's bytes
    std::vector<std::string> args; ///< init(args): what followed `--` on the command line
    /// A distributed run (--loaders, --on): setup() runs once per thread on the coordinator, and
    /// what it gave each thread (thread:set values, thread.addr) travels to the loaders as one
    /// Lua chunk per thread of the fleet, loader 0's threads first (ScriptRun::seedThreads()).
    /// Empty for a run in one process.
    std::vector<std::string> threadSetup;
    bool empty() const { return text.empty() && name.empty(); }
    bool operator==(const ScriptSpec&) const = default;
};

/// Connections that come and go as real clients' do: each connection is closed and a new one
/// opened after a number of requests drawn from [requestsMin, requestsMax], or once it has been
/// open for a time drawn from [lifetimeMinUs, lifetimeMaxUs], whichever comes first (0 = no
/// limit of that kind). A balancer that places each connection (kube-proxy, a NEG in connection
/// mode) then sees many placements instead of the first -c. Draws differ per connection, so
/// reconnects do not fall into step.
struct ConnectionChurn
{
    uint32_t requestsMin = 0;
    uint32_t requestsMax = 0;
    uint64_t lifetimeMinUs = 0;
    uint64_t lifetimeMaxUs = 0;
    bool enabled() const { return requestsMax > 0 || lifetimeMaxUs > 0; }
    bool operator==(const ConnectionChurn&) const = default;
};

struct RunConfig
{
    RequestSpec request;
    TlsOptions tls;
    unsigned threads = 2;
    unsigned connections = 10; ///< total, spread evenly over the threads
    unsigned pipeline = 1; ///< HTTP/1.1: requests in flight per connection
    static constexpr unsigned MAX_PIPELINE = 1024;
    HttpVersion httpVersion = HttpVersion::Http1;
    unsigned streams
        = 1; ///< HTTP/2 and HTTP/3: concurrent streams per connection (h2load's -m; the server may allow fewer)
    /// HTTP/2 flow-control windows, as 2^bits - 1 bytes (h2load's -w/-W). 30 is effectively no flow control.
    unsigned windowBits = DEFAULT_WINDOW_BITS;
    unsigned connectionWindowBits = DEFAULT_WINDOW_BITS;
    static constexpr unsigned DEFAULT_WINDOW_BITS = 30;
    /// HTTP/2: SETTINGS_HEADER_TABLE_SIZE we announce, the HPACK table a server may fill with
    /// its response headers per connection. 0 saves up to 4 KB a connection; it asks the server
    /// to start with a table size update (RFC 7541 4.2), which some servers omit: 4096 is the
    /// protocol's default for those.
    uint32_t headerTableBytes = 0;
    uint64_t durationUs = 10'000'000; ///< measured part of the run
    /// -n: the run ends once this many responses are counted (after the warm-up), each thread
    /// taking an even share, or at durationUs if that comes first; 0 = at durationUs only.
    uint64_t responses = 0;
    uint64_t warmupUs = 0; ///< traffic flows but nothing is recorded
    uint64_t timeoutUs = 2'000'000; ///< per-request timeout (wrk's --timeout)
    uint64_t connectTimeoutUs = 5'000'000; ///< connect and TLS (or QUIC) handshake
    uint64_t intervalUs = 1'000'000; ///< interval snapshot period (>= 100 ms)

    /// Open model: total requests/s over all connections (0 = closed loop, as wrk).
    double ratePerS = 0;
    /// Ramps: rate stages (open model) or connection stages (closed model);
    /// when set, their total duration replaces durationUs (see normalized()).
    std::vector<Stage> stages;
    bool stagesAreConnections = false;
    /// Open model: each worker polls instead of sleeping for this long before a due send,
    /// because waking from a sleep takes tens of microseconds, which would count as the
    /// target's latency. Costs CPU only in that stretch (bench/open-model.sh); 0 = always sleep.
    uint64_t sendSpinUs = DEFAULT_SEND_SPIN_US;
    static constexpr uint64_t DEFAULT_SEND_SPIN_US = 50;

    /// --conn-requests, --conn-lifetime: close and reopen connections (off by default: kept open).
    ConnectionChurn churn;
    /// --source: the local addresses connections are spread over (numeric, as typed: "127.0.0.2");
    /// empty: the kernel picks. More addresses, more source ports for churn, and a balancer that
    /// hashes on the client's address sees several clients.
    std::vector<std::string> sourceAddresses;

    /// --requests: a mix of requests instead of `request` alone (which then holds the first
    /// entry, so the origin, TLS and the pre-run check read it as before).
    RequestMixSpec mix;
    /// The requests the run sends: the mix's, or `request` alone. Entry i of a mix is request i.
    std::vector<RequestSpec> requests() const;

    /// -s: the run's wrk script; empty without one.
    ScriptSpec script;

    /// Thresholds the run is judged by (--slo); their verdicts end the report and set the exit code.
    std::vector<Slo> slos;
    /// --slo-abort: stop once an errors or non-2xx budget is spent (after 5 s of measurement).
    bool sloAbort = false;
    /// --loaders N [--on kubernetes]: where the load is made (a share of it has count 1).
    LoaderPlacement loaders;
    /// --backend-from: name each response's backend (a breakdown per backend); off by default.
    BackendFrom backendFrom;
    /// --upstream-time: split each latency into upstream and front door; off by default.
    UpstreamTimeFrom upstreamTime;
    /// Either of the two: the workers observe responses (costs nothing when false).
    bool notesResponses() const { return backendFrom.enabled() || upstreamTime.enabled(); }

    bool http2() const { return httpVersion == HttpVersion::Http2; }
    bool http3() const { return httpVersion == HttpVersion::Http3; }
    /// Several requests in flight on streams (--streams): HTTP/2 and HTTP/3.
    bool multiplexed() const { return httpVersion != HttpVersion::Http1; }
    bool openModel() const { return ratePerS > 0 || (!stages.empty() && !stagesAreConnections); }

    /// This load spoken in `version`: a load profile keeps both depths, --pipeline for
    /// HTTP/1.1 and --streams for HTTP/2, and only the one of the protocol applies (so one
    /// profile runs a target over either protocol).
    RunConfig withHttpVersion(HttpVersion version) const;

    /// Checks the numbers against each other; the error says what to change.
    Status validate() const;

    /// The configuration as it will run, applied wherever a run is prepared (RunController),
    /// so the CLI, the GUI and experiments agree: with stages, the duration is the stage
    /// total, and a connection ramp has as many connections as its highest stage (at least
    /// one per thread).
    RunConfig normalized() const;
};

} // namespace wb
