#include "rawh2server.h"

#include "testsupport.h"

#include <cstring>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <utility>

namespace wb::test {

namespace {

constexpr uint8_t DATA = 0, HEADERS = 1, RST_STREAM = 3, SETTINGS = 4, GOAWAY = 7, WINDOW_UPDATE = 8;
constexpr uint8_t END_STREAM = 0x1, ACK = 0x1, END_HEADERS = 0x4;
constexpr size_t PREFACE_BYTES = 24;

std::string be32(uint32_t v)
{
    return { static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8), static_cast<char>(v) };
}

std::string frame(uint8_t type, uint8_t flags, uint32_t stream, const std::string& payload)
{
    const auto n = static_cast<uint32_t>(payload.size());
    std::string out { static_cast<char>(n >> 16), static_cast<char>(n >> 8), static_cast<char>(n),
        static_cast<char>(type), static_cast<char>(flags) };
    return out + be32(stream & 0x7FFFFFFF) + payload;
}

bool writeAll(int fd, const std::string& bytes)
{
    size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::send(fd, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
        if (n <= 0) return false;
        done += static_cast<size_t>(n);
    }
    return true;
}

// Reads exactly n bytes; false on close, error or stop (polled every 50 ms).
bool readExactly(int fd, char* out, size_t n, const std::atomic<bool>& stop)
{
    size_t done = 0;
    while (done < n) {
        pollfd p { fd, POLLIN, 0 };
        if (::poll(&p, 1, 50) == 0) {
            if (stop.load()) return false;
            continue;
        }
        const ssize_t r = ::recv(fd, out + done, n - done, 0);
        if (r <= 0) return false;
        done += static_cast<size_t>(r);
    }
    return true;
}

// HPACK: ":status: 200" is entry 8 of the static table, one byte.
const std::string STATUS_200 = "\x88";
// A dynamic table size update to 0: the client announced SETTINGS_HEADER_TABLE_SIZE 0, and the
// first header block after it must say so (RFC 7541 4.2).
const std::string TABLE_SIZE_0 = "\x20";
// "server: raw" (RFC 7541 6.2): a literal without indexing, a literal with incremental indexing
// (into the dynamic table's first slot, index 62), and that slot by index.
const std::string SERVER_FIELD_LITERAL = std::string("\x00\x06server\x03raw", 12);
const std::string SERVER_FIELD_INDEXED = "\x40\x06server\x03raw";
const std::string SERVER_FIELD_BY_INDEX = "\xbe";

} // namespace

RawH2Server::RawH2Server(Behaviour behaviour)
    : m_behaviour(behaviour)
{
    m_listenFd = listenOnLoopback(m_port, 0, 128);
    m_acceptThread = std::thread([this] { acceptLoop(); });
}

RawH2Server::~RawH2Server()
{
    m_stop = true;
    m_acceptThread.join();
    std::vector<std::thread> threads;
    {
        std::lock_guard lock(m_mutex);
        for (int fd : m_fds)
            ::shutdown(fd, SHUT_RDWR);
        threads.swap(m_threads);
    }
    for (auto& t : threads)
        t.join(); // each closes its connection on its way out
    ::close(m_listenFd);
}

void RawH2Server::acceptLoop()
{
    while (!m_stop.load()) {
        pollfd p { m_listenFd, POLLIN, 0 };
        if (::poll(&p, 1, 50) <= 0) continue;
        const int fd = ::accept4(m_listenFd, nullptr, nullptr, SOCK_CLOEXEC);
        if (fd < 0) continue;
        const int one = 1;
        ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        ++m_accepted;
        std::lock_guard lock(m_mutex);
        m_fds.push_back(fd);
        m_threads.emplace_back([this, fd] {
            serve(fd);
            // Closed as soon as it is served: the engine reconnects thousands of times against
            // the bad servers, and a server kept alive must not hold every socket it ever had
            // (the process would run out of descriptors, and a later server could not accept).
            std::lock_guard closing(m_mutex);
            std::erase(m_fds, fd);
            ::close(fd);
        });
    }
}

