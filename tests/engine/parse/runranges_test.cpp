// Run ranges as people type them for `tag --run` and `study --runs`.

#include "parse/runranges.h"

#include <gtest/gtest.h>

using namespace wb;

TEST(RunRanges, IdsAndRangesInTheOrderGivenEachOnce)
{
    auto ids = parseRunRanges("1-3,15, 20-22 ,2");
    ASSERT_TRUE(ids.ok()) << ids.error();
    EXPECT_EQ(*ids, (std::vector<int64_t> { 1, 2, 3, 15, 20, 21, 22 }));
    EXPECT_EQ(*parseRunRanges("7"), std::vector<int64_t> { 7 });
    EXPECT_EQ(*parseRunRanges("4-4"), std::vector<int64_t> { 4 });
}

TEST(RunRanges, BadInputNamesThePart)
{
    auto expectError = [](const std::string& text, const std::string& part) {
        auto ids = parseRunRanges(text);
        ASSERT_FALSE(ids.ok()) << text;
        EXPECT_NE(ids.error().find(part), std::string::npos) << ids.error();
    };
    expectError("", "empty run range");
    expectError("1,,2", "empty run range");
    expectError("7-3", "run range '7-3' runs backwards");
    expectError("x", "'x' is not a run id");
    expectError("0", "'0' is not a run id");
    expectError("-5", "'-5' is not a run id");
    expectError("1-", "'' is not a run id");
    expectError("1-2-3", "'2-3' is not a run id");
    expectError("99999999999999999999", "is not a run id");
    expectError("1-100000000", "is too long");
}
