// The in-flight stream table the HTTP/2 and HTTP/3 sessions share: what counts as in flight while streams open,
// are given up and close; that refused requests go out again oldest first, as far as the session has room, with
// the due times they had; and that expiry gives up only requests older than the timeout.

#include "run/streamtable.h"

#include <gtest/gtest.h>

using namespace wb;

namespace {

struct Stream
{
    InFlightRequest request;
    int64_t id = -1;
    bool cancelled = false;
    uint64_t firstByteUs = 0;
    bool taken() const { return id >= 0; }
    bool inFlight() const { return id >= 0 && !cancelled; }
};

// A session as the table sees it: room for `room` more requests, and what it was asked to send.
struct Sender
{
    StreamTable<Stream>* table = nullptr;
    uint32_t room = 0;
    std::vector<std::pair<uint64_t, uint64_t>> sent; ///< (dueUs, sentUs)
    uint32_t capacity() const { return room; }
    void submit(uint64_t dueUs, uint64_t sentUs, const RequestPick& pick)
    {
        --room;
        sent.emplace_back(dueUs, sentUs);
        Stream* slot = table->freeSlot();
        ASSERT_NE(slot, nullptr);
        slot->request = { dueUs, sentUs, pick.entry };
        slot->id = static_cast<int64_t>(sent.size()) * 4;
        table->opened(*slot);
    }
};

Stream& open(StreamTable<Stream>& table, int64_t id, uint64_t sentUs)
{
    Stream* slot = table.freeSlot();
    EXPECT_NE(slot, nullptr);
    slot->request = { sentUs, sentUs, 0 };
    slot->id = id;
    table.opened(*slot);
    return *slot;
}

std::vector<uint64_t> inFlightSentTimes(const StreamTable<Stream>& table)
{
    std::vector<uint64_t> out;
    table.forEachInFlight([&](const InFlightRequest& r) { out.push_back(r.sentUs); });
    return out;
}

} // namespace

TEST(StreamTable, ACancelledStreamHoldsItsSlotButIsNoLongerInFlight)
{
    std::vector<Stream> slots(3);
    StreamTable<Stream> table(slots.data(), nullptr, 3);
    Stream& a = open(table, 0, 100);
    open(table, 4, 200);
    EXPECT_EQ(table.taken(), 2u);
    EXPECT_EQ(table.active(), 2u);

    table.cancel(a);
    EXPECT_EQ(table.taken(), 2u) << "the protocol has not closed it yet";
    EXPECT_EQ(table.active(), 1u);
    EXPECT_EQ(table.oldest().sentUs, 200u) << "a request given up is not the oldest in flight";
    EXPECT_EQ(inFlightSentTimes(table), (std::vector<uint64_t> { 200 }));

    table.close(a);
    EXPECT_EQ(table.taken(), 1u);
    EXPECT_EQ(table.active(), 1u) << "closing a cancelled stream does not count it twice";
    EXPECT_EQ(table.find(int64_t { 0 }), nullptr);
    EXPECT_NE(table.find(int64_t { 4 }), nullptr);
    ASSERT_EQ(table.freeSlot(), &slots[0]) << "the closed slot is free again";
}

TEST(StreamTable, RefusedRequestsGoOutAgainOldestFirstAsFarAsThereIsRoom)
{
    std::vector<Stream> slots(4);
    StreamTable<Stream> table(slots.data(), nullptr, 4);
    for (int64_t i = 0; i < 3; ++i) {
        Stream& s = open(table, i * 4, 100 + static_cast<uint64_t>(i));
        table.refuse(s);
        table.close(s);
    }
    EXPECT_EQ(table.active(), 0u);
    EXPECT_EQ(table.inFlight(), 3u) << "refused requests are still awaited";
    EXPECT_EQ(inFlightSentTimes(table), (std::vector<uint64_t> { 100, 101, 102 }));

    Sender sender { &table, 2, {} };
    table.sendRefused(sender, 500);
    ASSERT_EQ(sender.sent.size(), 2u) << "no more than the session's room";
    EXPECT_EQ(sender.sent[0], (std::pair<uint64_t, uint64_t> { 100, 500 })) << "due time kept, sent now";
    EXPECT_EQ(sender.sent[1], (std::pair<uint64_t, uint64_t> { 101, 500 }));
    EXPECT_TRUE(table.hasRefused());
    EXPECT_EQ(table.inFlight(), 3u);

    sender.room = 5;
    table.sendRefused(sender, 600);
    ASSERT_EQ(sender.sent.size(), 3u);
    EXPECT_EQ(sender.sent[2], (std::pair<uint64_t, uint64_t> { 102, 600 }));
    EXPECT_FALSE(table.hasRefused());
}

TEST(StreamTable, ExpiryGivesUpOnlyWhatIsOlderThanTheTimeout)
{
    std::vector<Stream> slots(3);
    StreamTable<Stream> table(slots.data(), nullptr, 3);
    open(table, 0, 1'000);
    open(table, 4, 5'000);
    Stream& given = open(table, 8, 1'500);
    table.cancel(given); // given up before: not timed out a second time
    std::vector<int64_t> gaveUp;
    const Expiry e = table.expire(10'000, 8'000, [&](Stream& s) {
        gaveUp.push_back(s.id);
        table.close(s);
    });
    EXPECT_EQ(e.timedOut, 1u);
    EXPECT_EQ(gaveUp, (std::vector<int64_t> { 0 }));
    EXPECT_EQ(table.active(), 1u);
    EXPECT_EQ(table.oldest().sentUs, 5'000u);
}

TEST(StreamTable, AnAnsweredStreamHandsItsCaptureToTheObserverAndANewConnectionKeepsTheRefused)
{
    struct Observer final : ResponseObserver
    {
        int seenStatus = 0;
        std::string seenBody;
        bool wantsBody() const override { return true; }
        void onResponse(const ObservedResponse& r) override
        {
            seenStatus = r.status;
            seenBody = std::string(r.body);
        }
    } observer;
    std::vector<Stream> slots(2);
    std::vector<ResponseCapture> captures = capturesFor(&observer, slots.size());
    StreamTable<Stream> table(slots.data(), captures.data(), 2);
    Stream& s = open(table, 0, 10);
    s.firstByteUs = 42;
    table.captureOf(s)->appendBody("hello", 5);
    const Completion done = table.answered(s, &observer, 204);
    EXPECT_EQ(done.status, 204);
    EXPECT_EQ(done.firstByteUs, 42u);
    EXPECT_EQ(done.request.sentUs, 10u);
    EXPECT_EQ(observer.seenStatus, 204);
    EXPECT_EQ(observer.seenBody, "hello");
    EXPECT_TRUE(captures[0].body.empty()) << "the capture is ready for the next response";

    Stream& r = open(table, 4, 20);
    table.refuse(r);
    table.captureOf(r)->appendBody("x", 1);
    table.clear();
    EXPECT_EQ(table.taken(), 0u);
    EXPECT_EQ(table.active(), 0u);
    EXPECT_TRUE(captures[1].body.empty());
    EXPECT_EQ(table.inFlight(), 1u) << "a refused request waits for the next connection";
}
