// Http1Session on its own: bytes in, completions out, request bytes to write.
// The socket side (the worker) is covered by the nginx-backed run tests.

#include "run/http1/http1session.h"

#include <functional>
#include <gtest/gtest.h>
#include <string>
#include <string_view>
#include <vector>

using namespace wb;

namespace {

RequestSpec getRequest(const std::string& method = "GET")
{
    RequestSpec spec;
    spec.method = method;
    spec.url = *parseUrl("http://127.0.0.1:8080/x");
    return spec;
}

// Records every completion; returns false (as a worker that closed the
// connection does) once `stopAfter` completions were seen.
class Recorder final : public CompletionHandler
{
public:
    bool onCompletion(const Completion& done) override
    {
        completions.push_back(done);
        if (then) then(done);
        return completions.size() != stopAfter;
    }
    std::vector<Completion> completions;
    size_t stopAfter = 0; ///< 0: never stop
    std::function<void(const Completion&)> then; ///< runs inside the callback (re-entrance)
};

// Feeds `stream` in the pieces delimited by `cuts`, each through a scratch buffer that is
// clobbered after the call, like the worker's shared read buffer.
SessionResult feedInPieces(Http1Session& s, std::string_view stream, std::vector<size_t> cuts, Recorder& r)
{
    cuts.push_back(stream.size());
    size_t start = 0;
    std::string scratch;
    for (const size_t cut : cuts) {
        scratch.assign(stream.substr(start, cut - start));
        const SessionResult result = s.onRead(scratch.data(), scratch.size(), r);
        scratch.assign(scratch.size(), '\xff');
        if (result != SessionResult::Ok) return result;
        start = cut;
    }
    return SessionResult::Ok;
}

// One pool of one session: what a worker's connection slot gets.
struct OneSession
{
    OneSession(uint32_t depth, bool closedLoop, const std::string& method = "GET")
        : pool(Http1Requests::build({ getRequest(method) }, depth, closedLoop), 1)
        , session(pool[0])
    {
        session.onConnected();
    }
    Http1SessionPool pool;
    Http1Session& session;
};

constexpr std::string_view OK_LENGTH = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello";
constexpr std::string_view NOT_FOUND_CHUNKED
    = "HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\nX-Trailer: 1\r\n\r\n";
constexpr std::string_view CREATED_EMPTY = "HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n";

std::string output(Http1Session& s)
{
    const auto bytes = s.pendingOutput();
    return { bytes.data(), bytes.size() };
}

} // namespace

TEST(Http1Session, SubmittedRequestsBecomeOutputUntilWritten)
{
    OneSession one(3, false);
    Http1Session& s = one.session;
    const std::string request = buildRequest(getRequest());
    EXPECT_FALSE(s.hasOutput());
    s.submit(10, 11, 0);
    s.submit(20, 21, 0);
    EXPECT_EQ(output(s), request + request);
    const auto rest = s.onWritten(5); // a partial write: the rest stays pending
    EXPECT_EQ(std::string(rest.data(), rest.size()), (request + request).substr(5));
    EXPECT_EQ(output(s), (request + request).substr(5));
    EXPECT_TRUE(s.onWritten(2 * request.size() - 5).empty());
    EXPECT_FALSE(s.hasOutput());
    s.submit(30, 31, 0); // after a full write the next one starts at the front of the batch again
    EXPECT_EQ(output(s), request);
    EXPECT_EQ(s.inFlight(), 3u);
}

TEST(Http1Session, ClosedLoopTakesAWholeBatchOnlyWhenIdle)
{
    OneSession one(3, true);
    Http1Session& s = one.session;
    EXPECT_EQ(s.capacity(), 3u);
    for (int i = 0; i < 3; ++i)
        s.submit(100, 100, 0);
    s.onWritten(s.pendingOutput().size());
    EXPECT_EQ(s.capacity(), 0u);
    Recorder r;
    std::string two = std::string(OK_LENGTH) + std::string(OK_LENGTH);
    ASSERT_EQ(s.onRead(two.data(), two.size(), r), SessionResult::Ok);
    EXPECT_EQ(s.capacity(), 0u) << "wrk's pipelining: no new batch while one response is pending";
    ASSERT_EQ(s.onRead(OK_LENGTH.data(), OK_LENGTH.size(), r), SessionResult::Ok);
    EXPECT_EQ(s.capacity(), 3u);
    EXPECT_EQ(r.completions.size(), 3u);
}

