#include "servecommand.h"

#include "cliparse.h"
#include "exitcode.h"
#include "parse/quantity.h"
#include "run/filelimit.h"
#include "serve/targetserver.h"

#include <CLI/CLI.hpp>
#include <csignal>
#include <ctime>
#include <iostream>
#include <tuple>

namespace wb::cli {

void addServeCommand(CLI::App& app, ServeArgs& a)
{
    CLI::App* serve = app.add_subcommand("serve", "Run the built-in HTTP/1.1 target server (loopback by default)");
    serve->add_option("--bind", a.bind, "Address to listen on (default 127.0.0.1)");
    serve->add_option("-p,--port", a.port, "Port (default 8080; 0 picks a free one)");
    serve->add_option("--threads", a.threads, "Server threads (default 1)")->check(CLI::Range(1u, 256u));
    serve->add_option("--delay", a.delayMs, "Answer every request after this many milliseconds");
    serve->add_option("--body-size", a.bodySize, "Answer bodies of this many bytes instead of the text");
    serve->add_option("--text", a.text, "Body text (default: the host name)");
    serve->add_option("--duration", a.duration, "Stop after this long (default: until Ctrl-C)");
    serve->add_option("--stall-every", a.stallEvery, "Stall periodically: the period (e.g. 5s)");
    serve->add_option("--stall-for", a.stallFor, "Stall length: hold every answer this long at the end of each period");
    serve
        ->add_option("--backends", a.backends,
            "Answer as N named backends behind one front door: the body is 'backend-<i>' (as serve_hostname "
            "answers), for --backend-from body")
        ->check(CLI::Range(1u, 4096u));
    serve
        ->add_option(
            "--spread", a.spread, "--backends: even (in turn, the default) or skewed (backend i weighted N - i)")
        ->check(CLI::IsMember({ "even", "skewed" }));
    serve->add_flag("--upstream-time-header", a.upstreamTimeHeader,
        "Add x-envoy-upstream-service-time (the --delay in ms) to every answer, as Envoy states its upstream's time");
    serve->add_option("--capacity", a.capacity,
        "Admit N requests/s over all threads (N or N/s; a 10 ms burst allowed); beyond it answer 503 at once, the "
        "connection kept (a capacity known in advance, for 'capacity')");
    serve->add_flag("--queue", a.queue,
        "--capacity: hold the excess and answer it in turn, late (up to 30 s), instead of 503: a latency SLO breaks");
}

namespace {

/// "1500", "1.5k" or "1500/s": requests per second above 0.
Result<double> parseCapacity(const std::string& text)
{
    std::string number = text;
    if (number.size() > 2 && number.compare(number.size() - 2, 2, "/s") == 0) number.resize(number.size() - 2);
    auto n = parseCount(number);
    if (!n) return Error { n.error() };
    if (*n == 0 || *n > 100'000'000) return Error { "'" + text + "': give 1 to 100M requests per second" };
    return static_cast<double>(*n);
}

} // namespace

int serveCommand(const ServeArgs& a)
{
    uint64_t durationUs = 0;
    if (!a.duration.empty()) {
        auto d = parseDurationUs(a.duration);
        if (!d) {
            printError("duration: " + d.error());
            return EXIT_USAGE;
        }
        durationUs = *d;
    }
    uint64_t stallEveryUs = 0, stallForUs = 0;
    for (auto [text, out, name] : { std::tuple { &a.stallEvery, &stallEveryUs, "stall-every" },
             std::tuple { &a.stallFor, &stallForUs, "stall-for" } }) {
        if (text->empty()) continue;
        auto d = parseDurationUs(*text);
        if (!d) {
            printError(std::string(name) + ": " + d.error());
            return EXIT_USAGE;
        }
        *out = *d;
    }
    if ((stallEveryUs == 0) != (stallForUs == 0) || stallForUs > stallEveryUs) {
        printError("--stall-every and --stall-for go together, and the stall must be shorter than its period");
        return EXIT_USAGE;
    }
    double capacityPerS = 0;
    if (!a.capacity.empty()) {
        auto rate = parseCapacity(a.capacity);
        if (!rate) {
            printError("--capacity: " + rate.error());
            return EXIT_USAGE;
        }
        capacityPerS = *rate;
    }
    if (a.queue && capacityPerS == 0) {
        printError("--queue goes with --capacity N: it queues what is beyond that rate");
        return EXIT_USAGE;
    }
    // Block the stop signals before any thread starts so only sigtimedwait sees them.
    sigset_t stopSignals;
    sigemptyset(&stopSignals);
    sigaddset(&stopSignals, SIGINT);
    sigaddset(&stopSignals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stopSignals, nullptr);

    // A stand-in for thousands of connections (-c10000) needs as many descriptors: raise the soft
    // limit to the hard one, as a run does (connections beyond it wait in the listen queue).
    (void)ensureFileDescriptors(0, a.threads);

    TargetServerOptions options;
    options.bindAddress = a.bind;
    options.port = a.port;
    options.threads = a.threads;
    options.delayUs = a.delayMs * 1000;
    options.bodySize = a.bodySize;
    options.text = a.text;
    options.stallEveryUs = stallEveryUs;
    options.stallForUs = stallForUs;
    options.backends = a.backends;
    options.skewedBackends = a.spread == "skewed";
    options.upstreamTimeHeader = a.upstreamTimeHeader;
    options.capacityPerS = capacityPerS;
    options.capacityQueue = a.queue;
    TargetServer server(options);
    if (auto st = server.start(); !st) {
        printError(st.error());
        return EXIT_FAILED;
    }
    const bool v6 = a.bind.find(':') != std::string::npos;
    std::cout << "wrkbench target server listening on http://" << (v6 ? "[" + a.bind + "]" : a.bind) << ":"
              << server.port() << "/ (" << a.threads << " thread" << (a.threads == 1 ? "" : "s") << ")";
    if (capacityPerS > 0)
        std::cout << ", admitting " << a.capacity << (a.capacity.find('/') == std::string::npos ? " requests/s" : "")
                  << (a.queue ? ", the excess queued" : ", the excess refused with 503");
    std::cout << "; Ctrl-C stops" << std::endl;

    timespec wait {};
    wait.tv_sec = static_cast<time_t>(durationUs / 1'000'000);
    wait.tv_nsec = static_cast<long>(durationUs % 1'000'000) * 1000;
    for (;;) {
        const int sig = durationUs ? sigtimedwait(&stopSignals, nullptr, &wait) : sigwaitinfo(&stopSignals, nullptr);
        if (sig > 0 || (sig < 0 && errno == EAGAIN)) break;
    }
    server.stop();
    std::cout << "served " << server.requestsServed() << " requests" << std::endl;
    return EXIT_OK;
}

} // namespace wb::cli
