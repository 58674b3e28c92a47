#include "nginx.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <string>
#include <sys/resource.h>
#include <thread>
#include <unistd.h>

namespace wb::test {

// How long nginx may take to listen: generous, since a busy machine (another process
// holding a core, a sanitizer build next door) can delay its start by seconds. Only
// a broken start waits this long; it is a deadline, not a measurement.
static constexpr int START_TIMEOUT_MS = 30'000;

// nginx inherits this process's file limit and accepts only as many connections as
// it allows; the soft limit is often 1024, fewer than some tests open (nginx then
// leaves them in the accept queue, where they time out). Raised to the hard limit,
// as the engine does for itself.
static void raiseFileLimitForChildren()
{
    rlimit limit {};
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur >= limit.rlim_max) return;
    rlimit raised = limit;
    raised.rlim_cur = limit.rlim_max;
    (void)setrlimit(RLIMIT_NOFILE, &raised);
}

static std::string nginxBinary()
{
    for (const char* p : { "/usr/sbin/nginx", "/usr/bin/nginx" })
        if (::access(p, X_OK) == 0) return p;
    return {};
}

NginxOptions tlsOptions(const TestCertificates& certs, unsigned workerConnections)
{
    NginxOptions options;
    options.certFile = certs.serverCert;
    options.keyFile = certs.serverKey;
    options.workerConnections = workerConnections;
    return options;
}

bool Nginx::available()
{
    return !nginxBinary().empty();
}

Nginx::~Nginx()
{
    stop();
}

