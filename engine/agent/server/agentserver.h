#pragma once
// `wrkbench-cli agent`: an HTTPS + JSON server on a loader VM that runs loaders
// for a workstation (docs/AGENT.md). Safe by default: TLS only, a bearer token
// on every request, targets only from --allow, one run at a time, a cap on its
// duration, every request logged. One thread per connection, each step under
// a deadline, and a cap on connections: a slow or hostile client costs a
// thread for seconds, never the agent.

#include "agent/channel/agentcredentials.h"
#include "agent/server/agentlimits.h"
#include "agent/server/agentruns.h"
#include "agent/server/allowlist.h"

#include <atomic>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace wb {

struct ServerRequest;

struct AgentServerOptions
{
    std::string listen = "127.0.0.1:7450"; ///< ADDR:PORT, [IPv6]:PORT; port 0 picks one
    AllowList allow;
    /// Runs that carry a wrk script (RunConfig::script) are refused unless the operator allows
    /// them (--allow-scripts): a Lua script can run any command on the loader's machine.
    bool allowScripts = false;
    AgentLimits limits; ///< what one run may ask for (maxDurationUs, connections, threads, rate, start)
    std::string stateDir;
    std::string loaderBinary; ///< the wrkbench-cli that runs loaders
    /// --metrics-listen: each run's loader serves its live figures for Prometheus on this
    /// ADDR:PORT (its run label the run's id); empty: none.
    std::string metricsListen;
    std::string hostName; ///< in health answers
    /// Deadlines, from accept: a connection that has not finished its TLS handshake, or its
    /// request head, by then is cut. Short, because a slot held costs everyone else a slot.
    uint64_t handshakeDeadlineUs = 3'000'000;
    uint64_t headDeadlineUs = 5'000'000;
    uint64_t bodyDeadlineUs = 30'000'000; ///< the body, after the head (only with a good token)
    unsigned maxConnections = 128; ///< open at once, in all
    /// Open at once from one address: a client that opens hundreds of slow connections
    /// (slowloris) holds at most this many slots, never all of them.
    unsigned maxConnectionsPerAddress = 8;
    /// Lines about refused connections and requests (wrong token, timeouts, limits) at most
    /// this often; the next one says how many were left out. 0: every one.
    uint64_t refusalLogIntervalUs = 1'000'000;
    /// One line per request before it is handled and one with its answer, and refusals as
    /// above; stderr by default.
    std::function<void(const std::string&)> log;
};

class AgentServer
{
public:
    explicit AgentServer(AgentServerOptions options, AgentCredentials credentials);
    ~AgentServer();

    /// Binds and listens; the error names the address.
    Status listen();
    /// The address it listens on, with the port it got.
    const std::string& address() const { return m_address; }
    uint16_t port() const { return m_port; }
    /// Accepts and serves until stop() (from a signal handler too).
    void serve();
    void stop() { m_stop.store(true); }

    /// One request's answer, as bytes to send (the routes, after the token check). Public so
    /// the fuzzer reaches it; `peer` is for the log.
    struct Answer
    {
        std::string bytes; ///< a whole answer, or the head of a stream
        int status = 0;
        std::string streamRun; ///< non-empty: follow this run's stream from streamOffset
        uint64_t streamOffset = 0;
    };
    Answer handle(const ServerRequest& request);

private:
    void serveConnection(int fd, std::string peer);
    bool authorized(const ServerRequest& request) const;
    /// Logs a refusal, or counts it when one was logged within refusalLogIntervalUs.
    void logRefusal(const std::string& line);
    void streamRun(class TlsChannel& channel, const std::string& id, uint64_t offset);
    Answer startRun(const ServerRequest& request);
    Answer probeTarget(const ServerRequest& request);
    std::string healthJson();

    AgentServerOptions m_options;
    AgentCredentials m_credentials;
    std::shared_ptr<SSL_CTX> m_tls;
    AgentRuns m_runs;
    int m_listenFd = -1;
    std::string m_address;
    uint16_t m_port = 0;
    std::atomic<bool> m_stop { false };
    std::atomic<unsigned> m_connections { 0 };
    std::mutex m_peersMutex;
    std::map<std::string, unsigned> m_perAddress; ///< open connections by peer address (no port)
    std::mutex m_refusalMutex;
    uint64_t m_lastRefusalLogUs = 0;
    uint64_t m_refusalsNotLogged = 0;
};

} // namespace wb