TEST(Http1Session, OpenModelTakesWhatThePipelineHasRoomFor)
{
    OneSession one(3, false);
    Http1Session& s = one.session;
    EXPECT_EQ(s.capacity(), 3u);
    s.submit(1, 1, 0);
    s.submit(2, 2, 0);
    EXPECT_EQ(s.capacity(), 1u);
    s.onWritten(s.pendingOutput().size());
    Recorder r;
    ASSERT_EQ(s.onRead(OK_LENGTH.data(), OK_LENGTH.size(), r), SessionResult::Ok);
    EXPECT_EQ(s.capacity(), 2u);
}

TEST(Http1Session, PipelinedResponsesSplitAnywhereCompleteInOrderWithTheirTimes)
{
    const std::string stream = std::string(OK_LENGTH) + std::string(NOT_FOUND_CHUNKED) + std::string(CREATED_EMPTY);
    // One cut at every position, then two cuts at every pair of positions.
    std::vector<std::vector<size_t>> cutsList;
    for (size_t i = 0; i <= stream.size(); ++i) {
        cutsList.push_back({ i });
        for (size_t j = i; j <= stream.size(); j += 7)
            cutsList.push_back({ i, j });
    }
    for (const auto& cuts : cutsList) {
        OneSession one(4, false);
        Http1Session& s = one.session;
        s.submit(100, 150, 0);
        s.submit(200, 250, 0);
        s.submit(300, 350, 0);
        s.onWritten(s.pendingOutput().size());
        Recorder r;
        ASSERT_EQ(feedInPieces(s, stream, cuts, r), SessionResult::Ok) << "cut at " << cuts[0];
        ASSERT_EQ(r.completions.size(), 3u) << "cut at " << cuts[0];
        EXPECT_EQ(r.completions[0].status, 200);
        EXPECT_EQ(r.completions[1].status, 404);
        EXPECT_EQ(r.completions[2].status, 201);
        for (size_t k = 0; k < 3; ++k) {
            EXPECT_EQ(r.completions[k].request.dueUs, 100 * (k + 1));
            EXPECT_EQ(r.completions[k].request.sentUs, 100 * (k + 1) + 50);
            EXPECT_FALSE(r.completions[k].closing);
        }
        EXPECT_EQ(s.inFlight(), 0u);
    }
}

TEST(Http1Session, ByteByByte)
{
    const std::string stream = std::string(NOT_FOUND_CHUNKED) + std::string(OK_LENGTH);
    std::vector<size_t> cuts;
    for (size_t i = 1; i < stream.size(); ++i)
        cuts.push_back(i);
    OneSession one(2, true);
    Http1Session& s = one.session;
    s.submit(1, 1, 0);
    s.submit(1, 1, 0);
    Recorder r;
    ASSERT_EQ(feedInPieces(s, stream, cuts, r), SessionResult::Ok);
    ASSERT_EQ(r.completions.size(), 2u);
    EXPECT_EQ(r.completions[0].status, 404);
    EXPECT_EQ(r.completions[1].status, 200);
}

TEST(Http1Session, ResponsesToHeadHaveNoBody)
{
    OneSession one(2, true, "HEAD");
    Http1Session& s = one.session;
    EXPECT_EQ(output(s).substr(0, 5), ""); // nothing before a submit
    s.submit(1, 1, 0);
    s.submit(2, 2, 0);
    EXPECT_EQ(output(s).substr(0, 5), "HEAD ");
    s.onWritten(s.pendingOutput().size());
    // Content-Length names the size a GET would have had; no body follows.
    const std::string stream = "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n"
                               "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
    Recorder r;
    ASSERT_EQ(s.onRead(stream.data(), stream.size(), r), SessionResult::Ok);
    ASSERT_EQ(r.completions.size(), 2u);
    EXPECT_EQ(r.completions[1].request.dueUs, 2u);
    EXPECT_EQ(s.inFlight(), 0u);
}

