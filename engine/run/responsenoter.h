#pragma once
// A worker's response observer for --backend-from and --upstream-time: it reads
// the backend's name and the upstream time out of each response while its bytes
// are there and returns them as a ResponseNote; the worker records the note with
// the response's latency. It sits in front of the caller's own observer (a
// script's response()), which still sees every response.
//
// Only the bytes needed are kept: header fields always (they are small), the
// body only for --backend-from body (its first BACKEND_BODY_LINE_BYTES) or
// body-regex (its first BACKEND_BODY_REGEX_BYTES), and never past that.

#include "common/userpattern.h"
#include "run/responsenotes.h"
#include "run/responseobserver.h"

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace wb {

class ResponseNoter final : public ResponseObserver
{
public:
    /// inner: the caller's observer, or null.
    ResponseNoter(const BackendFrom& backends, const UpstreamTimeFrom& upstream, ResponseObserver* inner);

    bool wantsBody() const override;
    size_t bodyBytesWanted() const override;
    void onResponse(const ObservedResponse& response) override;
    ResponseNote note(const ObservedResponse& response) override;

    /// Names by the index a note carries; the last may be OTHER_BACKEND.
    const std::vector<std::string>& names() const { return m_names; }
    /// More distinct names came than the limit allows (they count as OTHER_BACKEND).
    bool overflowed() const { return m_overflowed; }

    /// The backend name a response gives under `spec` ("" when it gives none): exposed for tests.
    static std::string nameOf(const BackendFrom& spec, const UserPattern* regex, const ObservedResponse& response);
    /// The upstream time a response gives under `spec`, in microseconds (false when it gives none).
    static bool upstreamUsOf(const UpstreamTimeFrom& spec, const ObservedResponse& response, uint64_t& us);

private:
    uint16_t indexOf(std::string name);

    BackendFrom m_backends;
    UpstreamTimeFrom m_upstream;
    ResponseObserver* m_inner;
    std::optional<UserPattern> m_regex;
    std::vector<std::string> m_names;
    std::unordered_map<std::string, uint16_t> m_index;
    bool m_overflowed = false;
};

/// Numbers of an upstream-time header value, summed ("0.012, 0.003 : 0.001" as nginx writes
/// several upstreams tried); false for "-" or anything that is not numbers.
bool parseUpstreamSum(std::string_view value, double& sum);
/// The `dur` of metric `metric` in a Server-Timing value (false when absent).
bool serverTimingDuration(std::string_view value, std::string_view metric, double& durMs);

} // namespace wb
