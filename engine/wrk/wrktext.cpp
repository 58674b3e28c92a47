#include "wrk/wrktext.h"

#include "report/backendreport.h"
#include "report/generatorlag.h"
#include "report/loadersaturation.h"
#include "report/units.h"
#include "stats/spectrum.h"

#include <cctype>
#include <fmt/format.h>
#include <iterator>
#include <vector>

namespace wb {

namespace {

using Formatter = std::string (*)(double);

// One value column of wrk's stats rows. The column is `width` wide, but up to
// two characters of it are reserved for the unit: a value without a unit
// ("397.64") is pushed two columns left, "8.78k" one, "5.47ms" none, so the
// digits line up whatever the unit. Over-long values are cut to fit, as wrk does.
void appendUnits(std::string& out, double value, Formatter format, int width)
{
    const std::string text = format(value);
    int pad = 2;
    const auto isAlpha = [&](size_t fromEnd) {
        return text.size() >= fromEnd && std::isalpha(static_cast<unsigned char>(text[text.size() - fromEnd]));
    };
    if (isAlpha(1)) --pad;
    if (isAlpha(2)) --pad;
    const auto fieldWidth = static_cast<size_t>(width - pad);
    fmt::format_to(std::back_inserter(out), "{:>{}.{}}", text, fieldWidth, fieldWidth);
    out.append(static_cast<size_t>(pad), ' ');
}

void appendStatsRow(
    std::string& out, const char* name, double mean, double stdev, double max, double withinStdevPct, Formatter format)
{
    fmt::format_to(std::back_inserter(out), "    {:<10}", name);
    appendUnits(out, mean, format, 8);
    appendUnits(out, stdev, format, 10);
    appendUnits(out, max, format, 9);
    fmt::format_to(std::back_inserter(out), "{:8.2f}%\n", withinStdevPct);
}

void appendLatencyDistribution(std::string& out, const LatencyHistogram& latency)
{
    // wrk's four rows, then two deeper tails with as many decimals as they
    // need, in the same 7-character label column.
    struct Row
    {
        double percentile;
        int decimals;
    };
    constexpr Row ROWS[] = { { 50, 0 }, { 75, 0 }, { 90, 0 }, { 99, 0 }, { 99.9, 1 }, { 99.99, 2 } };
    out += "  Latency Distribution\n";
    for (const Row& row : ROWS) {
        fmt::format_to(std::back_inserter(out), "{:7.{}f}%", row.percentile, row.decimals);
        appendUnits(out, static_cast<double>(latency.valueAtPercentileUs(row.percentile)), formatTimeUs, 10);
        out += '\n';
    }
}

// wrk2's layout: " 50.000%    1.23ms", down to 99.999% and 100%.
void appendHdrDistribution(std::string& out, const char* title, const LatencyHistogram& h)
{
    out += title;
    for (double p : { 50.0, 75.0, 90.0, 99.0, 99.9, 99.99, 99.999, 100.0 }) {
        fmt::format_to(std::back_inserter(out), "{:7.3f}%", p);
        appendUnits(out, static_cast<double>(h.valueAtPercentileUs(p)), formatTimeUs, 10);
        out += '\n';
    }
}

// wrk2's "Detailed Percentile spectrum", values in milliseconds.
void appendSpectrum(std::string& out, const char* title, const LatencyHistogram& h)
{
    fmt::format_to(std::back_inserter(out), "\n  {}\n{:>12}{:>13}{:>13}{:>17}\n\n", title, "Value", "Percentile",
        "TotalCount", "1/(1-Percentile)");
    for (const SpectrumPoint& p : percentileSpectrum(h)) {
        fmt::format_to(std::back_inserter(out), "{:12.3f}{:13.6f}{:13}", static_cast<double>(p.valueUs) / 1000.0,
            p.percentile / 100.0, p.totalCount);
        if (p.percentile < 100) fmt::format_to(std::back_inserter(out), "{:17.2f}", p.inverseTail());
        out += '\n';
    }
    fmt::format_to(std::back_inserter(out), "#[Mean    = {:12.3f}, StdDeviation   = {:12.3f}]\n", h.meanUs() / 1000.0,
        h.stdevUs() / 1000.0);
    fmt::format_to(std::back_inserter(out), "#[Max     = {:12.3f}, Total count    = {:12}]\n",
        static_cast<double>(h.maxUs()) / 1000.0, h.count());
    out += "----------------------------------------------------------\n";
}

// Where the time of a request goes under load: the connects and TLS handshakes of every
// connection opened, and the first byte of each response (k6's connecting/tls_handshaking/waiting).
void appendConnectionPhases(std::string& out, const RunResult& result)
{
    fmt::format_to(std::back_inserter(out), "  Connection Phases{:>10}{:>10}{:>10}{:>10}{:>8}\n", "p50", "p90", "p99",
        "Max", "Count");
    const auto row = [&](const char* name, const LatencyHistogram& h) {
        fmt::format_to(std::back_inserter(out), "    {:<15}", name);
        for (double p : { 50.0, 90.0, 99.0 })
            appendUnits(out, static_cast<double>(h.valueAtPercentileUs(p)), formatTimeUs, 10);
        appendUnits(out, static_cast<double>(h.maxUs()), formatTimeUs, 10);
        fmt::format_to(std::back_inserter(out), "{:>8}\n", h.count());
    };
    // HTTP/3: the connect is QUIC's handshake, TLS 1.3 inside it; there is no TLS row of its own.
    row(result.config.http3() ? "QUIC handshake" : "Connect", result.connectTime);
    if (result.config.request.url.isTls() && !result.config.http3()) row("TLS handshake", result.tlsHandshake);
    row("First byte", result.firstByte);
}

// A request mix: one row per entry (the first MAX_ROWS; the JSON has them all).
void appendMixEntries(std::string& out, const RunResult& result)
{
    constexpr size_t MAX_ROWS = 20;
    constexpr size_t LABEL_WIDTH = 32;
    const RequestMixSpec& mix = result.config.mix;
    fmt::format_to(std::back_inserter(out), "  Request mix {}: {} entries, {}\n", mix.source, mix.entries.size(),
        mixOrderId(mix.order));
    fmt::format_to(std::back_inserter(out), "  {:>5}  {:<{}}{:>10}{:>11}{:>10}{:>10}{:>8}{:>8}\n", "#", "Request",
        LABEL_WIDTH, "Requests", "Req/s", "p50", "p99", "Errors", "Non-2xx");
    for (size_t i = 0; i < mix.entries.size() && i < MAX_ROWS; ++i) {
        const EntryStats empty;
        const EntryStats& e = i < result.entries.size() ? result.entries[i] : empty;
        std::string label = mix.entries[i].label;
        if (label.size() > LABEL_WIDTH - 1) label = label.substr(0, LABEL_WIDTH - 4) + "...";
        fmt::format_to(std::back_inserter(out), "  {:>5}  {:<{}}{:>10}{:>11.2f}", i + 1, label, LABEL_WIDTH, e.requests,
            result.durationS > 0 ? static_cast<double>(e.requests) / result.durationS : 0.0);
        for (double p : { 50.0, 99.0 }) {
            if (e.latency && !e.latency->empty())
                appendUnits(out, static_cast<double>(e.latency->valueAtPercentileUs(p)), formatTimeUs, 10);
            else
                fmt::format_to(std::back_inserter(out), "{:>10}", "-");
        }
        fmt::format_to(std::back_inserter(out), "{:>8}{:>8}\n", e.errors.transportErrors(), e.non2xx());
    }
    if (mix.entries.size() > MAX_ROWS)
        fmt::format_to(std::back_inserter(out), "  ... and {} more entries (--json has every one)\n",
            mix.entries.size() - MAX_ROWS);
}

std::string stageList(const RunConfig& config)
{
    std::string list;
    for (const Stage& st : config.stages) {
        if (!list.empty()) list += ", ";
        fmt::format_to(std::back_inserter(list), "{}:{}{}", formatTimeS(static_cast<double>(st.durationUs) / 1e6),
            formatMetric(st.target), config.stagesAreConnections ? "c" : "");
    }
    return list;
}

// "200 1234, 404 5"; code 0 holds the responses whose status was outside 100..599.
std::string statusCodeList(const StatusCounts& status)
{
    std::string list;
    const auto append = [&](const std::string& name, uint64_t n) {
        if (!list.empty()) list += ", ";
        fmt::format_to(std::back_inserter(list), "{} {}", name, n);
    };
    for (size_t code = 100; code < status.byCode.size(); ++code) {
        if (status.byCode[code]) append(std::to_string(code), status.byCode[code]);
    }
    if (status.byCode[0]) append("other", status.byCode[0]);
    return list;
}

// HTTP/3: the QUIC facts a reader needs to trust the figures (the handshake is the connect
// phase of the latency lines; loss and how connections ended).
void appendQuic(std::string& out, const QuicSummary& q)
{
    fmt::format_to(std::back_inserter(out), "  QUIC: {}, ALPN {}, {} handshake{} (1-RTT; 0-RTT not offered)\n",
        quicVersionName(q.version), q.alpn.empty() ? "-" : q.alpn, q.handshakes, q.handshakes == 1 ? "" : "s");
    if (q.lostPackets > 0 || q.probeTimeouts > 0)
        fmt::format_to(std::back_inserter(out),
            "  QUIC loss: {} packets of requests declared lost, {} probe timeouts\n", q.lostPackets, q.probeTimeouts);
    if (q.totalEnds() > 0) {
        std::string list;
        for (size_t i = 0; i < QuicSummary::END_KINDS; ++i)
            if (q.ends[i] > 0)
                fmt::format_to(
                    std::back_inserter(list), "{}{} {}", list.empty() ? "" : ", ", QUIC_END_NAMES[i], q.ends[i]);
        fmt::format_to(std::back_inserter(out), "  QUIC connections ended: {}\n", list);
    }
    if (!q.firstEnd.empty()) fmt::format_to(std::back_inserter(out), "  First QUIC error: {}\n", q.firstEnd);
}

} // namespace

std::string protocolDescription(const RunConfig& config, const std::string& spoken)
{
    const std::string id = spoken.empty() ? protocolId(config.httpVersion, config.request.url.isTls()) : spoken;
    if (id == "http/1.1") return "HTTP/1.1";
    const char* name = id == "h3" ? "HTTP/3 (h3 over QUIC)" : id == "h2" ? "HTTP/2 (h2 by ALPN)" : "HTTP/2 (h2c)";
    return fmt::format("{}, {} stream{} per connection", name, config.streams, config.streams == 1 ? "" : "s");
}

std::string quicDescription(const QuicSummary& q)
{
    if (q.empty()) return {};
    std::string out = fmt::format("{}, ALPN {}, {} handshake{} (1-RTT)", quicVersionName(q.version),
        q.alpn.empty() ? "-" : q.alpn, q.handshakes, q.handshakes == 1 ? "" : "s");
    if (q.lostPackets > 0 || q.probeTimeouts > 0)
        fmt::format_to(std::back_inserter(out), "; {} packets of requests lost, {} probe timeouts", q.lostPackets,
            q.probeTimeouts);
    std::string ends;
    for (size_t i = 0; i < QuicSummary::END_KINDS; ++i)
        if (q.ends[i] > 0)
            fmt::format_to(std::back_inserter(ends), "{}{} {}", ends.empty() ? "" : ", ", QUIC_END_NAMES[i], q.ends[i]);
    if (!ends.empty()) out += "; ended: " + ends;
    return out;
}

std::string churnDescription(const RunConfig& config)
{
    const ConnectionChurn& churn = config.churn;
    if (!churn.enabled()) return "Connections kept open";
    const auto range = [](uint64_t low, uint64_t high, auto format) {
        return low == high ? format(low) : format(low) + " to " + format(high);
    };
    std::vector<std::string> after;
    if (churn.requestsMax > 0)
        after.push_back(range(churn.requestsMin, churn.requestsMax, [](uint64_t n) { return std::to_string(n); })
            + (churn.requestsMax == 1 ? " request" : " requests"));
    if (churn.lifetimeMaxUs > 0)
        after.push_back(range(churn.lifetimeMinUs, churn.lifetimeMaxUs,
            [](uint64_t us) { return formatTimeUs(static_cast<double>(us)); }));
    return "Each connection reopened after " + (after.size() == 2 ? after[0] + " or " + after[1] : after[0])
        + " (churn)";
}

std::string formatRunHeader(const RunConfig& config)
{
    // wrk's duration is whole seconds; ours may be finer, formatTimeS rounds.
    // wrk's whole seconds ("30s", "2m"); a duration wrk could not express ("300ms") as such.
    const std::string duration = config.durationUs % 1'000'000 == 0
        ? formatTimeS(static_cast<double>(config.durationUs) / 1e6)
        : formatTimeUs(static_cast<double>(config.durationUs));
    // A mix names its file and its origin (its entries carry their own paths).
    const Url& url = config.request.url;
    const std::string target = config.mix.empty()
        ? url.displayText()
        : fmt::format("{} ({}://{}/)", config.mix.source, url.scheme, url.hostHeader());
    std::string out = fmt::format("Running {} test @ {}\n  {} threads and {} connections\n", duration, target,
        config.threads, config.connections);
    if (config.multiplexed()) fmt::format_to(std::back_inserter(out), "  {}\n", protocolDescription(config));
    if (config.churn.enabled()) fmt::format_to(std::back_inserter(out), "  {}\n", churnDescription(config));
    if (config.responses > 0)
        fmt::format_to(std::back_inserter(out), "  Ends after {} responses, or at {}\n", config.responses, duration);
    if (!config.sourceAddresses.empty())
        fmt::format_to(std::back_inserter(out), "  From {} source address{}\n", config.sourceAddresses.size(),
            config.sourceAddresses.size() == 1 ? "" : "es");
    if (config.openModel() && config.stages.empty())
        fmt::format_to(std::back_inserter(out), "  Constant rate: {:.0f} requests/s (open model)\n", config.ratePerS);
    else if (config.openModel())
        fmt::format_to(std::back_inserter(out), "  Rate stages: {} requests/s (open model)\n", stageList(config));
    else if (!config.stages.empty())
        fmt::format_to(std::back_inserter(out), "  Connection stages: {}\n", stageList(config));
    if (!config.openModel())
        out += "  Closed loop (as wrk): latency is service time only; -R/--rate corrects for coordinated omission\n";
    return out;
}

std::string parseFailureWarning(uint64_t parseFailures, uint64_t responses, const ConnectionFacts& facts)
{
    if (parseFailures == 0 || parseFailures < responses) return {};
    std::string out = fmt::format("{} of {} responses could not be parsed", parseFailures, parseFailures + responses);
    if (!facts.firstParseError.empty()) out += ": " + facts.firstParseError;
    return out;
}

std::string hpackTableNote(const ConnectionFacts& facts, uint32_t headerTableBytes)
{
    return fmt::format("The server kept HPACK's 4,096-byte table on {} connections: it acknowledged our "
                       "--header-table-size {} but sent no table size update (RFC 7541 4.2); decoded with the "
                       "4,096 bytes (up to {} more memory)",
        facts.hpackTableKept, headerTableBytes, formatBinary(4096.0 * static_cast<double>(facts.hpackTableKept)) + "B");
}

std::string connectionsOpenedText(uint64_t opened, double durationS, const ConnectionFacts& facts)
{
    return fmt::format("{} ({:.2f}/s), {} closed by churn", opened,
        durationS > 0 ? static_cast<double>(opened) / durationS : 0.0, facts.churnCloses);
}

namespace {

/// One line per loader of a distributed run, and a warning when their starts spread.
void appendLoaders(std::string& out, const std::vector<LoaderSummary>& loaders)
{
    fmt::format_to(std::back_inserter(out), "  {} loaders:\n", loaders.size());
    double earliest = 0, latest = 0;
    for (size_t i = 0; i < loaders.size(); ++i) {
        const LoaderSummary& l = loaders[i];
        earliest = i == 0 ? l.startOffsetMs : std::min(earliest, l.startOffsetMs);
        latest = i == 0 ? l.startOffsetMs : std::max(latest, l.startOffsetMs);
        fmt::format_to(std::back_inserter(out),
            "    #{:<3} {:<24} {:>6} conns {:>10} requests {:>12.2f} req/s {:>6} errors  start {:+.1f}ms  {}", l.index,
            l.host, l.connections, l.requests, l.requestsPerS, l.errors, l.startOffsetMs, l.state);
        if (l.cost.measured())
            fmt::format_to(std::back_inserter(out), "  workers {:.0f}% busy", l.cost.workerBusyShare() * 100);
        out += '\n';
    }
    if (latest - earliest > LOADER_START_SPREAD_WARN_MS)
        fmt::format_to(std::back_inserter(out),
            "  Warning: the loaders' starts spread over {:.0f}ms (more than {:.0f}ms): check their clocks\n",
            latest - earliest, LOADER_START_SPREAD_WARN_MS);
}

} // namespace

std::string formatRunReport(const RunResult& result, const TextReportOptions& options)
{
    std::string out;
    // A run that measured mostly failures says why before any figure: the error count alone
    // reads like a server fault and gives no hint.
    if (const std::string warning = parseFailureWarning(result.errors.parse, result.requests, result.connections);
        !warning.empty())
        fmt::format_to(std::back_inserter(out), "  Warning: {}\n", warning);
    fmt::format_to(
        std::back_inserter(out), "  Thread Stats{:>6}{:>11}{:>8}{:>12}\n", "Avg", "Stdev", "Max", "+/- Stdev");
    const LatencyHistogram& latency = result.latency;
    appendStatsRow(out, "Latency", latency.meanUs(), latency.stdevUs(), static_cast<double>(latency.maxUs()),
        latency.percentWithinStdev(), formatTimeUs);
    const bool open = result.config.openModel();
    const LatencyHistogram& service = result.serviceLatency;
    if (open) {
        appendStatsRow(out, "Service", service.meanUs(), service.stdevUs(), static_cast<double>(service.maxUs()),
            service.percentWithinStdev(), formatTimeUs);
    }
    const RateSamples& rates = result.threadRates;
    appendStatsRow(out, "Req/Sec", rates.mean(), rates.stdev(), rates.max(), rates.percentWithinStdev(), formatMetric);
    if (open) {
        out += "  Latency: from each request's scheduled time (corrected for coordinated omission);\n"
               "  Service: from the actual send (uncorrected)\n";
    }
    if (options.latencyDistribution && open) {
        appendHdrDistribution(out, "  Latency Distribution (HdrHistogram - Corrected Latency)\n", latency);
        appendSpectrum(out, "Detailed Percentile spectrum (corrected):", latency);
        appendHdrDistribution(out, "  Service Time Distribution (HdrHistogram - Uncorrected Latency)\n", service);
    } else if (options.latencyDistribution) {
        appendLatencyDistribution(out, latency);
        appendSpectrum(out, "Detailed Percentile spectrum:", latency);
    }
    if (options.latencyDistribution) appendConnectionPhases(out, result);

    fmt::format_to(std::back_inserter(out), "  {} requests in {}, {}B read\n", result.requests,
        formatTimeUs(result.durationS * 1e6), formatBinary(static_cast<double>(result.bytes)));
    // Churn: how many connections the run opened, which is what a balancer placed.
    if (result.config.churn.enabled())
        fmt::format_to(std::back_inserter(out), "  Connections opened: {}\n",
            connectionsOpenedText(result.connectTime.count(), result.durationS, result.connections));

    if (open) {
        const double achieved = result.requestsPerS();
        fmt::format_to(std::back_inserter(out),
            "  Requested {:.2f} requests/s, achieved {:.2f} ({:.2f}%); late requests: {} (max lag {})\n",
            result.targetRatePerS, achieved, result.targetRatePerS > 0 ? 100.0 * achieved / result.targetRatePerS : 0.0,
            result.lateRequests, formatTimeUs(static_cast<double>(result.maxLagUs)));
        if (!result.sendLag.empty()) {
            const auto at = [&](double pct) {
                return formatTimeUs(static_cast<double>(result.sendLag.valueAtPercentileUs(pct)));
            };
            fmt::format_to(std::back_inserter(out), "  Send lag (generator): p50 {}, p99 {}, p99.9 {}\n", at(50),
                at(99), at(99.9));
            const std::string warning = generatorLagWarning(result);
            if (!warning.empty()) fmt::format_to(std::back_inserter(out), "  Warning: {}\n", warning);
        }
    }
    const ErrorCounts& errors = result.errors;
    if (errors.socketErrors() > 0) {
        fmt::format_to(std::back_inserter(out), "  Socket errors: connect {}, read {}, write {}, timeout {}\n",
            errors.connect, errors.read, errors.write, errors.timeout);
    }
    if (const uint64_t non2xx = result.status.non2xx(); non2xx > 0)
        fmt::format_to(std::back_inserter(out), "  Non-2xx or 3xx responses: {}\n", non2xx);

    // wrkbench's own lines: after wrk's error lines so parsers that stop at
    // "Requests/sec" still see every wrk line in its usual place.
    if (errors.tls > 0) {
        fmt::format_to(std::back_inserter(out), "  TLS errors: {}", errors.tls);
        if (!result.firstTlsError.empty())
            fmt::format_to(std::back_inserter(out), " (first: {})", result.firstTlsError);
        out += '\n';
    }
    if (errors.parse > 0) fmt::format_to(std::back_inserter(out), "  Parse errors: {}\n", errors.parse);
    if (errors.stream > 0) fmt::format_to(std::back_inserter(out), "  Stream resets: {}\n", errors.stream);
    if (result.serverStreamLimit > 0)
        fmt::format_to(std::back_inserter(out),
            "  The server allowed {} concurrent streams per connection (asked {})\n", result.serverStreamLimit,
            result.config.streams);
    if (result.connections.hpackTableKept > 0)
        fmt::format_to(
            std::back_inserter(out), "  {}\n", hpackTableNote(result.connections, result.config.headerTableBytes));
    if (result.reconnects > 0)
        fmt::format_to(std::back_inserter(out), "  Reconnects after {}: {}\n",
            result.quic.empty() ? "GOAWAY" : "the server ended the connection", result.reconnects);
    if (!result.quic.empty()) appendQuic(out, result.quic);
    if (result.warmupRequests > 0)
        fmt::format_to(std::back_inserter(out), "  {} warm-up requests before the measurement (in no figure here)\n",
            result.warmupRequests);
    // -n that the duration cut short: the count asked is not what was measured.
    if (result.config.responses > 0 && result.requests < result.config.responses && !result.stoppedEarly)
        fmt::format_to(std::back_inserter(out),
            "  Warning: the run reached its duration ({}) before its {} responses (--responses)\n",
            formatTimeUs(static_cast<double>(result.config.durationUs)), result.config.responses);
    // The loader's own cost: in the detailed report always, and as a warning whenever the loader
    // had no CPU to spare (before wrk's Requests/sec, among wrkbench's own lines).
    if (options.latencyDistribution && result.loaderCost.measured())
        fmt::format_to(std::back_inserter(out), "  Loader: {}\n", describeLoaderCost(result.loaderCost));
    if (const std::string warning = loaderSaturationWarning(result); !warning.empty())
        fmt::format_to(std::back_inserter(out), "  Warning: {}\n", warning);
    if (result.status.total() > 0 && (options.latencyDistribution || result.status.non2xx() > 0))
        fmt::format_to(std::back_inserter(out), "  Status codes: {}\n", statusCodeList(result.status));
    if (!result.config.mix.empty()) appendMixEntries(out, result);

    fmt::format_to(std::back_inserter(out), "Requests/sec: {:9.2f}\n", result.requestsPerS());
    fmt::format_to(std::back_inserter(out), "Transfer/sec: {:>10}B\n", formatBinary(result.bytesPerS()));
    if (!result.loaders.empty()) appendLoaders(out, result.loaders);
    appendBehindTheFrontDoor(out, result);
    // The verdicts last, after every wrk line, so a pipeline's log ends with them.
    if (!result.sloAbortedBy.empty())
        fmt::format_to(std::back_inserter(out), "SLO abort: stopped after {}: the budget {} was spent\n",
            formatTimeUs(result.durationS * 1e6), result.sloAbortedBy);
    for (const SloVerdict& v : result.slo)
        out += formatSloLine(v) + '\n';
    return out;
}

} // namespace wb
