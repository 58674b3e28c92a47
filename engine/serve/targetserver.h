#pragma once
// The built-in target server (`wrkbench-cli serve`): epoll, one event loop per
// thread on a shared SO_REUSEPORT port; HTTP/1.1 with keep-alive and pipelining,
// and HTTP/2 with prior knowledge (h2c) on the same port, told apart by the preface.
// It answers like the demo apps of the studies wrkbench replaces (a host name
// or a fixed text) and offers a few paths that tests and demos need.

#include "common/result.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

namespace wb {

struct TargetServerOptions
{
    std::string bindAddress = "127.0.0.1"; ///< IPv4 or IPv6 literal; loopback by default
    uint16_t port = 0; ///< 0 = pick a free port (see TargetServer::port())
    unsigned threads = 1;
    uint64_t delayUs = 0; ///< answer every request this long after it arrived
    int64_t bodySize = -1; ///< >= 0: answer bodies of this many bytes instead of the text
    std::string text; ///< body text; empty = "<host name>\n"
    /// Periodic stalls for coordinated-omission tests: every stallEveryUs, hold all
    /// answers for the last stallForUs of the period, then send them (0 = never).
    uint64_t stallEveryUs = 0;
    uint64_t stallForUs = 0;
    /// serve --backends: answer as this many named backends ("backend-<i>\n" as the body, as
    /// serve_hostname answers), in turn, or weighted count, count-1, ..., 1 when skewed (0 = off).
    unsigned backends = 0;
    bool skewedBackends = false;
    /// serve --upstream-time-header: every normal answer carries x-envoy-upstream-service-time,
    /// the delay in whole milliseconds, as Envoy states the time it waited for its upstream.
    bool upstreamTimeHeader = false;
    /// serve --capacity: admit requests at this rate over all threads (0 = no limit); beyond it
    /// answer 503 at once, or with capacityQueue hold the excess and answer it in turn
    /// (serve/admission.h). /metrics is always answered.
    double capacityPerS = 0;
    bool capacityQueue = false;
};

class TargetServer
{
public:
    explicit TargetServer(TargetServerOptions options);
    ~TargetServer(); ///< stops and joins the threads
    TargetServer(const TargetServer&) = delete;
    TargetServer& operator=(const TargetServer&) = delete;

    /// Binds and starts the threads. The error names the address and reason.
    Status start();
    /// Stops accepting, closes every connection, joins the threads. Idempotent.
    void stop();
    /// The bound port (after start()).
    uint16_t port() const;
    /// Requests answered so far, over all threads.
    uint64_t requestsServed() const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace wb
