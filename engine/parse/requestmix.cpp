#include "parse/requestmix.h"

#include "common/jsontext.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <fcntl.h>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <unordered_map>

// One pass over the text, one line at a time, for both formats; the first
// problem ends the parse. Each JSON line is parsed on its own, so a syntax error
// names its line and one bad line cannot swallow the rest of the file.

namespace wb {

namespace {

using Json = nlohmann::ordered_json; // keeps the headers of an object in the order written

constexpr size_t MAX_MESSAGE_BYTES = 1000; // a 50 MB URL must not become a 50 MB error line

const char* const KNOWN_METHODS[] = { "GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE" };

std::string_view trim(std::string_view s)
{
    const size_t a = s.find_first_not_of(" \t\r");
    if (a == std::string_view::npos) return {};
    return s.substr(a, s.find_last_not_of(" \t\r") - a + 1);
}

std::string inQuotes(std::string_view s)
{
    return "'" + std::string(s) + "'";
}

// Messages quote what the user wrote, which may hold control characters (a JSON
// "\n", a stray CR): they are escaped so every error stays one line, and long
// ones are cut (at a UTF-8 character boundary).
std::string oneLine(const std::string& message)
{
    std::string out;
    for (char c : message) {
        const auto u = static_cast<unsigned char>(c);
        if (u == '\n') {
            out += "\\n";
        } else if (u == '\r') {
            out += "\\r";
        } else if (u == '\t') {
            out += "\\t";
        } else if (u < 0x20 || u == 0x7F) {
            const char* hex = "0123456789abcdef";
            out += "\\x";
            out += hex[u >> 4];
            out += hex[u & 15];
        } else {
            out += c;
        }
        if (out.size() > MAX_MESSAGE_BYTES) {
            size_t cut = MAX_MESSAGE_BYTES;
            while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80)
                --cut;
            out.resize(cut);
            out += "...";
            break;
        }
    }
    return out;
}

bool isKnownMethod(std::string_view method)
{
    for (const char* known : KNOWN_METHODS)
        if (method == known) return true;
    return false;
}

std::string unknownMethod(std::string_view method)
{
    return "unknown method " + inQuotes(method) + " (use GET, HEAD, POST, PUT, DELETE, PATCH, OPTIONS or TRACE)";
}

std::string sizeLimitText(uint64_t limit)
{
    return "the limit is " + std::to_string(limit) + " bytes (" + std::to_string(limit / (1024 * 1024)) + " MB)";
}

// The whole file, refused before reading when stat() says it is over the limit
// (a mistaken 20 GB path must not be read into memory), and while reading when
// it grows or has no size (a pipe). Body files must be regular files: reading
// /dev/zero or a FIFO nobody writes to would never end.
Result<std::string> readBounded(const std::string& path, const std::string& what, bool regularOnly)
{
    const auto failure
        = [&](int error) { return Error { "cannot read " + what + " " + path + ": " + std::strerror(error) }; };
    struct stat st
    { };
    if (::stat(path.c_str(), &st) != 0) return failure(errno);
    if (S_ISDIR(st.st_mode)) return failure(EISDIR);
    if (regularOnly && !S_ISREG(st.st_mode))
        return Error { "cannot read " + what + " " + path + ": not a regular file" };
    const auto tooLarge = [&](const std::string& size) {
        return Error { what + " " + path + " is " + size + " bytes; " + sizeLimitText(MAX_REQUEST_MIX_BYTES) };
    };
    if (S_ISREG(st.st_mode) && static_cast<uint64_t>(st.st_size) > MAX_REQUEST_MIX_BYTES)
        return tooLarge(std::to_string(st.st_size));

    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return failure(errno);
    std::string bytes;
    if (S_ISREG(st.st_mode)) bytes.reserve(static_cast<size_t>(st.st_size));
    char buffer[64 * 1024];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            const int error = errno;
            ::close(fd);
            return failure(error);
        }
        if (n == 0) break;
        bytes.append(buffer, static_cast<size_t>(n));
        if (bytes.size() > MAX_REQUEST_MIX_BYTES) {
            ::close(fd);
            return tooLarge("more than " + std::to_string(MAX_REQUEST_MIX_BYTES));
        }
    }
    ::close(fd);
    return bytes;
}

std::string originText(const Url& url)
{
    return url.scheme + "://" + (url.isIpv6Literal() ? "[" + url.host + "]" : url.host) + ":"
        + std::to_string(url.port);
}

