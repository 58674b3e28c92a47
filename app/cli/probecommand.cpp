#include "probecommand.h"

#include "cliparse.h"
#include "common/jsontext.h"
#include "exitcode.h"
#include "parse/quantity.h"
#include "probe/probe.h"
#include "probe/probetext.h"

#include <CLI/CLI.hpp>
#include <iostream>
#include <nlohmann/json.hpp>
#include <tuple>

namespace wb::cli {

namespace {

constexpr uint64_t MAX_REPEAT = 1000;

Result<ProbeOptions> toOptions(const ProbeArgs& a)
{
    ProbeOptions o;
    auto url = parseUrl(a.url);
    if (!url) return Error { url.error() };
    o.request.url = *url;
    o.request.method = a.method;
    o.request.body = a.body;
    for (const auto& text : a.headers) {
        auto header = parseHeader(text);
        if (!header) return Error { header.error() };
        o.request.headers.push_back(*header);
    }
    for (auto [text, out, name] : { std::tuple { &a.timeout, &o.timeoutUs, "timeout" },
             std::tuple { &a.connectTimeout, &o.connectTimeoutUs, "connect timeout" } }) {
        auto us = parseDurationUs(*text);
        if (!us) return Error { std::string(name) + ": " + us.error() };
        if (*us == 0) return Error { std::string(name) + " must be greater than zero" };
        *out = *us;
    }
    o.tls.verifyPeer = !a.insecure;
    o.tls.caFile = a.caFile;
    o.followRedirects = a.followRedirects;
    o.allowHttp2 = a.http2;
    return o;
}

} // namespace

void addProbeCommand(CLI::App& app, ProbeArgs& a)
{
    CLI::App* probe = app.add_subcommand("probe",
        "Send one request and show where its time goes (DNS, connect, TLS, "
        "first byte), with the TLS certificates and the response");
    probe->add_option("url", a.url, "Target URL (http:// or https://)")->required();
    probe->add_option("-X,--method", a.method, "HTTP method (default GET)");
    probe->add_option("-H,--header", a.headers, "Add header to request, \"Name: value\" (repeatable)");
    probe->add_option("--body", a.body, "Request body");
    probe->add_option("--cacert", a.caFile, "Trust the CA certificates in this PEM file");
    probe->add_flag("-k,--insecure", a.insecure, "Do not verify the server certificate");
    probe->add_option("--repeat", a.repeat, "Probe N times, each on a fresh connection: min/median/max per phase");
    probe->add_flag("--json", a.json, "Print the result as JSON (every field) instead of the waterfall");
    probe->add_option("--timeout", a.timeout, "Limit for the whole request (default 5s)");
    probe->add_option("--connect-timeout", a.connectTimeout, "Limit for DNS, connect and TLS handshake (default 5s)");
    probe->add_flag("-L,--location", a.followRedirects, "Follow redirects (they are shown either way)");
    probe->add_flag("--http2", a.http2, "Offer HTTP/2 in ALPN (the load engine speaks HTTP/1.1)");
}

int probeCommand(const ProbeArgs& a)
{
    auto options = toOptions(a);
    if (!options) {
        printError(options.error());
        return EXIT_USAGE;
    }
    auto count = parseCount(a.repeat);
    if (!count || *count == 0 || *count > MAX_REPEAT) {
        printError("repeat: expected a number from 1 to " + std::to_string(MAX_REPEAT) + ", got '" + a.repeat + "'");
        return EXIT_USAGE;
    }
    auto probes = probeRepeated(*options, static_cast<unsigned>(*count));
    if (!probes) {
        printError(probes.error());
        return EXIT_FAILED;
    }
    if (a.json) {
        nlohmann::ordered_json out;
        if (probes->size() == 1) {
            out = probes->front().toJson();
        } else {
            out["count"] = probes->size();
            out["probes"] = nlohmann::ordered_json::array();
            for (const auto& p : *probes)
                out["probes"].push_back(p.toJson());
            out["summary"] = summarize(*probes).toJson();
        }
        std::cout << jsonText(out, 2) << std::endl;
    } else {
        std::cout << (probes->size() == 1 ? formatProbeText(probes->front()) : formatProbeSummaryText(*probes))
                  << std::flush;
    }
    return EXIT_OK;
}

} // namespace wb::cli
