#include "run/responsenoter.h"

#include "http/fieldtext.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fmt/format.h>

namespace wb {

namespace {

// A name is a label in reports, the store and JSON strings: printable ASCII stays, any
// other byte is written \xHH, so two different byte strings stay two different names.
std::string labelOf(std::string_view bytes)
{
    std::string out;
    out.reserve(std::min(bytes.size(), BACKEND_NAME_MAX_BYTES));
    for (const char ch : bytes) {
        const auto c = static_cast<unsigned char>(ch);
        if (c >= 0x20 && c < 0x7f && c != '\\')
            out.push_back(ch);
        else
            out += fmt::format("\\x{:02x}", c);
        if (out.size() >= BACKEND_NAME_MAX_BYTES) break;
    }
    return out;
}

std::string_view trimmed(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

bool parseNumber(std::string_view text, double& value)
{
    text = trimmed(text);
    if (text.empty()) return false;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc() && end == text.data() + text.size() && std::isfinite(value) && value >= 0;
}

} // namespace

bool parseUpstreamSum(std::string_view value, double& sum)
{
    sum = 0;
    bool any = false;
    while (!value.empty()) {
        const size_t cut = value.find_first_of(",:");
        double n = 0;
        if (!parseNumber(value.substr(0, cut), n)) return false; // "-": no upstream answered
        sum += n;
        any = true;
        if (cut == std::string_view::npos) break;
        value.remove_prefix(cut + 1);
    }
    return any;
}

bool serverTimingDuration(std::string_view value, std::string_view metric, double& durMs)
{
    // Server-Timing: metric *( OWS ";" OWS param ), comma separated (W3C Server Timing).
    while (!value.empty()) {
        const size_t comma = value.find(',');
        std::string_view entry = value.substr(0, comma);
        value = comma == std::string_view::npos ? std::string_view() : value.substr(comma + 1);
        const size_t semi = entry.find(';');
        if (!equalsIgnoreCase(trimmed(entry.substr(0, semi)), metric)) continue;
        std::string_view params = semi == std::string_view::npos ? std::string_view() : entry.substr(semi + 1);
        while (!params.empty()) {
            const size_t next = params.find(';');
            const std::string_view param = params.substr(0, next);
            params = next == std::string_view::npos ? std::string_view() : params.substr(next + 1);
            const size_t eq = param.find('=');
            if (eq == std::string_view::npos || !equalsIgnoreCase(trimmed(param.substr(0, eq)), "dur")) continue;
            std::string_view number = trimmed(param.substr(eq + 1));
            if (number.size() >= 2 && number.front() == '"' && number.back() == '"')
                number = number.substr(1, number.size() - 2);
            return parseNumber(number, durMs);
        }
        return false; // the metric without a duration
    }
    return false;
}

ResponseNoter::ResponseNoter(const BackendFrom& backends, const UpstreamTimeFrom& upstream, ResponseObserver* inner)
    : m_backends(backends)
    , m_upstream(upstream)
    , m_inner(inner)
{
    // Checked by parseBackendFrom already; compiled once per worker.
    if (m_backends.source == BackendFrom::Source::BodyRegex)
        if (auto pattern = UserPattern::compile(m_backends.name)) m_regex = std::move(*pattern);
    m_names.reserve(std::min<unsigned>(m_backends.maxBackends, 64) + 1);
}

bool ResponseNoter::wantsBody() const
{
    return (m_inner && m_inner->wantsBody()) || m_backends.source == BackendFrom::Source::Body
        || m_backends.source == BackendFrom::Source::BodyRegex;
}

size_t ResponseNoter::bodyBytesWanted() const
{
    if (m_inner && m_inner->wantsBody()) return m_inner->bodyBytesWanted(); // a script sees the whole body
    return m_backends.source == BackendFrom::Source::Body ? BACKEND_BODY_LINE_BYTES : BACKEND_BODY_REGEX_BYTES;
}

void ResponseNoter::onResponse(const ObservedResponse& response)
{
    if (m_inner) m_inner->onResponse(response);
}

std::string ResponseNoter::nameOf(const BackendFrom& spec, const UserPattern* regex, const ObservedResponse& response)
{
    switch (spec.source) {
    case BackendFrom::Source::None:
        return {};
    case BackendFrom::Source::Body: {
        std::string_view body = response.body.substr(0, BACKEND_BODY_LINE_BYTES);
        return labelOf(trimmed(body.substr(0, body.find('\n'))));
    }
    case BackendFrom::Source::Header:
        for (const HeaderField& field : response.headers)
            if (equalsIgnoreCase(field.name, spec.name)) return labelOf(field.value);
        return {};
    case BackendFrom::Source::BodyRegex: {
        if (!regex) return {};
        const auto found = regex->search(response.body.substr(0, BACKEND_BODY_REGEX_BYTES));
        return found ? labelOf(*found) : std::string();
    }
    }
    return {};
}

bool ResponseNoter::upstreamUsOf(const UpstreamTimeFrom& spec, const ObservedResponse& response, uint64_t& us)
{
    double value = 0;
    bool found = false;
    for (const HeaderField& field : response.headers) {
        if (spec.source == UpstreamTimeFrom::Source::Header) {
            if (!equalsIgnoreCase(field.name, spec.name)) continue;
            found = parseUpstreamSum(field.value, value);
            if (found) value *= spec.unitUs;
            break; // the first such field decides
        }
        if (spec.source == UpstreamTimeFrom::Source::ServerTiming && equalsIgnoreCase(field.name, "server-timing")
            && serverTimingDuration(field.value, spec.name, value)) {
            value *= 1000; // dur is in milliseconds
            found = true;
            break;
        }
    }
    if (!found) return false;
    us = static_cast<uint64_t>(std::llround(std::min(value, 1e15)));
    return true;
}

uint16_t ResponseNoter::indexOf(std::string name)
{
    if (auto it = m_index.find(name); it != m_index.end()) return it->second;
    if (m_names.size() >= std::max(1u, m_backends.maxBackends)) {
        // Past the limit: every further name is one "other" backend, the slot after the last.
        m_overflowed = true;
        name = OTHER_BACKEND;
        if (auto it = m_index.find(name); it != m_index.end()) return it->second;
    }
    const auto index = static_cast<uint16_t>(m_names.size());
    m_names.push_back(name);
    m_index.emplace(std::move(name), index);
    return index;
}

ResponseNote ResponseNoter::note(const ObservedResponse& response)
{
    ResponseNote note;
    if (m_backends.enabled()) {
        std::string name = nameOf(m_backends, m_regex ? &*m_regex : nullptr, response);
        if (!name.empty()) note.backend = indexOf(std::move(name));
    }
    if (m_upstream.enabled()) note.upstreamKnown = upstreamUsOf(m_upstream, response, note.upstreamUs);
    return note;
}

} // namespace wb
