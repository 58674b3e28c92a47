#include "run/responsenotes.h"

#include "common/userpattern.h"

#include <fmt/format.h>

namespace wb {

namespace {

bool isToken(const std::string& s)
{
    // RFC 9110 tchar: a field name (and a Server-Timing metric name) is a token.
    static constexpr std::string_view extra = "!#$%&'*+-.^_`|~";
    if (s.empty()) return false;
    for (const char c : s)
        if (!std::isalnum(static_cast<unsigned char>(c)) && extra.find(c) == std::string_view::npos) return false;
    return true;
}

} // namespace

Result<BackendFrom> parseBackendFrom(const std::string& text)
{
    BackendFrom spec;
    if (text == "body") {
        spec.source = BackendFrom::Source::Body;
        return spec;
    }
    if (text.starts_with("header:")) {
        spec.source = BackendFrom::Source::Header;
        spec.name = text.substr(7);
        if (!isToken(spec.name))
            return Error { fmt::format("--backend-from header:NAME needs a header field name, not '{}'", spec.name) };
        return spec;
    }
    if (text.starts_with("body-regex:")) {
        spec.source = BackendFrom::Source::BodyRegex;
        spec.name = text.substr(11);
        if (spec.name.empty()) return Error { "--backend-from body-regex:RE needs a regular expression" };
        if (auto pattern = UserPattern::compile(spec.name); !pattern)
            return Error { "--backend-from body-regex: " + userPatternError(spec.name, pattern.error()) };
        return spec;
    }
    return Error { fmt::format("--backend-from must be 'body', 'header:NAME' or 'body-regex:RE', not '{}'", text) };
}

std::string backendFromText(const BackendFrom& spec)
{
    switch (spec.source) {
    case BackendFrom::Source::None:
        return {};
    case BackendFrom::Source::Body:
        return "body";
    case BackendFrom::Source::Header:
        return "header:" + spec.name;
    case BackendFrom::Source::BodyRegex:
        return "body-regex:" + spec.name;
    }
    return {};
}

Result<UpstreamTimeFrom> parseUpstreamTime(const std::string& text)
{
    UpstreamTimeFrom spec;
    if (text.starts_with("server-timing:")) {
        spec.source = UpstreamTimeFrom::Source::ServerTiming;
        spec.name = text.substr(14);
        if (!isToken(spec.name))
            return Error { fmt::format("--upstream-time server-timing:NAME needs a metric name, not '{}'", spec.name) };
        return spec;
    }
    if (text.starts_with("header:")) {
        spec.source = UpstreamTimeFrom::Source::Header;
        std::string rest = text.substr(7);
        if (const size_t colon = rest.rfind(':'); colon != std::string::npos) {
            const std::string unit = rest.substr(colon + 1);
            if (unit == "ms")
                spec.unitUs = 1000;
            else if (unit == "s")
                spec.unitUs = 1e6;
            else if (unit == "us")
                spec.unitUs = 1;
            else
                return Error { fmt::format(
                    "--upstream-time header:NAME:UNIT: the unit is ms, s or us, not '{}'", unit) };
            rest.resize(colon);
        }
        spec.name = rest;
        if (!isToken(spec.name))
            return Error { fmt::format("--upstream-time header:NAME needs a header field name, not '{}'", spec.name) };
        return spec;
    }
    return Error { fmt::format(
        "--upstream-time must be 'header:NAME[:ms|s|us]' or 'server-timing:NAME', not '{}'", text) };
}

std::string upstreamTimeText(const UpstreamTimeFrom& spec)
{
    switch (spec.source) {
    case UpstreamTimeFrom::Source::None:
        return {};
    case UpstreamTimeFrom::Source::ServerTiming:
        return "server-timing:" + spec.name;
    case UpstreamTimeFrom::Source::Header: {
        const char* unit = spec.unitUs == 1e6 ? "s" : spec.unitUs == 1 ? "us" : "ms";
        return "header:" + spec.name + ":" + unit;
    }
    }
    return {};
}

} // namespace wb