TEST(Http1Session, BodyDelimitedByTheCloseCompletesAtEndOfFile)
{
    OneSession one(1, true);
    Http1Session& s = one.session;
    s.submit(7, 8, 0);
    const std::string head = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nsome body ";
    Recorder r;
    ASSERT_EQ(s.onRead(head.data(), head.size(), r), SessionResult::Ok);
    ASSERT_EQ(s.onRead("and more", 8, r), SessionResult::Ok);
    EXPECT_TRUE(r.completions.empty());
    ASSERT_EQ(s.onEof(r), SessionResult::Ok);
    ASSERT_EQ(r.completions.size(), 1u);
    EXPECT_EQ(r.completions[0].status, 200);
    EXPECT_EQ(r.completions[0].request.dueUs, 7u);
    EXPECT_TRUE(r.completions[0].closing);
}

TEST(Http1Session, EndOfFileMidResponseLosesTheRequestsInFlight)
{
    OneSession one(2, true);
    Http1Session& s = one.session;
    s.submit(1, 1, 0);
    s.submit(1, 1, 0);
    Recorder r;
    const std::string partial = std::string(OK_LENGTH) + "HTTP/1.1 200 OK\r\nContent-Le";
    ASSERT_EQ(s.onRead(partial.data(), partial.size(), r), SessionResult::Ok);
    EXPECT_EQ(s.onEof(r), SessionResult::Truncated);
    EXPECT_EQ(r.completions.size(), 1u);

    // Nothing in flight: an idle close is no error.
    OneSession idle(1, true);
    EXPECT_EQ(idle.session.onEof(r), SessionResult::Ok);
    // In flight but nothing received yet: lost as well.
    OneSession waiting(1, true);
    waiting.session.submit(1, 1, 0);
    EXPECT_EQ(waiting.session.onEof(r), SessionResult::Truncated);
}

TEST(Http1Session, ConnectionCloseMakesTheCompletionClosing)
{
    OneSession one(1, true);
    Http1Session& s = one.session;
    s.submit(1, 1, 0);
    const std::string stream = "HTTP/1.1 503 Busy\r\nConnection: close\r\nContent-Length: 0\r\n\r\n";
    Recorder r;
    ASSERT_EQ(s.onRead(stream.data(), stream.size(), r), SessionResult::Ok);
    ASSERT_EQ(r.completions.size(), 1u);
    EXPECT_EQ(r.completions[0].status, 503);
    EXPECT_TRUE(r.completions[0].closing);
}

TEST(Http1Session, MalformedInputIsAProtocolError)
{
    OneSession one(1, true);
    Http1Session& s = one.session;
    s.submit(1, 1, 0);
    Recorder r;
    const std::string garbage = "SSH-2.0-OpenSSH_9.6\r\n";
    EXPECT_EQ(s.onRead(garbage.data(), garbage.size(), r), SessionResult::ProtocolError);
    EXPECT_TRUE(r.completions.empty());

    OneSession chunk(1, true);
    chunk.session.submit(1, 1, 0);
    const std::string badChunk = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n";
    EXPECT_EQ(chunk.session.onRead(badChunk.data(), badChunk.size(), r), SessionResult::ProtocolError);
}

TEST(Http1Session, AResponseNobodyAskedForIsAProtocolError)
{
    OneSession one(2, true);
    Http1Session& s = one.session;
    s.submit(1, 1, 0);
    const std::string two = std::string(OK_LENGTH) + std::string(OK_LENGTH);
    Recorder r;
    EXPECT_EQ(s.onRead(two.data(), two.size(), r), SessionResult::ProtocolError);
    EXPECT_EQ(r.completions.size(), 1u);
}

TEST(Http1Session, AHandlerThatClosesTheConnectionStopsTheParse)
{
    OneSession one(3, true);
    Http1Session& s = one.session;
    for (int i = 0; i < 3; ++i)
        s.submit(1, 1, 0);
    Recorder r;
    r.stopAfter = 1;
    r.then = [&](const Completion&) { s.reset(); }; // what a worker's recycle does
    const std::string three = std::string(OK_LENGTH) + std::string(OK_LENGTH) + std::string(OK_LENGTH);
    EXPECT_EQ(s.onRead(three.data(), three.size(), r), SessionResult::Stopped);
    EXPECT_EQ(r.completions.size(), 1u);
    EXPECT_EQ(s.inFlight(), 0u);
}

