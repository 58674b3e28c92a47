#include "script/rawrequest.h"

#include "http/fieldtext.h"
#include "http/requestcheck.h"

#include <charconv>
#include <cstdint>
#include <string>

namespace wb {

namespace {

// One line ending in CRLF (a bare LF is accepted too, as servers do).
bool takeLine(std::string_view& rest, std::string_view& line)
{
    const size_t lf = rest.find('\n');
    if (lf == std::string_view::npos) return false;
    line = rest.substr(0, lf);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    rest.remove_prefix(lf + 1);
    return true;
}

Error failure(size_t index, const std::string& what)
{
    return Error { "request " + std::to_string(index) + ": " + what };
}

} // namespace

Result<std::vector<RequestSpec>> parseRawRequests(std::string_view text, const Url& base)
{
    std::vector<RequestSpec> out;
    std::string_view rest = text;
    while (!rest.empty()) {
        const size_t index = out.size() + 1;
        std::string_view line;
        if (!takeLine(rest, line)) return failure(index, "no complete request line (it must end in \\r\\n)");
        const size_t sp1 = line.find(' ');
        const size_t sp2 = sp1 == std::string_view::npos ? sp1 : line.find(' ', sp1 + 1);
        if (sp1 == 0 || sp2 == std::string_view::npos || sp2 == sp1 + 1)
            return failure(index, "not a request line: '" + std::string(line.substr(0, 80)) + "'");
        RequestSpec spec;
        spec.method = std::string(line.substr(0, sp1));
        const std::string_view target = line.substr(sp1 + 1, sp2 - sp1 - 1);
        if (!line.substr(sp2 + 1).starts_with("HTTP/1."))
            return failure(index, "the request line does not end in HTTP/1.x");
        spec.url = base;
        spec.url.target = std::string(target);
        spec.url.original.clear();
        size_t bodyLength = 0;
        for (;;) {
            if (!takeLine(rest, line)) return failure(index, "the header block does not end in an empty line");
            if (line.empty()) break;
            const size_t colon = line.find(':');
            if (colon == 0 || colon == std::string_view::npos)
                return failure(index, "not a header line: '" + std::string(line.substr(0, 80)) + "'");
            const std::string_view name = line.substr(0, colon);
            const std::string_view value = trimWhitespace(line.substr(colon + 1));
            if (equalsIgnoreCase(name, "Content-Length")) {
                const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), bodyLength);
                if (ec != std::errc {} || end != value.data() + value.size())
                    return failure(index, "Content-Length is not a number");
            }
            spec.headers.push_back({ std::string(name), std::string(value) });
        }
        if (bodyLength > rest.size())
            return failure(index,
                "Content-Length " + std::to_string(bodyLength) + " but only " + std::to_string(rest.size())
                    + " bytes follow");
        spec.body = std::string(rest.substr(0, bodyLength));
        rest.remove_prefix(bodyLength);
        // What a script builds is sent as it is: the rules every other request passes (a CR in
        // the target or a field would end the line early and smuggle a request of its own).
        if (Status st = checkRequestSpec(spec); !st) return failure(index, st.error());
        out.push_back(std::move(spec));
    }
    if (out.empty()) return Error { "an empty request" };
    return out;
}

bool scanWireRequests(std::string_view text, std::vector<RawRequestView>& out)
{
    out.clear();
    size_t at = 0;
    // One line from `at`, ending in CRLF; false without one (or with a bare LF before it).
    const auto line = [&](std::string_view& l) {
        const size_t lf = text.find('\n', at);
        if (lf == std::string_view::npos || lf == at || text[lf - 1] != '\r') return false;
        l = text.substr(at, lf - 1 - at);
        if (l.find('\r') != std::string_view::npos) return false;
        at = lf + 1;
        return true;
    };
    while (at < text.size()) {
        RawRequestView view;
        view.offset = at;
        std::string_view l;
        if (!line(l)) return false;
        const size_t sp1 = l.find(' ');
        const size_t sp2 = sp1 == std::string_view::npos ? sp1 : l.find(' ', sp1 + 1);
        if (sp1 == 0 || sp2 == std::string_view::npos || sp2 == sp1 + 1) return false;
        const std::string_view method = l.substr(0, sp1);
        if (!checkMethod(method) || !checkRequestTarget(l.substr(sp1 + 1, sp2 - sp1 - 1))) return false;
        if (!l.substr(sp2 + 1).starts_with("HTTP/1.")) return false;
        view.head = method == "HEAD"; // methodHasNoResponseBody(), without a string
        size_t bodyLength = 0;
        bool host = false, length = false;
        for (;;) {
            if (!line(l)) return false;
            if (l.empty()) break;
            const size_t colon = l.find(':');
            if (colon == 0 || colon == std::string_view::npos) return false;
            const std::string_view name = l.substr(0, colon);
            const std::string_view value = trimWhitespace(l.substr(colon + 1));
            if (!checkHeaderName(name) || !checkHeaderValue(value)) return false;
            if (equalsIgnoreCase(name, "Transfer-Encoding")) return false;
            if (equalsIgnoreCase(name, "Host")) host = true;
            if (equalsIgnoreCase(name, "Content-Length")) {
                const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), bodyLength);
                if (length || ec != std::errc {} || end != value.data() + value.size()) return false;
                length = true;
            }
        }
        if (!host || bodyLength > text.size() - at || bodyLength > MAX_REQUEST_BODY_BYTES) return false;
        // buildRequest() would add a Content-Length of 0 to nothing and none to an empty body.
        at += bodyLength;
        view.length = at - view.offset;
        out.push_back(view);
    }
    return !out.empty();
}

} // namespace wb
