#pragma once
// A user's regular expression (--backend-from body-regex:RE, --scrape-metric, the window's
// fields that take the same), run by RE2 in time linear in the text, whatever the pattern:
// std::regex backtracks, and '(a|aa)+b' against a body of a's never ended (Ctrl-C included).
// What RE2 cannot run in linear time (backreferences, lookaround) does not compile, and the
// error says so in one sentence.
//
// Text is matched as bytes (RE2's Latin-1 mode), as std::regex<char> matched it: a body need
// not be UTF-8, '.' is one byte, and a UTF-8 character typed in a pattern matches its bytes.
// Matching is thread-safe: a compiled pattern is shared by every worker that copies it.

#include "common/result.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace re2 {
class RE2;
}

namespace wb {

class UserPattern
{
public:
    /// Compiles pattern (RE2 syntax, which is Perl's and ECMAScript's without backreferences and
    /// lookaround); the error is RE2's reason, e.g. "invalid perl operator: (?=".
    static Result<UserPattern> compile(std::string_view pattern);

    /// Whether the whole of text matches (as Prometheus' relabelling anchors its patterns).
    bool fullMatch(std::string_view text) const;
    /// The leftmost match in text: its first capture group when the pattern has one and it took
    /// part, else the whole match; nullopt when there is none.
    std::optional<std::string_view> search(std::string_view text) const;

private:
    explicit UserPattern(std::shared_ptr<const re2::RE2> re);
    std::shared_ptr<const re2::RE2> m_re;
};

/// "'PATTERN' is not a regular expression wrkbench can run (REASON; RE2 syntax, in linear time:
/// no backreferences or lookaround)": the sentence every option that takes a pattern shows.
std::string userPatternError(std::string_view pattern, const std::string& reason);

} // namespace wb
