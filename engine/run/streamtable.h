#pragma once
// The streams a multiplexed session (HTTP/2 on our framing or on libnghttp2, HTTP/3) has on one connection: a slot per
// stream it may open, the captures of an observed run beside them, and the requests the server refused, which go out
// again, oldest first, with the due times they had. One table, so that the three sessions count in-flight requests,
// expire them and answer the worker's questions (the oldest, each in flight) the same way.
//
// A Stream has `InFlightRequest request` and two predicates: `taken()` (the slot holds a stream the connection still
// knows) and `inFlight()` (taken, and its request still counts: not given up). A session that gives a stream up but
// must wait for the protocol to close it (a reset sent through a library) marks it cancelled: taken, not in flight.

#include "run/clientsession.h"
#include "run/responseobserver.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

namespace wb {

template<class Stream> class StreamTable
{
public:
    /// slots: `count` slots owned by the caller for this table alone; captures: as many beside them while
    /// the run is observed, else null.
    StreamTable(Stream* slots, ResponseCapture* captures, uint32_t count)
        : m_slots(slots)
        , m_captures(captures)
        , m_count(count)
    { }

    uint32_t size() const { return m_count; }
    Stream& operator[](uint32_t i) const { return m_slots[i]; }
    /// Slots taken: requests in flight and streams given up that the protocol has not closed yet.
    uint32_t taken() const { return m_taken; }
    /// Requests in flight on the connection (refused ones waiting to go out again not counted).
    uint32_t active() const { return m_active; }
    /// Requests the worker waits for: in flight, or refused and waiting to go out again.
    uint32_t inFlight() const { return m_active + static_cast<uint32_t>(m_refused.size()); }
    bool observed() const { return m_captures != nullptr; }
    /// The slot's capture while observed, else null.
    ResponseCapture* captureOf(const Stream& slot) const { return m_captures ? &m_captures[&slot - m_slots] : nullptr; }

    /// A new connection: every slot free. Refused requests stay, for the next connection.
    void clear()
    {
        for (uint32_t i = 0; i < m_count; ++i) {
            m_slots[i] = {};
            if (m_captures) m_captures[i].clear();
        }
        m_taken = 0;
        m_active = 0;
    }

    /// A free slot, or null.
    Stream* freeSlot() const
    {
        Stream* end = m_slots + m_count;
        Stream* slot = std::find_if(m_slots, end, [](const Stream& s) { return !s.taken(); });
        return slot == end ? nullptr : slot;
    }
    /// The taken slot with that stream id, or null.
    template<class Id> Stream* find(Id streamId) const
    {
        for (uint32_t i = 0; i < m_count; ++i)
            if (m_slots[i].taken() && m_slots[i].id == streamId) return &m_slots[i];
        return nullptr;
    }

    /// The slot's stream is open and its request in flight.
    void opened(Stream&)
    {
        ++m_taken;
        ++m_active;
    }
    /// The request is given up; the stream stays taken until the protocol closes it (close()).
    void cancel(Stream& slot)
    {
        slot.cancelled = true;
        --m_active;
    }
    /// The stream is closed: its slot and capture are free again. Read what is wanted of it first.
    void close(Stream& slot)
    {
        if (slot.inFlight()) --m_active;
        if (m_captures) m_captures[&slot - m_slots].clear();
        slot = {};
        --m_taken;
    }
    /// The server did not process the stream's request (refused, or above a GOAWAY's last stream): it goes out again.
    void refuse(const Stream& slot) { m_refused.push_back(slot.request); }
    /// A request that got no stream after all: it keeps its due time and goes out again.
    void refuse(const InFlightRequest& request) { m_refused.push_back(request); }
    bool hasRefused() const { return !m_refused.empty(); }

    /// The completion of a stream that got its response, with what the observer noted of it.
    Completion answered(const Stream& slot, ResponseObserver* observer, int status) const
    {
        ResponseNote note;
        if (observer && m_captures)
            note = observeResponse(*observer, m_captures[&slot - m_slots], slot.request.entry, status);
        return { slot.request, status, false, false, slot.firstByteUs, note };
    }

    /// Sends refused requests again, oldest first, as far as the session's capacity() allows.
    template<class Session> void sendRefused(Session& session, uint64_t nowUs)
    {
        size_t sent = 0;
        for (; sent < m_refused.size() && session.capacity() > 0; ++sent)
            session.submit(m_refused[sent].dueUs, nowUs, m_refused[sent].entry);
        m_refused.erase(m_refused.begin(), m_refused.begin() + static_cast<std::ptrdiff_t>(sent));
    }

    /// The request in flight sent first (a default one when none is).
    InFlightRequest oldest() const
    {
        InFlightRequest oldest;
        bool any = false;
        for (uint32_t i = 0; i < m_count; ++i) {
            const Stream& s = m_slots[i];
            if (!s.inFlight()) continue;
            if (!any || s.request.sentUs < oldest.sentUs) oldest = s.request;
            any = true;
        }
        return oldest;
    }
    /// Gives up every request in flight for longer than timeoutUs: giveUp(stream) tells the server and calls
    /// cancel() or close().
    template<class GiveUp> Expiry expire(uint64_t nowUs, uint64_t timeoutUs, GiveUp giveUp)
    {
        Expiry out;
        for (uint32_t i = 0; i < m_count; ++i) {
            Stream& s = m_slots[i];
            if (!s.inFlight()) continue;
            const uint64_t ageUs = nowUs > s.request.sentUs ? nowUs - s.request.sentUs : 0;
            if (ageUs <= timeoutUs) continue;
            giveUp(s);
            ++out.timedOut;
        }
        return out;
    }
    /// Each request the worker waits for: those in flight, then the refused.
    void forEachInFlight(const std::function<void(const InFlightRequest&)>& visit) const
    {
        for (uint32_t i = 0; i < m_count; ++i)
            if (m_slots[i].inFlight()) visit(m_slots[i].request);
        for (const InFlightRequest& r : m_refused)
            visit(r);
    }

private:
    Stream* m_slots;
    ResponseCapture* m_captures; ///< beside m_slots while observed, else null
    uint32_t m_count;
    uint32_t m_taken = 0;
    uint32_t m_active = 0; ///< m_taken without the streams given up
    /// Refused: sent again, oldest first. (A vector: an empty std::deque allocates ~600 bytes, 6 MB over 10,000
    /// connections.)
    std::vector<InFlightRequest> m_refused;
};

/// A worker's stream slots (and captures, while observed) for all its sessions, `streams` per session.
template<class Stream> class StreamSlots
{
public:
    StreamSlots(const ResponseObserver* observer, size_t sessions, uint32_t streams)
        : m_slots(sessions * streams)
        , m_captures(capturesFor(observer, m_slots.size()))
        , m_streams(streams)
    { }
    /// The slots of session i (and its captures, or null).
    Stream* slotsOf(size_t i) { return m_slots.data() + i * m_streams; }
    ResponseCapture* capturesOf(size_t i) { return m_captures.empty() ? nullptr : m_captures.data() + i * m_streams; }

private:
    std::vector<Stream> m_slots;
    std::vector<ResponseCapture> m_captures; ///< one per slot while observed, else empty
    uint32_t m_streams;
};

} // namespace wb
