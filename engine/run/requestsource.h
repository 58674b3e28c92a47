#pragma once
// What a connection sends next: the request source in front of
// ClientSession::submit(). The worker asks its source once per request sent;
// the session turns the answer into bytes.
//
// A source answers with an entry of its table (requests the sessions serialise
// once, before the run: the fixed request's HTTP/1.1 pipeline batch, a mix's
// entries) or with a request it built for this one send (wrk's Lua
// `request()` will be such a source). Building costs only when a source does it:
// the fixed request stays pre-serialised bytes and a pick is two words.

#include "http/request.h"
#include "run/mixpicker.h"

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace wb {

struct LoadPlan;

/// One answer of a source: entry `entry` of its table, or, when `built` is set, that
/// request (valid until the source is asked again for the same connection), counted
/// under `entry` all the same.
struct RequestPick
{
    RequestPick(uint16_t entryIndex = 0, const RequestSpec* request = nullptr)
        : entry(entryIndex)
        , built(request)
    { }
    uint16_t entry = 0; ///< which request of the run (per-entry statistics; 0 without a mix)
    const RequestSpec* built = nullptr; ///< a request made for this send; null: the table's entry
    /// HTTP/1.1 only: a request made for this send as its wire bytes, already checked, sent as
    /// they are (valid until the source is asked again for the same connection); `wireHead`:
    /// it is a HEAD request. A source gives it only to a run that speaks HTTP/1.1 (a script's
    /// request() string, as wrk writes it, without parsing and serialising it again).
    std::string_view wire;
    bool wireHead = false;
};

/// One worker's source (the worker's thread alone calls it: no locks).
class RequestSource
{
public:
    virtual ~RequestSource() = default;
    /// The requests the sessions serialise before the run (at least one: every
    /// protocol checks and prepares against the first).
    virtual const std::vector<RequestSpec>& table() const = 0;
    /// Whether next() may answer with built requests: the sessions then write each request
    /// from a buffer of their own instead of the shared pre-built batch.
    virtual bool buildsPerSend() const { return false; }
    /// What the worker's connection `connection` (its index in the worker) sends next.
    virtual RequestPick next(uint32_t connection) = 0;
    /// Whether the source pauses a connection before each batch it sends (wrk's Lua delay()):
    /// the closed-model worker then asks delayUs() first. Asked once, when the worker is made.
    virtual bool delays() const { return false; }
    /// How long connection `connection` waits before its next batch, in microseconds (0: none).
    virtual uint64_t delayUs(uint32_t connection)
    {
        (void)connection;
        return 0;
    }
    /// HTTP/1.1: requests per batch the source asks for when the run left --pipeline at 1 (wrk's
    /// depth: the requests in thread 0's first request() string, all written at once); 0: none.
    /// Asked once, when the worker's sessions are made.
    virtual uint32_t pipelineDepth() const { return 0; }
    /// Whether the source may ask its worker to stop (a script: wrk's thread:stop()). Asked once,
    /// when the worker is made: only then does the worker ask stopped().
    virtual bool mayStop() const { return false; }
    /// Whether the source asked its worker to stop sending: the worker sends nothing more, reads
    /// the responses in flight and goes on measuring (nothing) until the run ends, as a wrk
    /// thread whose loop thread:stop() ended while the others go on to -d.
    virtual bool stopped() const { return false; }
};

/// The run's one request, pre-serialised: next() is always entry 0.
class FixedRequestSource final : public RequestSource
{
public:
    explicit FixedRequestSource(RequestSpec request)
        : m_table { std::move(request) }
    { }
    const std::vector<RequestSpec>& table() const override { return m_table; }
    RequestPick next(uint32_t) override { return {}; }

private:
    std::vector<RequestSpec> m_table;
};

/// A request mix: every entry pre-serialised, each connection choosing with a MixPicker
/// of its own (seeded by its global slot, so the choices do not depend on -t).
class MixRequestSource final : public RequestSource
{
public:
    /// globalSlots[i]: connection i's slot among all the run's connections.
    MixRequestSource(const LoadPlan& plan, const std::vector<uint32_t>& globalSlots);
    const std::vector<RequestSpec>& table() const override { return m_table; }
    RequestPick next(uint32_t connection) override { return { m_pickers[connection].next() }; }

private:
    std::vector<RequestSpec> m_table;
    std::vector<MixPicker> m_pickers; ///< per connection: only a mix pays for them
};

/// The source of the plan's requests for one worker: a factory the caller set
/// (LoadPlan::hooks), else the mix, else the fixed request.
std::unique_ptr<RequestSource> makeRequestSource(
    const LoadPlan& plan, unsigned workerIndex, const std::vector<uint32_t>& globalSlots);

} // namespace wb
