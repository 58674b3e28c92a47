#include "common/userpattern.h"

#include <re2/re2.h>

namespace wb {

namespace {

// RE2's own default: the compiled program and the DFA's cache of one pattern. A pattern past it
// is refused when compiled; a text that fills the cache makes RE2 fall back to its NFA, which is
// slower but still linear.
constexpr int64_t PATTERN_MAX_MEM_BYTES = 8 << 20;

} // namespace

Result<UserPattern> UserPattern::compile(std::string_view pattern)
{
    RE2::Options options;
    options.set_encoding(RE2::Options::EncodingLatin1);
    options.set_log_errors(false); // the error is the caller's to show, once, in its words
    options.set_max_mem(PATTERN_MAX_MEM_BYTES);
    auto re = std::make_shared<const re2::RE2>(re2::StringPiece(pattern.data(), pattern.size()), options);
    if (!re->ok()) return Error { re->error() };
    return UserPattern(std::move(re));
}

UserPattern::UserPattern(std::shared_ptr<const re2::RE2> re)
    : m_re(std::move(re))
{ }

bool UserPattern::fullMatch(std::string_view text) const
{
    return RE2::FullMatch(re2::StringPiece(text.data(), text.size()), *m_re);
}

std::optional<std::string_view> UserPattern::search(std::string_view text) const
{
    const re2::StringPiece input(text.data(), text.size());
    re2::StringPiece groups[2];
    const int wanted = m_re->NumberOfCapturingGroups() > 0 ? 2 : 1;
    if (!m_re->Match(input, 0, input.size(), RE2::UNANCHORED, groups, wanted)) return std::nullopt;
    // A group that did not take part has a null data pointer; the whole match stands in for it.
    const re2::StringPiece& found = wanted == 2 && groups[1].data() != nullptr ? groups[1] : groups[0];
    return std::string_view(found.data(), found.size());
}

std::string userPatternError(std::string_view pattern, const std::string& reason)
{
    return "'" + std::string(pattern) + "' is not a regular expression wrkbench can run (" + reason
        + "; RE2 syntax, matched in linear time: no backreferences or lookaround)";
}

} // namespace wb
