#include "probe/probetext.h"

#include "common/format.h"
#include "probe/altsvc.h"

#include <algorithm>
#include <cstdio>

namespace wb {

namespace {

constexpr int LABEL_WIDTH = 15;
constexpr const char* INDENT = "                "; // lines that continue a detail

std::string ms(uint64_t us)
{
    char text[32];
    std::snprintf(text, sizeof text, "%10.3f ms", static_cast<double>(us) / 1000.0);
    return text;
}

std::string compactMs(uint64_t us)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.3f ms", static_cast<double>(us) / 1000.0);
    return text;
}

std::string padded(std::string_view s, size_t width)
{
    std::string out(s);
    if (out.size() < width) out.append(width - out.size(), ' ');
    return out;
}

std::string bar(uint64_t startUs, uint64_t endUs, uint64_t totalUs, unsigned width)
{
    std::string cells(width, ' ');
    if (totalUs > 0 && width > 0) {
        // The bar covers the cells the phase overlaps; even a 1 us phase gets one cell.
        const auto cell = [&](uint64_t us) { return static_cast<unsigned>(us * width / totalUs); };
        unsigned from = std::min(cell(startUs), width - 1);
        unsigned to
            = std::max(from + 1, std::min(width, static_cast<unsigned>((endUs * width + totalUs - 1) / totalUs)));
        std::fill(cells.begin() + from, cells.begin() + to, '#');
    }
    return "|" + cells + "|";
}

std::string endpoint(const std::string& ip, uint16_t port)
{
    return (ip.find(':') != std::string::npos ? "[" + ip + "]" : ip) + ":" + std::to_string(port);
}

std::string expiryText(int64_t days)
{
    if (days < 0) return "EXPIRED " + std::to_string(-days) + (days == -1 ? " day ago" : " days ago");
    return std::to_string(days) + (days == 1 ? " day left" : " days left");
}

void detail(std::string& out, std::string_view label, const std::string& text)
{
    out += "  " + padded(label, LABEL_WIDTH - 1) + text + "\n";
}

void certificateDetails(std::string& out, const std::vector<ProbeCertificate>& chain)
{
    for (size_t i = 0; i < chain.size(); ++i) {
        const ProbeCertificate& c = chain[i];
        detail(out, i == 0 ? "Certificate" : "Chain " + std::to_string(i), c.subject);
        out += std::string(INDENT) + "issued by " + c.issuer + "\n";
        if (!c.sans.empty()) out += std::string(INDENT) + "names " + joined(c.sans) + "\n";
        out += std::string(INDENT) + "valid " + c.notBefore + " to " + c.notAfter + " (" + expiryText(c.daysToExpiry)
            + ")\n";
    }
}

std::string title(const ProbeResult& p)
{
    return p.method + " " + p.url;
}

} // namespace

std::string formatWaterfall(const ProbeResult& p, unsigned barWidth)
{
    std::string out = "  " + padded("phase", LABEL_WIDTH) + "      own         at\n";
    for (const ProbeSpan& s : p.spans())
        out += "  " + padded(phaseLabel(s.phase), LABEL_WIDTH) + ms(s.durationUs) + ms(s.endUs()) + "  "
            + bar(s.startUs, s.endUs(), p.totalUs, barWidth) + "\n";
    out += "  " + padded("total", LABEL_WIDTH) + std::string(13, ' ') + ms(p.totalUs) + "\n";
    if (p.redirectUs) out += "  " + padded("+ redirects", LABEL_WIDTH) + ms(p.redirectUs) + "\n";
    return out;
}

std::string formatProbeDetails(const ProbeResult& p)
{
    std::string out;
    std::string remote = endpoint(p.remoteIp, p.remotePort);
    if (!p.addresses.empty()) remote += " (resolves to " + joined(p.addresses) + ")";
    if (p.connectionReused) remote += ", connection reused";
    detail(out, "Remote", remote);
    if (!p.localIp.empty()) detail(out, "Local", endpoint(p.localIp, p.localPort));
    detail(out, "HTTP", p.httpVersion + (p.alpn.empty() ? "" : ", ALPN " + p.alpn));
    if (p.usedTls()) detail(out, "TLS", p.tlsVersion + ", " + p.cipher);
    certificateDetails(out, p.certificates);
    detail(out, "Response", p.statusLine.empty() ? std::to_string(p.statusCode) : p.statusLine);
    for (const Header& h : p.headers)
        out += std::string(INDENT) + h.name + ": " + h.value + "\n";
    // Where the server says it answers HTTP/3 (its Alt-Svc): what --http3 would connect to.
    if (const std::vector<std::string> h3 = http3AltSvc(p.headers); !h3.empty())
        detail(out, "HTTP/3", "advertised on " + joined(h3) + " (Alt-Svc)");
    detail(out, "Body", std::to_string(p.bodyBytes) + (p.bodyBytes == 1 ? " byte" : " bytes"));
    for (const ProbeRedirect& r : p.redirects)
        detail(out, "Redirect",
            std::to_string(r.statusCode) + " " + r.fromUrl + " -> " + r.toUrl
                + (r.followed ? " (followed, took " + compactMs(r.totalUs) + ")" : " (not followed)"));
    return out;
}

std::string formatProbeText(const ProbeResult& p)
{
    return title(p) + "\n\n" + formatWaterfall(p) + "\n" + formatProbeDetails(p);
}

std::string formatProbeSummaryText(const std::vector<ProbeResult>& probes)
{
    if (probes.empty()) return {};
    const ProbeSummary s = summarize(probes);
    std::string out = title(probes.back()) + ": " + std::to_string(s.count) + " probes, each on a fresh connection\n\n";
    out += "  " + padded("phase", LABEL_WIDTH) + "      min        median           max\n";
    auto row = [&](std::string_view label, const PhaseStats& st) {
        out += "  " + padded(label, LABEL_WIDTH) + ms(st.minUs) + ms(st.medianUs) + ms(st.maxUs) + "\n";
    };
    for (ProbePhase phase : PROBE_PHASES)
        if (phase != ProbePhase::Tls || s.tls) row(phaseLabel(phase), s[phase]);
    row("total", s.total);
    return out + "\n" + formatProbeDetails(probes.back());
}

} // namespace wb