// What both formats share: numbered errors, body files, and the rules that span
// entries (one origin, the entry and body limits).
class MixBuilder
{
public:
    MixBuilder(const std::string& name, const std::string& baseDir)
        : m_name(name)
        , m_baseDir(baseDir)
    { }

    Error fail(unsigned line, const std::string& message) const
    {
        return Error { oneLine(m_name + ":" + std::to_string(line) + ": " + message) };
    }

    /// Checks the entry's place in the mix (count, origin) and keeps it.
    Status add(MixEntry entry)
    {
        if (m_entries.size() == MAX_REQUEST_MIX_ENTRIES)
            return fail(entry.line,
                "more than " + std::to_string(MAX_REQUEST_MIX_ENTRIES) + " requests in the mix (the limit)");
        const Url& url = entry.request.url;
        if (!m_entries.empty()) {
            const Url& first = m_entries.front().request.url;
            if (!url.sameOrigin(first))
                return fail(entry.line,
                    originText(url) + " is a second origin; every request of a mix must go to " + originText(first)
                        + " (line " + std::to_string(m_entries.front().line)
                        + "; one connection pool serves one origin)");
        }
        m_entries.push_back(std::move(entry));
        return {};
    }

    MixEntry& last() { return m_entries.back(); }

    /// Reads a body file (relative to the mix's directory) into the last entry.
    Status setBody(std::string_view path, unsigned line)
    {
        if (path.empty()) return fail(line, "no body file name after '@'");
        if (path.find('\0') != std::string_view::npos) return fail(line, "the body file name contains a NUL byte");
        std::string resolved(path);
        if (resolved.front() != '/' && !m_baseDir.empty()) resolved = m_baseDir + "/" + resolved;
        auto cached = m_bodies.find(resolved);
        if (cached == m_bodies.end()) {
            auto bytes = readBounded(resolved, "body file", true);
            if (!bytes) return fail(line, bytes.error());
            cached = m_bodies.emplace(resolved, std::move(*bytes)).first;
        }
        return setBodyBytes(cached->second, line);
    }

    Status setBodyBytes(const std::string& body, unsigned line)
    {
        if (m_bodyBytes + body.size() > MAX_REQUEST_MIX_BODY_TOTAL_BYTES)
            return fail(line,
                "the bodies of the mix add up to more than " + std::to_string(MAX_REQUEST_MIX_BODY_TOTAL_BYTES)
                    + " bytes (" + std::to_string(MAX_REQUEST_MIX_BODY_TOTAL_BYTES / (1024 * 1024))
                    + " MB, the limit; each request keeps its own copy)");
        m_bodyBytes += body.size();
        last().request.body = body;
        return {};
    }

    Result<RequestMix> finish()
    {
        if (m_entries.empty()) return Error { oneLine(m_name + ": no requests in the mix") };
        return RequestMix { m_name, std::move(m_entries) };
    }

private:
    std::string m_name;
    std::string m_baseDir;
    std::vector<MixEntry> m_entries;
    std::unordered_map<std::string, std::string> m_bodies; // a file named by many entries is read once
    uint64_t m_bodyBytes = 0;
};

// Calls f(line, number) for each line without its '\n'; stops at the first failure.
template<typename F> Status forEachLine(std::string_view text, F&& f)
{
    unsigned number = 0;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        Status status = f(text.substr(start, end - start), ++number);
        if (!status) return status;
        start = end + 1;
    }
    return {};
}

// "GET http://x/": a request line (the method still to be checked).
bool looksLikeRequestLine(std::string_view line)
{
    const size_t space = line.find_first_of(" \t");
    if (space == 0 || space == std::string_view::npos) return false;
    for (char c : line.substr(0, space))
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))) return false;
    return line.find("://", space) != std::string_view::npos;
}

