// --allow (agent/allowlist.h): names, addresses, CIDRs of both families; nothing
// allowed by default; a name resolving outside the list is refused.

#include "agent/server/allowlist.h"

#include <gtest/gtest.h>

using namespace wb;

TEST(AllowList, EmptyAllowsNothingAndSaysHowToChangeIt)
{
    auto none = AllowList::parse("");
    ASSERT_TRUE(none);
    EXPECT_TRUE(none->empty());
    EXPECT_NE(none->refusal("127.0.0.1").find("allows no targets (start it with --allow)"), std::string::npos);
}

TEST(AllowList, MatchesAddressesCidrsAndNames)
{
    auto list = AllowList::parse(" 10.20.0.0/16, 127.0.0.1 ,Api.Internal, fd00::/8, ::1");
    ASSERT_TRUE(list) << list.error();
    EXPECT_EQ(list->entries().size(), 5u);
    EXPECT_EQ(list->refusal("10.20.255.1"), "");
    EXPECT_EQ(list->refusal("127.0.0.1"), "");
    EXPECT_EQ(list->refusal("api.internal"), "");
    EXPECT_EQ(list->refusal("fd12::1"), "");
    EXPECT_EQ(list->refusal("::1"), "");
    EXPECT_NE(list->refusal("10.21.0.1").find("not allowed"), std::string::npos);
    EXPECT_NE(list->refusal("127.0.0.2").find("127.0.0.2"), std::string::npos);
    EXPECT_NE(list->refusal("fe80::1"), "");
    // localhost resolves to 127.0.0.1 (and maybe ::1): inside the list.
    EXPECT_EQ(list->refusal("localhost"), "");
    EXPECT_NE(list->refusal("no-such-host.invalid").find("does not resolve"), std::string::npos);
    auto narrow = AllowList::parse("127.0.0.2/32");
    EXPECT_NE(narrow->refusal("localhost").find("resolves outside"), std::string::npos);
    EXPECT_EQ(AllowList::parse("0.0.0.0/0")->refusal("192.0.2.7"), "");
}

TEST(AllowList, RefusesEntriesThatDoNotRead)
{
    EXPECT_NE(AllowList::parse("10.0.0.0/33").error().find("'10.0.0.0/33'"), std::string::npos);
    EXPECT_NE(AllowList::parse("host/8").error().find("neither"), std::string::npos);
    EXPECT_NE(AllowList::parse("a b").error().find("'a b'"), std::string::npos);
    EXPECT_FALSE(AllowList::parse("10.0.0.0/"));
}
