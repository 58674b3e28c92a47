#pragma once
// How deeply a JSON text nests, found by a scan of its bytes before any parser
// sees it. nlohmann::json parses and destroys nested values recursively: a body
// of 70,000 '[' (140 KB, well under any size limit) overflows the stack of the
// thread that parses or frees it. A configuration nests four or five levels;
// refusing anything deeper than a small bound costs nothing legitimate.
// Dependency-free on purpose: every decoder of network JSON can call it first.

#include <cstddef>
#include <string_view>

namespace wb {

/// True when no array or object in `text` nests deeper than `maxDepth` (the
/// top-level value is depth 1). Brackets inside strings do not count; a
/// backslash escapes the next byte. Malformed text is not judged here (the
/// parser refuses it): only its nesting is.
inline bool jsonDepthWithin(std::string_view text, size_t maxDepth)
{
    size_t depth = 0;
    bool inString = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i; // the escaped byte is never a quote that ends the string
            else if (c == '"')
                inString = false;
            continue;
        }
        switch (c) {
        case '"':
            inString = true;
            break;
        case '[':
        case '{':
            if (++depth > maxDepth) return false;
            break;
        case ']':
        case '}':
            if (depth > 0) --depth; // unbalanced closers are the parser's to refuse
            break;
        default:
            break;
        }
    }
    return true;
}

/// Depth enough for any run configuration and agent request (a mix entry's headers sit
/// at depth 5 of a POST /v1/runs body), with room to spare.
inline constexpr size_t AGENT_MAX_JSON_DEPTH = 32;

} // namespace wb