Status parseLineFormat(std::string_view text, MixBuilder& mix)
{
    bool inEntry = false;
    unsigned bodyLine = 0; // where the current entry's '@file' is, 0 before it
    return forEachLine(text, [&](std::string_view raw, unsigned n) -> Status {
        const std::string_view line = trim(raw);
        if (line.empty()) {
            inEntry = false;
            return {};
        }
        if (line.front() == '#') return {};
        // vegeta's most common file has one request per line, no blank line between: a line
        // that begins with a method and a URL starts the next request.
        if (inEntry && looksLikeRequestLine(line) && isKnownMethod(line.substr(0, line.find_first_of(" \t"))))
            inEntry = false;
        if (!inEntry) {
            const size_t space = line.find_first_of(" \t");
            const std::string_view method = line.substr(0, space);
            const std::string_view target = space == std::string_view::npos ? "" : trim(line.substr(space));
            if (line.front() == '{')
                return mix.fail(n, "expected 'METHOD URL'; a JSON Lines mix has '{' as its first non-blank character");
            if (target.empty()) return mix.fail(n, "expected 'METHOD URL', e.g. 'GET http://host/path'");
            if (target.find_first_of(" \t") != std::string_view::npos)
                return mix.fail(n, "expected 'METHOD URL', found more after the URL: " + inQuotes(line));
            if (!isKnownMethod(method)) return mix.fail(n, unknownMethod(method));
            auto url = parseUrl(std::string(target));
            if (!url) return mix.fail(n, url.error());
            MixEntry entry;
            entry.request.method = std::string(method);
            entry.request.url = std::move(*url);
            entry.line = n;
            if (Status added = mix.add(std::move(entry)); !added) return added;
            inEntry = true;
            bodyLine = 0;
            return {};
        }
        if (line.front() == '@') {
            if (bodyLine != 0)
                return mix.fail(
                    n, "a second body line; the request already has its body from line " + std::to_string(bodyLine));
            bodyLine = n;
            return mix.setBody(trim(line.substr(1)), n);
        }
        if (looksLikeRequestLine(line))
            return mix.fail(n, inQuotes(line) + " is neither a header nor a body line, nor a request (unknown method)");
        if (bodyLine != 0)
            return mix.fail(
                n, "header after the body line (line " + std::to_string(bodyLine) + "); headers come before '@file'");
        auto header = parseHeader(std::string(line));
        if (!header) return mix.fail(n, header.error());
        mix.last().request.headers.push_back(std::move(*header));
        return {};
    });
}

// The parser's messages begin with "parse error at line 1, "; the line is ours to number,
// and the column stays.
std::string jsonMessage(std::string message)
{
    const std::string linePrefix = "parse error at line 1, ";
    if (message.rfind(linePrefix, 0) == 0) message.erase(0, linePrefix.size());
    return message;
}

std::string shortDump(const Json& value)
{
    return jsonText(value);
}

Status parseJsonEntry(const Json& object, unsigned n, MixBuilder& mix)
{
    if (!object.is_object()) return mix.fail(n, "expected a JSON object, found " + shortDump(object));
    for (const auto& [key, value] : object.items()) {
        (void)value;
        if (key != "method" && key != "url" && key != "headers" && key != "body" && key != "body_file"
            && key != "weight")
            return mix.fail(
                n, "unknown key " + inQuotes(key) + " (use method, url, headers, body, body_file or weight)");
    }
    const auto stringField = [&](const char* key, std::string& out) -> Status {
        const auto it = object.find(key);
        if (it == object.end()) return {};
        if (!it->is_string()) return mix.fail(n, std::string("'") + key + "' must be a string, not " + shortDump(*it));
        out = it->get<std::string>();
        return {};
    };

    MixEntry entry;
    entry.line = n;
    if (Status s = stringField("method", entry.request.method); !s) return s;
    if (!isKnownMethod(entry.request.method)) return mix.fail(n, unknownMethod(entry.request.method));
    if (!object.contains("url")) return mix.fail(n, "missing 'url'");
    std::string urlText;
    if (Status s = stringField("url", urlText); !s) return s;
    auto url = parseUrl(urlText);
    if (!url) return mix.fail(n, url.error());
    entry.request.url = std::move(*url);

    if (const auto headers = object.find("headers"); headers != object.end()) {
        if (headers->is_object()) {
            for (const auto& [name, value] : headers->items()) {
                if (!value.is_string())
                    return mix.fail(n, "header " + inQuotes(name) + " must be a string, not " + shortDump(value));
                // A ':' in the name would make parseHeader split it elsewhere.
                if (name.find(':') != std::string::npos)
                    return mix.fail(n, "invalid header name " + inQuotes(name) + ": contains ':'");
                auto header = parseHeader(name + ": " + value.get<std::string>());
                if (!header) return mix.fail(n, header.error());
                entry.request.headers.push_back(std::move(*header));
            }
        } else if (headers->is_array()) {
            for (const Json& line : *headers) {
                if (!line.is_string())
                    return mix.fail(n, "'headers' lines must be strings like \"Name: value\", not " + shortDump(line));
                auto header = parseHeader(line.get<std::string>());
                if (!header) return mix.fail(n, header.error());
                entry.request.headers.push_back(std::move(*header));
            }
        } else {
            return mix.fail(n,
                "'headers' must be an object {\"Name\": \"value\"} or an array [\"Name: value\"], not "
                    + shortDump(*headers));
        }
    }

    if (const auto weight = object.find("weight"); weight != object.end()) {
        // JSON has no NaN or infinity, and nlohmann refuses 1e999: a number is finite.
        if (!weight->is_number() || !(weight->get<double>() > 0))
            return mix.fail(n, "weight must be a number greater than 0, not " + shortDump(*weight));
        entry.weight = weight->get<double>();
    }

    if (object.contains("body") && object.contains("body_file"))
        return mix.fail(n, "use either 'body' or 'body_file', not both");
    std::string body, bodyFile;
    if (Status s = stringField("body", body); !s) return s;
    if (Status s = stringField("body_file", bodyFile); !s) return s;

    if (Status added = mix.add(std::move(entry)); !added) return added;
    if (object.contains("body_file")) return mix.setBody(bodyFile, n);
    if (!body.empty()) return mix.setBodyBytes(body, n);
    return {};
}

