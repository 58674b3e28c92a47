#pragma once
// What a run reads out of each response when asked: which backend answered
// (--backend-from) and how long the front door waited for its upstream
// (--upstream-time). The specs are part of the run configuration (they travel to
// loaders and into the store as text); ResponseNoter applies them to responses.

#include "common/result.h"
#include "stats/backends.h"

#include <cstdint>
#include <string>

namespace wb {

/// --backend-from: where a response names its backend.
struct BackendFrom
{
    enum class Source : uint8_t {
        None,
        Body, ///< the first line of the body, trimmed (Kubernetes' serve_hostname)
        Header, ///< the value of a header field (`name`)
        BodyRegex, ///< the first capture group (or the whole match) of `name` in the body
    };
    Source source = Source::None;
    std::string name; ///< the header field's name, or the regular expression (RE2 syntax, common/userpattern.h)
    unsigned maxBackends = DEFAULT_MAX_BACKENDS; ///< distinct names kept; the rest is OTHER_BACKEND

    bool enabled() const { return source != Source::None; }
    bool operator==(const BackendFrom&) const = default;
};

/// Bytes of a body looked at: a name is on its first line; a regular expression is matched
/// against this much of the body.
inline constexpr size_t BACKEND_BODY_LINE_BYTES = 256;
inline constexpr size_t BACKEND_BODY_REGEX_BYTES = 4096;
/// A name longer than this is cut (a name is a label, not data).
inline constexpr size_t BACKEND_NAME_MAX_BYTES = 256;

/// Parses "body", "header:NAME" or "body-regex:RE"; the error is one sentence.
Result<BackendFrom> parseBackendFrom(const std::string& text);
/// The inverse ("" when not enabled).
std::string backendFromText(const BackendFrom& spec);

/// --upstream-time: where a response says how long its upstream took.
struct UpstreamTimeFrom
{
    enum class Source : uint8_t {
        None,
        Header, ///< a header field whose value is a number in `unitUs` (nginx: "0.012, 0.003" summed)
        ServerTiming, ///< the `dur` (milliseconds) of metric `name` of Server-Timing
    };
    Source source = Source::None;
    std::string name; ///< the header field or the Server-Timing metric
    double unitUs = 1000; ///< header: microseconds per unit of its value (ms: 1000, s: 1e6, us: 1)

    bool enabled() const { return source != Source::None; }
    bool operator==(const UpstreamTimeFrom&) const = default;
};

/// Parses "header:NAME[:ms|s|us]" (milliseconds by default, as Envoy's
/// x-envoy-upstream-service-time) or "server-timing:NAME".
Result<UpstreamTimeFrom> parseUpstreamTime(const std::string& text);
/// The inverse ("" when not enabled).
std::string upstreamTimeText(const UpstreamTimeFrom& spec);

} // namespace wb