TEST(Http1Session, AHandlerMaySubmitTheNextBatchFromInsideTheParse)
{
    OneSession one(1, true);
    Http1Session& s = one.session;
    s.submit(1, 1, 0);
    s.onWritten(s.pendingOutput().size());
    Recorder r;
    uint64_t next = 2;
    r.then = [&](const Completion&) {
        ASSERT_EQ(s.capacity(), 1u);
        s.submit(next, next, 0);
        ++next;
        s.onWritten(s.pendingOutput().size());
    };
    // Three responses in one read, each answering the request submitted after the previous one.
    const std::string three = std::string(OK_LENGTH) + std::string(CREATED_EMPTY) + std::string(OK_LENGTH);
    ASSERT_EQ(s.onRead(three.data(), three.size(), r), SessionResult::Ok);
    ASSERT_EQ(r.completions.size(), 3u);
    EXPECT_EQ(r.completions[0].request.dueUs, 1u);
    EXPECT_EQ(r.completions[1].request.dueUs, 2u);
    EXPECT_EQ(r.completions[1].status, 201);
    EXPECT_EQ(r.completions[2].request.dueUs, 3u);
    EXPECT_EQ(s.inFlight(), 1u);
}

TEST(Http1Session, InFlightRequestsOldestFirstAcrossTheRingsWrap)
{
    OneSession one(3, false);
    Http1Session& s = one.session;
    EXPECT_EQ(s.oldestInFlight().sentUs, 0u);
    s.submit(10, 11, 0);
    s.submit(20, 21, 0);
    Recorder r;
    ASSERT_EQ(s.onRead(OK_LENGTH.data(), OK_LENGTH.size(), r), SessionResult::Ok);
    s.submit(30, 31, 0);
    s.submit(40, 41, 0); // wraps around the 3-slot ring
    EXPECT_EQ(s.oldestInFlight().dueUs, 20u);
    std::vector<uint64_t> due;
    s.forEachInFlight([&](const InFlightRequest& q) { due.push_back(q.dueUs); });
    EXPECT_EQ(due, (std::vector<uint64_t> { 20, 30, 40 }));
    const std::string three = std::string(OK_LENGTH) + std::string(OK_LENGTH) + std::string(OK_LENGTH);
    ASSERT_EQ(s.onRead(three.data(), three.size(), r), SessionResult::Ok);
    ASSERT_EQ(r.completions.size(), 4u);
    EXPECT_EQ(r.completions[3].request.sentUs, 41u);
}

TEST(Http1Session, TheOldestRequestTimingOutLosesTheConnection)
{
    OneSession one(2, false);
    Http1Session& s = one.session;
    EXPECT_EQ(s.expire(1'000'000, 10).timedOut, 0u);
    s.submit(100, 100, 0);
    s.submit(500, 500, 0);
    Expiry e = s.expire(150, 100);
    EXPECT_EQ(e.timedOut, 0u);
    EXPECT_FALSE(e.closeConnection);
    e = s.expire(50, 10); // sent after `now` was taken: not old at all
    EXPECT_EQ(e.timedOut, 0u);
    e = s.expire(201, 100);
    EXPECT_EQ(e.timedOut, 2u); // the second one queues behind it
    EXPECT_TRUE(e.closeConnection);
}

TEST(Http1Session, ResetForgetsEverything)
{
    OneSession one(2, true);
    Http1Session& s = one.session;
    s.submit(1, 1, 0);
    s.submit(1, 1, 0);
    s.onWritten(3);
    Recorder r;
    ASSERT_EQ(s.onRead("HTTP/1.1 2", 10, r), SessionResult::Ok);
    s.reset();
    EXPECT_EQ(s.inFlight(), 0u);
    EXPECT_FALSE(s.hasOutput());
    EXPECT_EQ(s.capacity(), 2u);
    s.submit(5, 5, 0);
    ASSERT_EQ(s.onRead(OK_LENGTH.data(), OK_LENGTH.size(), r), SessionResult::Ok);
    ASSERT_EQ(r.completions.size(), 1u);
    EXPECT_EQ(r.completions[0].request.dueUs, 5u);
}