void RawH2Server::serve(int fd)
{
    char preface[PREFACE_BYTES];
    if (!readExactly(fd, preface, PREFACE_BYTES, m_stop)) return;
    if (m_behaviour == Behaviour::Http1Only) {
        writeAll(fd, "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
        ::shutdown(fd, SHUT_WR);
        return;
    }
    if (m_behaviour == Behaviour::NeverSendsSettings) {
        char sink[4096];
        while (readExactly(fd, sink, 1, m_stop)) { }
        return;
    }
    if (!writeAll(fd, frame(SETTINGS, 0, 0, ""))) return;
    unsigned answeredHere = 0;
    // Every answer carries "server: raw", as real servers' do. A server that honours the client's
    // table of 0 bytes says so first and never indexes; one that ignores it indexes the field
    // into HPACK's default table once and names it by index (62) from then on, as nginx does.
    const bool ignoresTable = m_behaviour == Behaviour::OmitsTableSizeUpdate;
    bool firstBlock = true;
    auto statusBlock = [&] {
        const bool first = std::exchange(firstBlock, false);
        if (ignoresTable) return STATUS_200 + (first ? SERVER_FIELD_INDEXED : SERVER_FIELD_BY_INDEX);
        return (first ? TABLE_SIZE_0 : std::string()) + STATUS_200 + SERVER_FIELD_LITERAL;
    };
    uint32_t lastAnswered = 0;
    bool misbehaved = false;
    for (;;) {
        char header[9];
        if (!readExactly(fd, header, 9, m_stop)) return;
        const uint32_t length = (static_cast<uint8_t>(header[0]) << 16) | (static_cast<uint8_t>(header[1]) << 8)
            | static_cast<uint8_t>(header[2]);
        const auto type = static_cast<uint8_t>(header[3]);
        const auto flags = static_cast<uint8_t>(header[4]);
        const uint32_t stream = ((static_cast<uint8_t>(header[5]) << 24) | (static_cast<uint8_t>(header[6]) << 16)
                                    | (static_cast<uint8_t>(header[7]) << 8) | static_cast<uint8_t>(header[8]))
            & 0x7FFFFFFF;
        std::string payload(length, '\0');
        if (length > 0 && !readExactly(fd, payload.data(), length, m_stop)) return;
        if (type == SETTINGS && !(flags & ACK)) {
            if (!writeAll(fd, frame(SETTINGS, ACK, 0, ""))) return;
            continue;
        }
        if (type != HEADERS) continue;

        std::string reply;
        switch (m_behaviour) {
        case Behaviour::GarbageAfterPreface:
            if (!misbehaved) reply = std::string(64, '\xff');
            misbehaved = true;
            break;
        case Behaviour::SettingsFlood:
            if (!misbehaved)
                for (int i = 0; i < 50'000; ++i)
                    reply += frame(SETTINGS, 0, 0, "");
            misbehaved = true;
            break;
        case Behaviour::HeadersWithoutEndHeaders:
            reply = frame(HEADERS, 0, stream, statusBlock()) + frame(DATA, END_STREAM, stream, "ok");
            break;
        case Behaviour::WindowUpdateZero:
            if (!misbehaved) reply = frame(WINDOW_UPDATE, 0, 0, be32(0));
            misbehaved = true;
            break;
        case Behaviour::ResetEveryStream:
            reply = frame(RST_STREAM, 0, stream, be32(0x2)); // INTERNAL_ERROR
            break;
        case Behaviour::GoawayAfter20:
            if (answeredHere == 20) {
                // Graceful: everything up to lastAnswered is done, the rest was not processed.
                // The client's frames are read (and ignored) until it closes: closing with
                // unread bytes would send a reset that can destroy the GOAWAY in flight.
                writeAll(fd, frame(GOAWAY, 0, 0, be32(lastAnswered) + be32(0)));
                char sink[4096];
                while (readExactly(fd, sink, 1, m_stop)) { }
                return;
            }
            [[fallthrough]];
        case Behaviour::Good:
        case Behaviour::OmitsTableSizeUpdate:
            reply = frame(HEADERS, END_HEADERS, stream, statusBlock()) + frame(DATA, END_STREAM, stream, "ok");
            ++answeredHere;
            lastAnswered = stream;
            ++m_answered;
            break;
        case Behaviour::NeverSendsSettings:
        case Behaviour::Http1Only:
            break;
        }
        if (!reply.empty() && !writeAll(fd, reply)) return;
    }
}

} // namespace wb::test