Status parseJsonLines(std::string_view text, MixBuilder& mix)
{
    return forEachLine(text, [&](std::string_view line, unsigned n) -> Status {
        if (trim(line).empty()) return {};
        // Bounded before the parser: the error message of a line 100,000 levels deep is built by
        // a recursive dump, which overflowed the stack.
        auto object = parseJsonText<Json>(line);
        if (!object) return mix.fail(n, "invalid JSON: " + jsonMessage(object.error()));
        return parseJsonEntry(*object, n, mix);
    });
}

} // namespace

std::string MixEntry::label() const
{
    return request.method + " " + request.url.target;
}

Url RequestMix::origin() const
{
    if (entries.empty()) return {};
    Url url = entries.front().request.url;
    url.target = "/";
    url.original.clear(); // displayText() then shows the canonical origin, not the first entry's URL
    return url;
}

Result<RequestMix> parseRequestMix(std::string_view text, const std::string& name, const std::string& baseDir)
{
    if (text.size() > MAX_REQUEST_MIX_BYTES)
        return Error { oneLine("request mix " + name + " is " + std::to_string(text.size()) + " bytes; "
            + sizeLimitText(MAX_REQUEST_MIX_BYTES)) };
    try {
        MixBuilder mix(name, baseDir);
        const size_t first = text.find_first_not_of(" \t\r\n");
        const bool jsonLines = first != std::string_view::npos && text[first] == '{';
        Status parsed = jsonLines ? parseJsonLines(text, mix) : parseLineFormat(text, mix);
        if (!parsed) return Error { parsed.error() };
        return mix.finish();
    } catch (const std::exception& e) {
        // Only allocation failures are expected here; the JSON parser's own errors are caught per line.
        return Error { oneLine(name + ": " + e.what()) };
    }
}

Result<RequestMix> loadRequestMix(const std::string& path)
{
    auto text = readBounded(path, "request mix", false);
    if (!text) return Error { oneLine(text.error()) };
    std::string baseDir = std::filesystem::path(path).parent_path().string();
    if (baseDir.empty()) baseDir = ".";
    return parseRequestMix(*text, path, baseDir);
}

void applyRequestMix(
    RunConfig& config, const RequestMix& mix, MixOrder order, uint64_t seed, const std::vector<Header>& extraHeaders)
{
    config.mix = {};
    config.mix.source = mix.source;
    config.mix.order = order;
    config.mix.seed = seed;
    for (const MixEntry& e : mix.entries) {
        MixRequest r;
        r.request = e.request;
        for (const Header& h : extraHeaders) {
            const bool set = std::any_of(r.request.headers.begin(), r.request.headers.end(),
                [&](const Header& own) { return strcasecmp(own.name.c_str(), h.name.c_str()) == 0; });
            if (!set) r.request.headers.push_back(h);
        }
        r.weight = e.weight;
        r.line = e.line;
        r.label = e.label();
        config.mix.entries.push_back(std::move(r));
    }
    if (!config.mix.entries.empty()) config.request = config.mix.entries.front().request;
}

} // namespace wb