bool Nginx::start(const NginxOptions& options)
{
    const std::string binary = nginxBinary();
    if (binary.empty()) return false;
    const std::string& dir = m_dir.path();
    std::filesystem::create_directories(dir + "/html");
    std::filesystem::create_directories(dir + "/logs");
    writeFile(dir + "/html/big", std::string(256 * 1024, 'x'));
    m_port = freeTcpPort();
    const bool tls = !options.certFile.empty() && !options.keyFile.empty();
    if (tls) m_tlsPort = freeTcpPort();
    if (options.reverseProxy) m_proxyPort = freeTcpPort();
    if (options.http2) m_h2cPort = freeTcpPort();
    if (options.http2 && tls) m_h2Port = freeTcpPort();

    std::string locations = R"(
        location = / { default_type text/plain; return 200 "hello from nginx\n"; }
        location = /close { keepalive_timeout 0; default_type text/plain; return 200 "bye\n"; }
        location = /big { root )"
        + dir + R"(/html; default_type application/octet-stream; }
        location = /mixed { if ($request_id ~ [0-7]$) { return 503; } default_type text/plain; return 200 "ok\n"; }
        location = /status/500 { return 500; }
        location = /authenticate { add_header X-Token "token-from-nginx"; default_type text/plain; return 200 "ok\n"; }
        location /mix/ { default_type text/plain; return 200 "mix $request_method $uri\n"; }
        location / { return 404; }
)";
    std::string limitZones;
    std::string limitedLocations;
    if (!options.limitedRates.empty()) writeFile(dir + "/html/small", "ok\n");
    for (unsigned rate : options.limitedRates) {
        const std::string n = std::to_string(rate);
        limitZones += "  limit_req_zone $server_port zone=limited" + n + ":1m rate=" + n + "r/s;\n";
        limitedLocations += "    location = /limited/" + n + " { limit_req zone=limited" + n
            + " burst=" + std::to_string(std::max(1u, rate / 100))
            + " nodelay; limit_req_status 503; default_type text/plain; alias " + dir + "/html/small; }\n";
    }
    std::string conf = "worker_processes 1;\n"
                       "daemon off;\n"
                       "master_process off;\n"
                       "pid "
        + dir + "/nginx.pid;\n" + "error_log " + dir + "/logs/error.log warn;\n" + "events { worker_connections "
        + std::to_string(options.workerConnections) + "; }\n" + "http {\n  access_log off;\n"
        + "  client_body_temp_path " + dir + "/cbt; proxy_temp_path " + dir + "/pt; fastcgi_temp_path " + dir
        + "/ft; uwsgi_temp_path " + dir + "/ut; scgi_temp_path " + dir + "/st;\n" + "  keepalive_requests 1000000;\n"
        + "  log_format tls_resumption '$ssl_protocol $ssl_session_reused';\n"
        + "  log_format protocol_status '$server_protocol $status';\n"
        + "  log_format method_uri_status '$request_method $request_uri $status';\n"
        + "  log_format client '$request_method $request_uri $status $http_host $pipe $http_x_counter $http_x_token';\n"
        + "  log_format request_body '$request_body';\n" + "  log_format server_addr '$server_addr';\n" + limitZones
        + "  server {\n    listen 127.0.0.1:" + std::to_string(m_port) + " backlog=4096;\n" + limitedLocations
        + (options.secondAddress ? "    listen 127.0.0.2:" + std::to_string(m_port) + " backlog=4096;\n    access_log "
                    + dir + "/logs/address.log server_addr;\n"
                                 : std::string())
        + (options.requestLog ? "    access_log " + dir + "/logs/access.log method_uri_status;\n" : std::string())
        + (options.clientLog ? "    access_log " + dir + "/logs/client.log client;\n" : std::string())
        // nginx reads a body (and fills $request_body) only for a location that passes it on:
        // /body hands it to /mix/ of the same server, which answers 200.
        + (options.bodyLog ? "    location = /body { access_log " + dir + "/logs/body.log request_body; "
                    + (options.clientLog ? "access_log " + dir + "/logs/client.log client; " : std::string())
                    + "proxy_pass http://127.0.0.1:" + std::to_string(m_port) + "/mix/body; }\n"
                           : std::string())
        + locations + "  }\n";
    if (tls) {
        // Also on 127.0.0.2, an address the certificate does not name (host name checks).
        conf += "  server {\n    listen 127.0.0.1:" + std::to_string(m_tlsPort) + " ssl backlog=4096;\n"
            + "    listen 127.0.0.2:" + std::to_string(m_tlsPort) + " ssl;\n" + "    ssl_certificate "
            + options.certFile + ";\n    ssl_certificate_key " + options.keyFile + ";\n"
            + "    ssl_session_cache shared:SSL:1m;\n" + "    access_log " + dir
            + "/logs/tls_access.log tls_resumption;\n" + locations + "  }\n";
    }
    if (options.http2) {
        // nginx 1.22: "listen ... http2" (a plain port speaks h2c with prior knowledge only).
        std::string h2 = "    http2_max_concurrent_streams " + std::to_string(options.maxConcurrentStreams) + ";\n"
            + "    access_log " + dir + "/logs/h2_access.log protocol_status;\n" + "    location = /slow { alias " + dir
            + "/html/big; limit_rate 16k; default_type text/plain; }\n" + locations;
        conf += "  server {\n    listen 127.0.0.1:" + std::to_string(m_h2cPort) + " http2 backlog=4096;\n" + h2
            + "  }\n";
        if (tls)
            conf += "  server {\n    listen 127.0.0.1:" + std::to_string(m_h2Port) + " ssl http2 backlog=4096;\n"
                + "    ssl_certificate " + options.certFile + ";\n    ssl_certificate_key " + options.keyFile + ";\n"
                + h2 + "  }\n";
    }
    if (options.reverseProxy) {
        // HTTP/1.1 with the Connection header cleared, so the upstream connections are kept alive.
        conf += "  upstream direct { server 127.0.0.1:" + std::to_string(m_port) + "; keepalive 64; }\n"
            + "  server {\n    listen 127.0.0.1:" + std::to_string(m_proxyPort) + " backlog=4096;\n";
        // nginx waits after each write for its share of the rate, but not after
        // the last one: writes of at most 16 KiB make the whole answer wait.
        if (!options.proxyLimitRate.empty())
            conf += "    limit_rate " + options.proxyLimitRate + ";\n    sendfile_max_chunk 16k;\n";
        conf += "    location / { proxy_pass http://direct; proxy_http_version 1.1; proxy_set_header Connection \"\"; "
                "}\n"
                "  }\n";
    }
    if (!options.balancedUpstreams.empty()) {
        m_balancerPort = freeTcpPort();
        // $upstream_response_time is "-" while the headers are sent (nginx sets it when the
        // upstream's answer is finished, after it forwarded the header): the header carries
        // $upstream_header_time, which the built-in servers' delays hold as long.
        conf += "  log_format balanced '$upstream_addr $upstream_header_time $status';\n"
                "  upstream balanced {\n";
        for (const auto& [port, weight] : options.balancedUpstreams)
            conf += "    server 127.0.0.1:" + std::to_string(port) + " weight=" + std::to_string(weight) + ";\n";
        conf += "    keepalive 64;\n  }\n  server {\n    listen 127.0.0.1:" + std::to_string(m_balancerPort)
            + " backlog=4096;\n    access_log " + dir + "/logs/balancer.log balanced;\n"
            + "    location / { proxy_pass http://balanced; proxy_http_version 1.1; proxy_set_header Connection \"\"; "
              "add_header X-Upstream-Time $upstream_header_time always; }\n  }\n";
    }
    conf += "}\n";
    writeFile(dir + "/nginx.conf", conf);

    raiseFileLimitForChildren();
    if (!m_process.start(
            { binary, "-p", dir, "-c", dir + "/nginx.conf", "-e", dir + "/logs/error.log" }, dir + "/logs/stdout.log"))
        return false;
    if (!waitForPort("127.0.0.1", m_port, START_TIMEOUT_MS)) return false;
    if (options.reverseProxy && !waitForPort("127.0.0.1", m_proxyPort, START_TIMEOUT_MS)) return false;
    if (m_balancerPort && !waitForPort("127.0.0.1", m_balancerPort, START_TIMEOUT_MS)) return false;
    if (m_h2cPort && !waitForPort("127.0.0.1", m_h2cPort, START_TIMEOUT_MS)) return false;
    if (m_h2Port && !waitForPort("127.0.0.1", m_h2Port, START_TIMEOUT_MS)) return false;
    return !tls || waitForPort("127.0.0.1", m_tlsPort, START_TIMEOUT_MS);
}

