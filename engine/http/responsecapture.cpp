#include "http/responsecapture.h"

namespace wb {

namespace {
std::string_view trimmed(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}
} // namespace

void ResponseCapture::splitFields()
{
    fields.clear();
    std::string_view rest(head);
    bool first = true;
    while (!rest.empty()) {
        const size_t lf = rest.find('\n');
        std::string_view line = rest.substr(0, lf);
        rest = lf == std::string_view::npos ? std::string_view {} : rest.substr(lf + 1);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (line.empty()) {
            if (first) continue; // stray CR/LF before the status line
            break; // the blank line ends the block
        }
        if (first && line.starts_with("HTTP/")) {
            first = false;
            continue; // the status line: the status is handed over on its own
        }
        first = false;
        if ((line.front() == ' ' || line.front() == '\t') && !fields.empty()) {
            // obs-fold (RFC 9112 5.2): the parser accepted it, the value goes on. The view
            // is widened over the line break, which is what was received.
            HeaderField& last = fields.back();
            const char* begin = last.value.empty() ? line.data() : last.value.data();
            last.value = trimmed(std::string_view(begin, static_cast<size_t>(line.data() + line.size() - begin)));
            continue;
        }
        const size_t colon = line.find(':');
        if (colon == std::string_view::npos) continue; // the parser refused such a response already
        fields.push_back({ line.substr(0, colon), trimmed(line.substr(colon + 1)) });
    }
}

} // namespace wb
