// libFuzzer target for the request-mix reader (--requests FILE). The input is
// the mix text; body files resolve in a directory that does not exist, so
// relative ones fail cleanly. Checked:
//   - an error is one line that starts with the file name;
//   - a mix has 1 to 65535 entries, in file order, on lines of the text, each
//     with a known method, a positive finite weight, valid headers, the one
//     origin, and a label that is its method and target;
//   - the same text with CRLF line ends reads the same, and with a blank line
//     on top it reads the same one line further down;
//   - the text as the second line of a JSON Lines mix, inside more levels of arrays than any
//     JSON of ours nests, is refused in one line that says so (the message quotes the value:
//     a deep one once overflowed the stack of the writer building it), whatever the text.
// A violation traps.

#include "common/jsontext.h"
#include "parse/requestmix.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

namespace {

const std::string NAME = "fuzz.txt";
const std::string BASE_DIR = "/nonexistent-wrkbench-fuzz-dir";

void check(bool ok)
{
    if (!ok) __builtin_trap();
}

bool isKnownMethod(const std::string& m)
{
    for (const char* known : { "GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE" })
        if (m == known) return true;
    return false;
}

void checkMix(const wb::RequestMix& mix, size_t lineCount)
{
    check(mix.source == NAME);
    check(!mix.entries.empty() && mix.entries.size() <= wb::MAX_REQUEST_MIX_ENTRIES);
    const wb::Url origin = mix.origin();
    check(origin.target == "/" && (origin.scheme == "http" || origin.scheme == "https") && origin.port != 0);
    unsigned previousLine = 0;
    for (const wb::MixEntry& e : mix.entries) {
        check(e.line > previousLine && e.line <= lineCount);
        previousLine = e.line;
        check(std::isfinite(e.weight) && e.weight > 0);
        check(isKnownMethod(e.request.method));
        const wb::Url& url = e.request.url;
        check(url.scheme == origin.scheme && url.host == origin.host && url.port == origin.port);
        check(!url.target.empty() && url.target.front() == '/');
        check(e.label() == e.request.method + " " + url.target);
        for (const wb::Header& h : e.request.headers) {
            auto again = wb::parseHeader(h.name + ": " + h.value);
            check(again.ok() && again->name == h.name && again->value == h.value);
        }
    }
}

bool sameEntries(const wb::RequestMix& a, const wb::RequestMix& b, unsigned shift)
{
    if (a.entries.size() != b.entries.size()) return false;
    for (size_t i = 0; i < a.entries.size(); ++i) {
        const wb::MixEntry& x = a.entries[i];
        const wb::MixEntry& y = b.entries[i];
        if (x.line + shift != y.line || x.label() != y.label() || x.weight != y.weight
            || x.request.headers != y.request.headers || x.request.body != y.request.body
            || x.request.url.toString() != y.request.url.toString())
            return false;
    }
    return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    size_t lineCount = 0;
    for (char c : text)
        lineCount += c == '\n';
    if (!text.empty() && text.back() != '\n') ++lineCount;

    const auto mix = wb::parseRequestMix(text, NAME, BASE_DIR);
    if (!mix) {
        const std::string& e = mix.error();
        check(e.rfind(NAME + ":", 0) == 0);
        check(e.find_first_of("\r\n") == std::string::npos && e.size() < 1200);
    } else {
        checkMix(*mix, lineCount);
    }

    // Line ends: a stray CR inside a line is the text's own, so only CR-free texts compare.
    if (text.find('\r') == std::string::npos) {
        std::string crlf;
        crlf.reserve(text.size() + text.size() / 8);
        for (char c : text) {
            if (c == '\n') crlf.push_back('\r');
            crlf.push_back(c);
        }
        const auto viaCrlf = wb::parseRequestMix(crlf, NAME, BASE_DIR);
        check(viaCrlf.ok() == mix.ok());
        if (mix) check(sameEntries(*mix, *viaCrlf, 0));
    }
    const auto shifted = wb::parseRequestMix("\n" + text, NAME, BASE_DIR);
    check(shifted.ok() == mix.ok());
    if (mix) check(sameEntries(*mix, *shifted, 1));

    if (text.find('\n') == std::string::npos && text.find('\r') == std::string::npos) {
        const std::string levels(wb::JSON_MAX_DEPTH + 1, '[');
        const auto deep = wb::parseRequestMix(
            "{\"url\": \"http://a/\"}\n" + levels + text + std::string(levels.size(), ']') + "\n", NAME, BASE_DIR);
        check(!deep.ok());
        check(deep.error() == NAME + ":2: invalid JSON: nested deeper than 64 levels");
    }
    return 0;
}