std::vector<std::string> Nginx::bodyLog() const
{
    // nginx's default log escaping writes '"', '\\' and bytes outside 0x20..0x7e as \xHH.
    std::vector<std::string> bodies;
    const std::string text = readFile(m_dir.path() + "/logs/body.log");
    std::string body;
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\n') {
            bodies.push_back(body);
            body.clear();
        } else if (text[i] == '\\' && i + 3 < text.size() && text[i + 1] == 'x') {
            body.push_back(static_cast<char>(std::stoi(text.substr(i + 2, 2), nullptr, 16)));
            i += 3;
        } else {
            body.push_back(text[i]);
        }
    }
    return bodies;
}

std::string Nginx::requestLog() const
{
    return readFile(m_dir.path() + "/logs/access.log");
}

std::vector<std::string> Nginx::requestLines(size_t atLeast, size_t skip) const
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(scaledMs(5'000));
    for (;;) {
        std::vector<std::string> lines = splitLines(requestLog());
        lines.erase(lines.begin(), lines.begin() + static_cast<long>(std::min(skip, lines.size())));
        if (lines.size() >= atLeast || std::chrono::steady_clock::now() >= deadline) return lines;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

std::string Nginx::clientLog() const
{
    return readFile(m_dir.path() + "/logs/client.log");
}

std::string Nginx::addressLog() const
{
    return readFile(m_dir.path() + "/logs/address.log");
}

std::string Nginx::balancerLog() const
{
    return readFile(m_dir.path() + "/logs/balancer.log");
}

std::string Nginx::http2AccessLog() const
{
    return readFile(m_dir.path() + "/logs/h2_access.log");
}

void Nginx::stop()
{
    if (m_process.running() && m_process.signalAndWait(SIGQUIT, 3000) == -1) m_process.signalAndWait(SIGKILL, 3000);
}

std::string Nginx::tlsAccessLog() const
{
    return readFile(m_dir.path() + "/logs/tls_access.log");
}

std::string Nginx::log() const
{
    return readFile(m_dir.path() + "/logs/error.log");
}

} // namespace wb::test