TEST(Http1Session, SessionsOfAPoolHaveTheirOwnRings)
{
    Http1SessionPool pool(Http1Requests::build({ getRequest() }, 2, false), 3);
    ASSERT_EQ(pool.size(), 3u);
    for (size_t i = 0; i < 3; ++i) {
        pool[i].onConnected();
        pool[i].submit(10 * i, 10 * i, 0);
        pool[i].submit(10 * i + 1, 10 * i + 1, 0);
    }
    for (size_t i = 0; i < 3; ++i) {
        std::vector<uint64_t> due;
        pool[i].forEachInFlight([&](const InFlightRequest& q) { due.push_back(q.dueUs); });
        EXPECT_EQ(due, (std::vector<uint64_t> { 10 * i, 10 * i + 1 }));
    }
}

// A server may answer a request before reading all of it (nginx's `return` with a body it does
// not want, and proxies that pass its answer on): the next request queues behind the unwritten
// rest, byte for byte, and the pending slice never leaves the batch.
TEST(Http1Session, AnAnswerBeforeTheRequestIsWrittenQueuesTheNextBehindItsRest)
{
    for (const bool closedLoop : { true, false }) {
        SCOPED_TRACE(closedLoop ? "closed loop" : "open model");
        OneSession one(1, closedLoop, "POST");
        Http1Session& s = one.session;
        const std::string request = buildRequest(getRequest("POST"));
        std::string sent; // what the socket took
        const auto write = [&](size_t n) {
            n = std::min(n, s.pendingOutput().size());
            sent.append(s.pendingOutput().data(), n);
            s.onWritten(n);
        };
        Recorder r;
        s.submit(1, 1, 0);
        write(7); // the socket took 7 bytes, then blocked; the server answers from them
        ASSERT_EQ(s.onRead(OK_LENGTH.data(), OK_LENGTH.size(), r), SessionResult::Ok);
        ASSERT_EQ(r.completions.size(), 1u);
        ASSERT_EQ(s.capacity(), 1u);
        s.submit(2, 2, 0);
        EXPECT_EQ(output(s), request.substr(7) + request);
        // Each next request answered as soon as a few bytes of it are out, written in pieces
        // that cross the batch's copies anywhere.
        for (uint64_t k = 1; k < 6; ++k) {
            while (sent.size() < k * request.size() + 7)
                write(request.size() / 2 + 3);
            ASSERT_EQ(s.onRead(OK_LENGTH.data(), OK_LENGTH.size(), r), SessionResult::Ok);
            ASSERT_EQ(s.capacity(), 1u);
            s.submit(2 + k, 2 + k, 0);
            ASSERT_LE(s.pendingOutput().size(), 2 * request.size());
        }
        sent += output(s);
        std::string expected;
        while (expected.size() < sent.size())
            expected += request;
        EXPECT_EQ(sent, expected) << "every byte written is part of a whole request, in order";
        EXPECT_EQ(r.completions.size(), 6u);
    }
}

TEST(Http1Session, AServerAnsweringWhatItWasNeverSentCannotOverrunTheBatch)
{
    OneSession one(2, false, "POST");
    Http1Session& s = one.session;
    const std::string request = buildRequest(getRequest("POST"));
    Recorder r;
    s.submit(1, 1, 0);
    // Nothing written; the server answers anyway, again and again: each answer frees a slot,
    // but the unwritten requests fill the batch and the session takes no more.
    size_t taken = 1;
    for (int i = 0; i < 10; ++i) {
        if (s.inFlight() == 0) break;
        if (s.onRead(OK_LENGTH.data(), OK_LENGTH.size(), r) != SessionResult::Ok) break;
        for (uint32_t room = s.capacity(); room > 0; --room, ++taken)
            s.submit(2, 2, 0);
        ASSERT_LE(s.pendingOutput().size(), 3 * request.size());
    }
    EXPECT_EQ(taken, 3u) << "the pipeline's 2 and one answered early, no more";
    EXPECT_EQ(output(s), request + request + request);
    EXPECT_EQ(s.onRead(OK_LENGTH.data(), OK_LENGTH.size(), r), SessionResult::ProtocolError)
        << "an answer with nothing in flight";
}
