#pragma once
// Private to the target server: the bytes a connection still has to send, in
// order, without copying large bodies. A queue is a list of segments: bytes it
// owns (headers, small bodies), bytes owned by the server (the body text) and
// filler (a periodic pattern from one shared buffer, so /bytes/N and big
// bodySize answers cost no memory per request). fillIov() turns the head of the
// queue into one writev-able iovec array; consume() drops what was written.

#include <algorithm>
#include <cstdint>
#include <string>
#include <sys/uio.h>
#include <vector>

namespace wb::serve {

constexpr uint64_t FILLER_PERIOD = 64; ///< the filler repeats every this many bytes (one text line)
constexpr uint64_t FILLER_CHUNK = 256 * 1024; ///< most filler bytes one iovec carries
constexpr uint64_t COPY_LIMIT = 4096; ///< shorter external/filler bodies are copied: fewer iovecs

/// FILLER_CHUNK + FILLER_PERIOD bytes of the pattern, built once per process:
/// the bytes at body offset o are fillerPattern()[o % FILLER_PERIOD], so any
/// stretch of a filler body starts at pattern + (offset % FILLER_PERIOD).
inline const char* fillerPattern()
{
    static const std::string pattern = [] {
        static constexpr char LINE[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-\n";
        static_assert(sizeof(LINE) - 1 == FILLER_PERIOD);
        std::string p;
        p.reserve(FILLER_CHUNK + FILLER_PERIOD);
        while (p.size() < FILLER_CHUNK + FILLER_PERIOD)
            p.append(LINE, FILLER_PERIOD);
        return p;
    }();
    return pattern.data();
}

class OutQueue
{
public:
    bool empty() const { return m_size == 0; }
    uint64_t size() const { return m_size; } ///< bytes not written yet

    void appendBytes(const char* data, size_t size)
    {
        if (size == 0) return;
        m_bytes.append(data, size);
        // Consecutive owned bytes are one segment: a run of small pipelined
        // answers becomes a single iovec.
        if (m_segments.size() > m_head && m_segments.back().kind == Kind::Owned)
            m_segments.back().size += size;
        else
            m_segments.push_back({ nullptr, size, Kind::Owned });
        m_size += size;
    }
    void appendBytes(const std::string& s) { appendBytes(s.data(), s.size()); }

    /// Bytes the queue does not copy; they must outlive it.
    void appendExternal(const char* data, uint64_t size)
    {
        if (size <= COPY_LIMIT) {
            appendBytes(data, size);
            return;
        }
        m_segments.push_back({ data, size, Kind::External });
        m_size += size;
    }

    void appendFiller(uint64_t size)
    {
        if (size <= COPY_LIMIT) {
            appendBytes(fillerPattern(), size);
            return;
        }
        m_segments.push_back({ nullptr, size, Kind::Filler });
        m_size += size;
    }

    /// Appends all of other, which must not have been partly consumed.
    void appendQueue(const OutQueue& other)
    {
        size_t owned = 0;
        for (const Segment& s : other.m_segments) {
            switch (s.kind) {
            case Kind::Owned:
                appendBytes(other.m_bytes.data() + owned, s.size);
                owned += s.size;
                break;
            case Kind::External:
                appendExternal(s.external, s.size);
                break;
            case Kind::Filler:
                appendFiller(s.size);
                break;
            }
        }
    }

    /// Fills up to maxIov iovecs from the head of the queue; returns how many
    /// and sets totalBytes to their sum.
    int fillIov(iovec* iov, int maxIov, uint64_t& totalBytes) const
    {
        int count = 0;
        totalBytes = 0;
        size_t owned = m_bytesPos;
        for (size_t i = m_head; i < m_segments.size() && count < maxIov; ++i) {
            const Segment& s = m_segments[i];
            uint64_t offset = i == m_head ? m_headOffset : 0;
            uint64_t left = s.size - offset;
            if (s.kind == Kind::Filler) {
                while (left > 0 && count < maxIov) {
                    uint64_t n = std::min(left, FILLER_CHUNK);
                    iov[count++] = { const_cast<char*>(fillerPattern() + offset % FILLER_PERIOD), n };
                    offset += n;
                    left -= n;
                    totalBytes += n;
                }
                continue;
            }
            const char* base = s.kind == Kind::Owned ? m_bytes.data() + owned : s.external + offset;
            if (s.kind == Kind::Owned) owned += left;
            iov[count++] = { const_cast<char*>(base), left };
            totalBytes += left;
        }
        return count;
    }

    /// Drops n written bytes from the head.
    void consume(uint64_t n)
    {
        m_size -= n;
        while (n > 0) {
            Segment& s = m_segments[m_head];
            uint64_t take = std::min(n, s.size - m_headOffset);
            if (s.kind == Kind::Owned) m_bytesPos += take;
            m_headOffset += take;
            n -= take;
            if (m_headOffset == s.size) {
                ++m_head;
                m_headOffset = 0;
            }
        }
        if (m_size == 0) {
            // The usual case: everything went out, keep the capacity for the next answers.
            m_bytes.clear();
            m_segments.clear();
            m_bytesPos = 0;
            m_head = 0;
            return;
        }
        // A slow reader that never drains completely must not make the buffers grow forever.
        if (m_bytesPos > 64 * 1024 && m_bytesPos > m_bytes.size() / 2) {
            m_bytes.erase(0, m_bytesPos);
            m_bytesPos = 0;
        }
        if (m_head > 64 && m_head > m_segments.size() / 2) {
            m_segments.erase(m_segments.begin(), m_segments.begin() + static_cast<std::ptrdiff_t>(m_head));
            m_head = 0;
        }
    }

private:
    enum class Kind : uint8_t { Owned, External, Filler };
    struct Segment
    {
        const char* external; ///< Kind::External only
        uint64_t size;
        Kind kind;
    };

    std::string m_bytes; // owned segments, back to back
    size_t m_bytesPos = 0; // first unwritten owned byte
    std::vector<Segment> m_segments;
    size_t m_head = 0; // first segment not completely written
    uint64_t m_headOffset = 0; // bytes of the head segment already written
    uint64_t m_size = 0;
};

} // namespace wb::serve
