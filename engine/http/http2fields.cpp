#include "http/http2fields.h"

#include <algorithm>
#include <cctype>

namespace wb {

namespace {

std::string lowerCase(const std::string& s)
{
    std::string out = s;
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// RFC 9113 8.2.2: fields that are specific to one HTTP/1.1 connection. TE is allowed only as "trailers".
bool isConnectionSpecific(const std::string& lowerName, const std::string& value)
{
    static const char* const NAMES[]
        = { "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade" };
    if (std::find(std::begin(NAMES), std::end(NAMES), lowerName) != std::end(NAMES)) return true;
    return lowerName == "te" && lowerCase(value) != "trailers";
}

} // namespace

Http2Fields buildHttp2Fields(const RequestSpec& spec)
{
    Http2Fields out;
    std::string authority = spec.url.hostHeader();
    bool hasLength = false;
    std::vector<Header> user;
    for (const Header& h : spec.headers) {
        const std::string name = lowerCase(h.name);
        if (name == "host") {
            authority = h.value; // the Host a user sets is the :authority the server sees
        } else if (isConnectionSpecific(name, h.value)) {
            out.dropped.push_back(h.name);
        } else {
            hasLength = hasLength || name == "content-length";
            user.push_back({ name, h.value });
        }
    }
    out.fields = { { ":method", spec.method }, { ":scheme", spec.url.scheme }, { ":authority", authority },
        { ":path", spec.url.target } };
    out.fields.insert(out.fields.end(), user.begin(), user.end());
    if (!spec.body.empty() && !hasLength) out.fields.push_back({ "content-length", std::to_string(spec.body.size()) });
    return out;
}

std::string droppedFieldsWarning(const Http2Fields& fields)
{
    if (fields.dropped.empty()) return {};
    std::string names;
    for (const std::string& name : fields.dropped)
        names += (names.empty() ? "" : ", ") + name;
    return "HTTP/2 leaves out the HTTP/1.1 connection header" + std::string(fields.dropped.size() > 1 ? "s " : " ")
        + names + " (RFC 9113 8.2.2)";
}

} // namespace wb
