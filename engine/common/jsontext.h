#pragma once
// JSON in and out for every nlohmann::json and ordered_json of the project: the only place that calls dump() or
// parse() (tests/engine/common/jsonsources_test.cpp greps for others). jsonText never throws: nlohmann's plain dump()
// throws on a string that is not UTF-8 (a scraped label, a target name) and would abort the CLI; here such bytes become
// U+FFFD (common/text.h's policy), and DEL and C1 are written \u007f to \u009f, so the text is terminal-safe as it is.
// parseJsonText refuses nesting past maxDepth by a scan of the bytes before the parser (common/jsondepth.h), since all
// that walks the tree afterwards recurses. The caller bounds the size it reads.

#include "common/jsondepth.h"
#include "common/result.h"

#include <cstddef>
#include <exception>
#include <string>
#include <string_view>

namespace wb {

/// Deep enough for every document of ours (a plan, a run configuration, a loader line: at most
/// 8 levels), far from what overflows a stack.
inline constexpr size_t JSON_MAX_DEPTH = 64;

/// The text of j (one line, or indented by `indent` spaces a level): never throws on bad UTF-8.
template<typename Json> std::string jsonText(const Json& j, int indent = -1)
{
    const std::string dumped = j.dump(indent, ' ', false, Json::error_handler_t::replace);
    // Outside strings a dump is ASCII, so these bytes are always inside one: escaping them
    // there changes no value.
    std::string out;
    out.reserve(dumped.size());
    static constexpr char HEX[] = "0123456789abcdef";
    for (size_t i = 0; i < dumped.size(); ++i) {
        const auto c = static_cast<unsigned char>(dumped[i]);
        if (c == 0x7f) {
            out += "\\u007f";
        } else if (c == 0xc2 && i + 1 < dumped.size() && static_cast<unsigned char>(dumped[i + 1]) < 0xa0) {
            const auto next = static_cast<unsigned char>(dumped[++i]);
            out += "\\u00";
            out.push_back(HEX[next >> 4]);
            out.push_back(HEX[next & 15]);
        } else {
            out.push_back(static_cast<char>(c));
        }
    }
    return out;
}

/// nlohmann's message without its "[json.exception.parse_error.101] " tag.
inline std::string jsonErrorText(const std::exception& e)
{
    std::string message = e.what();
    if (!message.empty() && message.front() == '[') {
        const size_t close = message.find("] ");
        if (close != std::string::npos) message.erase(0, close + 2);
    }
    return message;
}

/// Parses text as Json, refusing nesting past maxDepth before the parser sees it. The error is
/// one sentence ("nested deeper than 64 levels", or the parser's message without its tag).
template<typename Json> Result<Json> parseJsonText(std::string_view text, size_t maxDepth = JSON_MAX_DEPTH)
{
    if (!jsonDepthWithin(text, maxDepth)) return Error { "nested deeper than " + std::to_string(maxDepth) + " levels" };
    try {
        return Json::parse(text.begin(), text.end());
    } catch (const std::exception& e) {
        return Error { jsonErrorText(e) };
    }
}

/// parseJsonText for callers that only ask whether it is there: a discarded value on any error.
template<typename Json> Json parseJsonTextOrDiscarded(std::string_view text, size_t maxDepth = JSON_MAX_DEPTH)
{
    auto parsed = parseJsonText<Json>(text, maxDepth);
    return parsed ? std::move(*parsed) : Json(Json::value_t::discarded);
}

} // namespace wb
