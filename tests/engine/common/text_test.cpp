// The one text policy (common/text.h) and the JSON door (common/jsontext.h): bytes that are not
// UTF-8 become U+FFFD, control characters reach a terminal only as \xHH, a JSON dump never
// throws and says what it was given, and a parse refuses nesting before it recurses.

#include "common/jsontext.h"
#include "common/text.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace wb;

namespace {

const std::string HOSTILE = "a\xff\xfe"
                            "b\x1b]0;title\x07\x1b[2J\x1b]52;c;aGk=\x07\r\x7f\xc2\x9b"
                            "31m\xc3\xa9\n\tend";

} // namespace

TEST(Text, ValidUtf8ReplacesEachBadByte)
{
    EXPECT_EQ(validUtf8("plain \xc3\xa9t\xc3\xa9"), "plain \xc3\xa9t\xc3\xa9");
    EXPECT_EQ(validUtf8("a\xff"
                        "b"),
        "a\xef\xbf\xbd"
        "b");
    EXPECT_EQ(validUtf8("\xe2\x82"), "\xef\xbf\xbd\xef\xbf\xbd") << "a cut sequence is two bad bytes";
    EXPECT_EQ(validUtf8("\xc0\xaf"), "\xef\xbf\xbd\xef\xbf\xbd") << "an overlong '/'";
    EXPECT_EQ(validUtf8("\xed\xa0\x80"), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd") << "a UTF-16 surrogate";
    EXPECT_TRUE(isValidUtf8(validUtf8(HOSTILE)));
}

TEST(Text, TerminalTextEscapesEveryControlCharacter)
{
    EXPECT_FALSE(isTerminalText(HOSTILE));
    EXPECT_FALSE(isTerminalText("\xc2\x9b")) << "C1 CSI";
    EXPECT_TRUE(isTerminalText("line\r\n\ttab \xc3\xa9"));
    const std::string shown = terminalText(HOSTILE);
    EXPECT_TRUE(isTerminalText(shown)) << shown;
    EXPECT_EQ(shown,
        "a\xef\xbf\xbd\xef\xbf\xbd"
        "b\\x1b]0;title\\x07\\x1b[2J\\x1b]52;c;aGk=\\x07\\x0d\\x7f\\xc2\\x9b31m\xc3\xa9\n\tend");
    EXPECT_EQ(terminalText("one\r\ntwo\r"), "one\r\ntwo\\x0d") << "CRLF is a line break, a lone CR is not";
    EXPECT_EQ(terminalText("\xc2\xa0\xe2\x80\x8b"), "\xc2\xa0\xe2\x80\x8b") << "U+00A0 is past C1";
    EXPECT_EQ(terminalText(std::string("nul\0!", 5)), "nul\\x00!");
}

TEST(Text, CsvFieldsAreValidUtf8AndQuotedWhenTheyMustBe)
{
    EXPECT_EQ(csvField("plain"), "plain");
    EXPECT_EQ(csvField("a,b"), "\"a,b\"");
    EXPECT_EQ(csvField("say \"hi\""), "\"say \"\"hi\"\"\"");
    EXPECT_EQ(csvField("x\xff"), "x\xef\xbf\xbd");
}

TEST(Text, IncompleteTailIsWhatTheNextBytesCanComplete)
{
    EXPECT_EQ(utf8IncompleteTail("abc"), 0u);
    EXPECT_EQ(utf8IncompleteTail("ab\xc3"), 1u);
    EXPECT_EQ(utf8IncompleteTail("ab\xe2\x82"), 2u);
    EXPECT_EQ(utf8IncompleteTail("ab\xf0\x9f\x98"), 3u);
    EXPECT_EQ(utf8IncompleteTail("ab\xf0\x9f\x98\x80"), 0u) << "complete";
    EXPECT_EQ(utf8IncompleteTail("ab\xff"), 0u) << "never valid: nothing to wait for";
    EXPECT_EQ(utf8IncompleteTail("\x80\x80\x80"), 0u);
}

TEST(JsonText, DumpNeverThrowsAndKeepsTheTerminalSafe)
{
    const nlohmann::json j { { "name", HOSTILE }, { HOSTILE, 1 } };
    EXPECT_THROW((void)j.dump(), nlohmann::json::type_error) << "what the door is for";
    const std::string text = jsonText(j);
    EXPECT_TRUE(isTerminalText(text)) << text;
    auto back = parseJsonText<nlohmann::json>(text);
    ASSERT_TRUE(back.ok()) << back.error();
    EXPECT_EQ((*back)["name"], validUtf8(HOSTILE)) << "the same string: only escaped differently";
    EXPECT_NE(text.find("\\u009b"), std::string::npos) << text;
    EXPECT_NE(text.find("\\u007f"), std::string::npos) << text;
    EXPECT_EQ(jsonText(nlohmann::ordered_json { { "b", 1 }, { "a", 2 } }, 2), "{\n  \"b\": 1,\n  \"a\": 2\n}");
}

TEST(JsonText, ParseRefusesNestingBeforeTheParserSeesIt)
{
    const std::string deep = std::string(100'000, '[') + std::string(100'000, ']');
    auto parsed = parseJsonText<nlohmann::json>(deep);
    ASSERT_FALSE(parsed.ok());
    EXPECT_EQ(parsed.error(), "nested deeper than 64 levels");
    EXPECT_TRUE(parseJsonText<nlohmann::json>(std::string(64, '[') + std::string(64, ']')).ok());
    EXPECT_FALSE(parseJsonText<nlohmann::json>(std::string(65, '[') + std::string(65, ']')).ok());
    EXPECT_TRUE(parseJsonText<nlohmann::json>("[\"[[[[[[\"]", 2).ok()) << "brackets in strings do not count";

    auto bad = parseJsonText<nlohmann::json>("{\"a\": }");
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().rfind("parse error at line 1, column 7", 0), 0u) << bad.error();
    EXPECT_TRUE(parseJsonTextOrDiscarded<nlohmann::json>(deep).is_discarded());
}
