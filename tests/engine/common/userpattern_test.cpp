// Users' regular expressions (common/userpattern.h) run in linear time: a pattern that makes a
// backtracking engine explode ends at once, what only backtracking can do is refused in one
// sentence, and matching is by bytes as std::regex<char>'s was.

#include "common/userpattern.h"

#include <gtest/gtest.h>

using namespace wb;

TEST(UserPattern, MatchesWholeOrSearchesForTheFirstGroup)
{
    auto p = UserPattern::compile("node_cpu_.*");
    ASSERT_TRUE(p.ok()) << p.error();
    EXPECT_TRUE(p->fullMatch("node_cpu_seconds_total"));
    EXPECT_FALSE(p->fullMatch("x_node_cpu_seconds_total")) << "anchored at both ends";
    auto pod = UserPattern::compile("served by ([a-z0-9-]+)");
    ASSERT_TRUE(pod.ok());
    EXPECT_EQ(pod->search("<p>served by api-3</p>"), "api-3");
    EXPECT_EQ(UserPattern::compile("pod=\\w+")->search("x pod=web7 y"), "pod=web7") << "no group: the match";
    EXPECT_EQ(UserPattern::compile("(x)?y")->search("ay"), "y") << "a group that did not take part";
    EXPECT_FALSE(pod->search("nothing").has_value());
    // Bytes, not characters: a body need not be UTF-8, and '.' is one byte.
    EXPECT_EQ(UserPattern::compile("id=(.)")->search("id=\xff!"), "\xff");
    EXPECT_TRUE(UserPattern::compile("caf\xc3\xa9")->fullMatch("caf\xc3\xa9"));
}

// '(a|aa)+b' against a's: std::regex backtracks through every way to split them (a -d3s run
// still spun after 10 minutes). RE2 answers in one pass; the test ends, or ctest's timeout
// says it did not.
TEST(UserPattern, APatternThatExplodesInABacktrackerEndsInOnePass)
{
    auto p = UserPattern::compile("(a|aa)+b");
    ASSERT_TRUE(p.ok());
    const std::string as(1 << 20, 'a');
    EXPECT_FALSE(p->search(as).has_value());
    EXPECT_FALSE(p->fullMatch(as));
    EXPECT_TRUE(p->fullMatch(as + "b"));
}

TEST(UserPattern, WhatNeedsBacktrackingIsRefusedInOneSentence)
{
    for (const char* pattern : { "(a)\\1", "a(?=b)", "(?<!x)y", "(", "a{2,1}" }) {
        auto p = UserPattern::compile(pattern);
        ASSERT_FALSE(p.ok()) << pattern;
        const std::string sentence = userPatternError(pattern, p.error());
        EXPECT_EQ(sentence.find('\n'), std::string::npos) << sentence;
        EXPECT_NE(sentence.find("no backreferences or lookaround"), std::string::npos) << sentence;
    }
}
