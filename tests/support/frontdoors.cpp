#include "frontdoors.h"

#include "quicpeers.h"

#include <csignal>
#include <filesystem>
#include <pwd.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace wb::test {

namespace {

// Each server ends by itself after this long, whatever happens to the test.
constexpr const char* SERVER_DEADLINE_S = "600";

struct Program
{
    FrontDoorKind kind;
    const char* name;
    const char* binary;
};

constexpr Program PROGRAMS[] = {
    { FrontDoorKind::Nginx, "nginx", "/usr/sbin/nginx" },
    { FrontDoorKind::Haproxy, "haproxy", "/usr/sbin/haproxy" },
    { FrontDoorKind::H2o, "h2o", "/usr/bin/h2o" },
    { FrontDoorKind::Apache, "apache2", "/usr/sbin/apache2" },
    { FrontDoorKind::Nghttpx, "nghttpx", "/usr/sbin/nghttpx" },
    { FrontDoorKind::Caddy, "caddy", "/usr/bin/caddy" },
};

const Program& programOf(FrontDoorKind kind)
{
    for (const Program& p : PROGRAMS)
        if (p.kind == kind) return p;
    return PROGRAMS[0];
}

std::string str(uint16_t port)
{
    return std::to_string(port);
}

// The origin behind the two proxies, and nginx as a front door itself: one line per request,
// "<protocol> <status>" (nginx writes HTTP/1.1 and HTTP/2.0).
std::string nginxConfig(const std::string& dir, const std::string& listens, const std::string& certs)
{
    return "daemon off;\nmaster_process off;\nworker_processes 1;\npid " + dir + "/nginx.pid;\nerror_log " + dir
        + "/error.log warn;\nevents { worker_connections 4096; }\nhttp {\n"
          "  log_format wb '$server_protocol $status $connection $remote_addr';\n  access_log "
        + dir + "/access.log wb;\n  client_body_temp_path " + dir + "/cbt; proxy_temp_path " + dir
        + "/pt; fastcgi_temp_path " + dir + "/ft; uwsgi_temp_path " + dir + "/ut; scgi_temp_path " + dir
        + "/st;\n"
          // nginx closes a connection after 1,000 requests by default (GOAWAY on HTTP/2): a
          // limit of its own that the matrix is not about.
          "  keepalive_requests 10000000;\n  keepalive_timeout 75s;\n  client_max_body_size 64m;\n"
          "  default_type application/octet-stream;\n  server {\n"
        + listens + certs + "    root " + dir + "/www;\n    location = /post { return 200 \"ok\\n\"; }\n  }\n}\n";
}

} // namespace

const char* frontDoorName(FrontDoorKind kind)
{
    return programOf(kind).name;
}

std::vector<FrontDoorKind> allFrontDoors()
{
    std::vector<FrontDoorKind> all;
    for (const Program& p : PROGRAMS)
        all.push_back(p.kind);
    return all;
}

const char* wireName(Wire wire)
{
    switch (wire) {
    case Wire::Http1:
        return "h1";
    case Wire::Http1Tls:
        return "h1-tls";
    case Wire::H2:
        return "h2";
    case Wire::H2c:
        return "h2c";
    case Wire::H3:
        return "h3";
    }
    return "?";
}

const char* loggedProtocol(Wire wire)
{
    switch (wire) {
    case Wire::Http1:
    case Wire::Http1Tls:
        return "http/1.1";
    case Wire::H2:
    case Wire::H2c:
        return "h2";
    case Wire::H3:
        return "h3";
    }
    return "?";
}

FrontDoor::FrontDoor(FrontDoorKind kind)
    : m_kind(kind)
{ }

FrontDoor::~FrontDoor()
{
    stop();
}

bool FrontDoor::available(FrontDoorKind kind, std::string& why)
{
    const Program& p = programOf(kind);
    if (::access(p.binary, X_OK) != 0) {
        why = std::string(p.binary) + " is not installed (packaging/install-deps.sh installs it)";
        return false;
    }
    if (kind == FrontDoorKind::Apache && !::getpwnam("www-data")) {
        why = "apache2 runs its workers as www-data, and there is no such user";
        return false;
    }
    return true;
}

bool FrontDoor::start(const TestCertificates& certs)
{
    // A port free a moment ago may be taken by the time the server binds it (other tests pick
    // ports too): a server that does not come up is started again on other ports.
    for (int attempt = 0; attempt < 3; ++attempt) {
        if (startOnce(certs)) return true;
        stop();
    }
    return false;
}

bool FrontDoor::startOnce(const TestCertificates& certs)
{
    const std::string& dir = m_dir.path();
    // apache2's workers run as www-data (it refuses root): they must reach the site.
    ::chmod(dir.c_str(), 0755);
    std::filesystem::create_directories(dir + "/www");
    std::filesystem::create_directories(dir + "/origin");
    writeFile(dir + "/www/index.html", "hello\n");
    std::string big(1024 * 1024, '\0');
    for (size_t i = 0; i < big.size(); ++i)
        big[i] = static_cast<char>('a' + (i * 7919) % 26);
    writeFile(dir + "/www/big", big);
    writeFile(dir + "/www/post", "ok\n");
    for (const char* f : { "/www", "/www/index.html", "/www/big", "/www/post" })
        ::chmod((dir + f).c_str(), f == std::string("/www") ? 0755 : 0644);

    m_plainPort = freeTcpPort();
    m_tlsPort = m_kind == FrontDoorKind::Caddy ? freeUdpPort() : freeTcpPort();
    m_h2cPort = m_kind == FrontDoorKind::Nginx ? freeTcpPort() : m_plainPort;
    const std::string plain = str(m_plainPort);
    const std::string tls = str(m_tlsPort);
    const std::string logPath = dir + "/process.log";
    auto timed = [](std::vector<std::string> argv) {
        argv.insert(argv.begin(), { "timeout", SERVER_DEADLINE_S });
        return argv;
    };

    if (m_kind == FrontDoorKind::Haproxy || m_kind == FrontDoorKind::Nghttpx) {
        m_originPort = freeTcpPort();
        const std::string originDir = dir + "/origin";
        std::filesystem::create_directories(originDir + "/www");
        std::filesystem::copy(dir + "/www", originDir + "/www",
            std::filesystem::copy_options::recursive | std::filesystem::copy_options::overwrite_existing);
        writeFile(originDir + "/nginx.conf",
            nginxConfig(originDir, "    listen 127.0.0.1:" + str(m_originPort) + " backlog=4096;\n", ""));
        if (!m_origin.start(
                timed({ "nginx", "-c", originDir + "/nginx.conf", "-p", originDir }), originDir + "/process.log")
            || !waitForPort("127.0.0.1", m_originPort, scaledMs(10'000)))
            return false;
    }

    switch (m_kind) {
    case FrontDoorKind::Nginx: {
        // nginx 1.22 serves h2c with prior knowledge only on a port of its own (no HTTP/1.1 there).
        const std::string listens = "    listen 127.0.0.1:" + plain + " backlog=4096;\n    listen 127.0.0.1:" + tls
            + " ssl http2 backlog=4096;\n    listen 127.0.0.1:" + str(m_h2cPort) + " http2 backlog=4096;\n";
        writeFile(dir + "/nginx.conf",
            nginxConfig(dir, listens,
                "    ssl_certificate " + certs.serverCert + ";\n    ssl_certificate_key " + certs.serverKey + ";\n"));
        if (!m_process.start(timed({ "nginx", "-c", dir + "/nginx.conf", "-p", dir }), logPath)) return false;
        break;
    }
    case FrontDoorKind::Haproxy: {
        // One thread: with several, haproxy drops log lines when two threads log at once. Its
        // log goes to stdout, one line per request. An h2 preface is recognised on the plain bind.
        writeFile(dir + "/combined.pem", readFile(certs.serverCert) + readFile(certs.serverKey));
        writeFile(dir + "/haproxy.cfg",
            "global\n    log stdout format raw local0 info\n    nbthread 1\n    maxconn 4096\n"
            "defaults\n    mode http\n    log global\n    log-format \"%HV %ST\"\n    option http-keep-alive\n"
            "    option dontlognull\n    timeout connect 5s\n    timeout client 30s\n    timeout server 30s\n"
            "    timeout http-keep-alive 30s\n    timeout http-request 10s\n"
            "frontend fe\n    bind 127.0.0.1:"
                + plain + "\n    bind 127.0.0.1:" + tls + " ssl crt " + dir
                + "/combined.pem alpn h2,http/1.1\n    default_backend origin\n"
                  "backend origin\n    http-reuse always\n    server origin 127.0.0.1:"
                + str(m_originPort) + " maxconn 512\n");
        if (!m_process.start(timed({ "haproxy", "-f", dir + "/haproxy.cfg", "-db" }), logPath)) return false;
        break;
    }
    case FrontDoorKind::H2o: {
        writeFile(dir + "/h2o.conf",
            "user: root\npid-file: " + dir + "/h2o.pid\nerror-log: " + dir
                + "/error.log\nnum-threads: 1\naccess-log:\n  path: " + dir
                + "/access.log\n  format: '%H %s'\nhttp2-max-concurrent-requests-per-connection: 100\n"
                  "listen:\n  host: 127.0.0.1\n  port: "
                + plain + "\nlisten:\n  host: 127.0.0.1\n  port: " + tls
                + "\n  ssl:\n    certificate-file: " + certs.serverCert + "\n    key-file: " + certs.serverKey
                + "\n    ocsp-update-interval: 0\nhosts:\n  default:\n    paths:\n      /post:\n"
                  "        mruby.handler: |\n          Proc.new do |env|\n"
                  "            [200, {\"content-type\" => \"text/plain\"}, [\"ok\\n\"]]\n          end\n"
                  "      /:\n        file.dir: "
                + dir + "/www\n");
        if (!m_process.start(timed({ "h2o", "-c", dir + "/h2o.conf" }), logPath)) return false;
        break;
    }
    case FrontDoorKind::Apache: {
        // mod_http2 on both ports: h2c with prior knowledge beside HTTP/1.1 (H2Direct), h2 by ALPN.
        // No limit of requests per connection (its default closes HTTP/1.1 ones after 100).
        std::string modules;
        for (const char* m : { "mpm_event", "authz_core", "mime", "dir", "socache_shmcb", "ssl", "http2" })
            modules += std::string("LoadModule ") + m + "_module /usr/lib/apache2/modules/mod_" + m + ".so\n";
        writeFile(dir + "/apache2.conf",
            "ServerRoot \"" + dir + "\"\nDefaultRuntimeDir \"" + dir + "\"\nPidFile \"" + dir
                + "/apache2.pid\"\nMutex file:" + dir + " default\nServerName localhost\n" + modules
                + "User www-data\nGroup www-data\nStartServers 1\nServerLimit 1\nThreadsPerChild 64\n"
                  "MaxRequestWorkers 64\nMinSpareThreads 16\nMaxSpareThreads 64\nThreadLimit 64\n"
                  "KeepAlive On\nMaxKeepAliveRequests 0\nKeepAliveTimeout 30\nListen 127.0.0.1:"
                + plain + "\nListen 127.0.0.1:" + tls + " https\nErrorLog \"" + dir
                + "/error.log\"\nLogLevel warn\nLogFormat \"%H %>s\" wb\nCustomLog \"" + dir
                + "/access.log\" wb\nTypesConfig /etc/mime.types\nDocumentRoot \"" + dir
                + "/www\"\nDirectoryIndex index.html\n<Directory />\n    Require all denied\n</Directory>\n"
                  "<Directory \""
                + dir
                + "/www\">\n    Require all granted\n</Directory>\nProtocols h2 h2c http/1.1\nH2Direct on\n"
                  "SSLSessionCache \"shmcb:"
                + dir + "/ssl_scache(512000)\"\n<VirtualHost 127.0.0.1:" + tls
                + ">\n    SSLEngine on\n    SSLCertificateFile \"" + certs.serverCert
                + "\"\n    SSLCertificateKeyFile \"" + certs.serverKey
                + "\"\n    Protocols h2 http/1.1\n</VirtualHost>\n");
        if (!m_process.start(timed({ "apache2", "-f", dir + "/apache2.conf", "-DFOREGROUND" }), logPath)) return false;
        break;
    }
    case FrontDoorKind::Nghttpx: {
        writeFile(dir + "/nghttpx.conf",
            "frontend=127.0.0.1," + plain + ";no-tls\nfrontend=127.0.0.1," + tls + "\nbackend=127.0.0.1,"
                + str(m_originPort) + ";;proto=http/1.1\nprivate-key-file=" + certs.serverKey
                + "\ncertificate-file=" + certs.serverCert + "\nworkers=1\ndaemon=no\npid-file=" + dir
                + "/nghttpx.pid\nerrorlog-file=" + dir + "/error.log\naccesslog-file=" + dir
                + "/access.log\naccesslog-format=$alpn $status\nbackend-connections-per-host=64\nno-ocsp=yes\n"
                  "no-via=yes\n");
        if (!m_process.start(timed({ "nghttpx", "--conf=" + dir + "/nghttpx.conf" }), logPath)) return false;
        break;
    }
    case FrontDoorKind::Caddy: {
        // Both names on both ports: a request whose Host matches no site gets an empty 200 and no
        // log line. HTTP/3 on the TLS port's number over UDP.
        writeFile(dir + "/Caddyfile",
            "{\n\tadmin off\n\tauto_https disable_redirects\n\tskip_install_trust\n\tstorage file_system " + dir
                + "/data\n\tservers {\n\t\tprotocols h1 h2 h2c h3\n\t}\n}\n(site) {\n\tbind 127.0.0.1\n\troot * " + dir
                + "/www\n\trespond /post \"ok\" 200\n\tfile_server\n\tlog {\n\t\toutput file " + dir
                + "/access.log {\n\t\t\troll_disabled\n\t\t}\n\t\tformat json\n\t}\n}\nhttps://localhost:" + tls
                + ", https://127.0.0.1:" + tls + " {\n\ttls " + certs.serverCert + " " + certs.serverKey
                + "\n\timport site\n}\nhttp://127.0.0.1:" + plain + ", http://localhost:" + plain
                + " {\n\timport site\n}\n");
        if (!m_process.start(timed({ "env", "HOME=" + dir, "XDG_CONFIG_HOME=" + dir, "XDG_DATA_HOME=" + dir, "caddy",
                                 "run", "--adapter", "caddyfile", "--config", dir + "/Caddyfile" }),
                logPath))
            return false;
        break;
    }
    }
    const int waitMs = scaledMs(10'000);
    for (const uint16_t port : { m_plainPort, m_tlsPort, m_h2cPort })
        if (!waitForPort("127.0.0.1", port, waitMs)) return false;
    if (m_kind == FrontDoorKind::Caddy && !waitForUdpPort(m_tlsPort, waitMs)) return false;
    // A proxy listens before its worker is ready (nghttpx: about 130 ms): one request through it
    // tells that it is, and its log line is counted like any other (tests count deltas).
    return true;
}

void FrontDoor::stop()
{
    if (m_process.running()) m_process.signalAndWait(SIGTERM, 10'000);
    if (m_origin.running()) m_origin.signalAndWait(SIGTERM, 10'000);
}

std::vector<Wire> FrontDoor::wires() const
{
    std::vector<Wire> all { Wire::Http1, Wire::Http1Tls, Wire::H2, Wire::H2c };
    if (m_kind == FrontDoorKind::Caddy) all.push_back(Wire::H3);
    return all;
}

std::string FrontDoor::url(Wire wire, const std::string& path) const
{
    switch (wire) {
    case Wire::Http1:
        return "http://127.0.0.1:" + str(m_plainPort) + path;
    case Wire::H2c:
        return "http://127.0.0.1:" + str(m_h2cPort) + path;
    case Wire::Http1Tls:
    case Wire::H2:
    case Wire::H3:
        break;
    }
    return "https://localhost:" + str(m_tlsPort) + path;
}

std::string FrontDoor::accessLog() const
{
    // haproxy logs to its stdout (with whatever it prints besides); the others to a file.
    return readFile(m_dir.file(m_kind == FrontDoorKind::Haproxy ? "process.log" : "access.log"));
}

namespace {

// The value of "key":"..." (or "key":N) in a JSON log line; "" when absent.
std::string jsonField(const std::string& line, const std::string& key)
{
    const auto at = line.find("\"" + key + "\":");
    if (at == std::string::npos) return {};
    size_t begin = at + key.size() + 3;
    if (begin < line.size() && line[begin] == '"') {
        ++begin;
        return line.substr(begin, line.find('"', begin) - begin);
    }
    const auto end = line.find_first_of(",}", begin);
    return line.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}

} // namespace

std::vector<FrontDoor::Request> FrontDoor::requests() const
{
    std::vector<Request> out;
    for (const std::string& line : splitLines(accessLog())) {
        Request r;
        if (m_kind == FrontDoorKind::Caddy) {
            // JSON: ..."request":{"remote_ip":"..","remote_port":"..","proto":"HTTP/2.0",..},..,"status":200,..
            r.protocol = jsonField(line, "proto");
            r.status = std::atoi(jsonField(line, "status").c_str());
            r.client = jsonField(line, "remote_ip");
            r.connection = r.client + ":" + jsonField(line, "remote_port");
        } else {
            // "<protocol> <status>[ <connection> <client>]": HTTP/1.1, HTTP/2.0 (nginx, apache2,
            // haproxy), HTTP/2 (h2o), or the ALPN id (nghttpx: http/1.1, h2, h2c).
            const std::vector<std::string> words = [&line] {
                std::vector<std::string> w;
                size_t begin = 0;
                while (begin < line.size()) {
                    const size_t end = std::min(line.find(' ', begin), line.size());
                    w.push_back(line.substr(begin, end - begin));
                    begin = end + 1;
                }
                return w;
            }();
            if (words.size() != 2 && words.size() != 4) continue;
            if (words[1].size() != 3) continue;
            r.protocol = words[0];
            r.status = std::atoi(words[1].c_str());
            if (words.size() == 4) {
                r.connection = words[2];
                r.client = words[3];
            }
        }
        if (r.status < 100 || r.status > 599) continue;
        if (r.protocol == "HTTP/1.1" || r.protocol == "http/1.1")
            r.protocol = "http/1.1";
        else if (r.protocol == "HTTP/2.0" || r.protocol == "HTTP/2" || r.protocol == "h2" || r.protocol == "h2c")
            r.protocol = "h2";
        else if (r.protocol == "HTTP/3.0" || r.protocol == "HTTP/3" || r.protocol == "h3")
            r.protocol = "h3";
        else
            continue;
        out.push_back(std::move(r));
    }
    return out;
}

std::map<std::pair<std::string, int>, uint64_t> FrontDoor::logged() const
{
    std::map<std::pair<std::string, int>, uint64_t> counts;
    for (const Request& r : requests())
        ++counts[{ r.protocol, r.status }];
    return counts;
}

uint64_t FrontDoor::logged(const std::string& protocol, int status) const
{
    const auto counts = logged();
    const auto it = counts.find({ protocol, status });
    return it == counts.end() ? 0 : it->second;
}

uint64_t FrontDoor::loggedTotal() const
{
    uint64_t total = 0;
    for (const auto& [key, n] : logged())
        total += n;
    return total;
}

uint64_t FrontDoor::settle(int timeoutMs) const
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(scaledMs(timeoutMs));
    uint64_t last = loggedTotal();
    int quietRounds = 0;
    while (quietRounds < 2 && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        const uint64_t now = loggedTotal();
        quietRounds = now == last ? quietRounds + 1 : 0;
        last = now;
    }
    return last;
}

std::string FrontDoor::log() const
{
    std::string out = readFile(m_dir.file("process.log"));
    out += readFile(m_dir.file("error.log"));
    if (m_origin.running() || m_originPort) out += readFile(m_dir.file("origin/error.log"));
    return out;
}

L4Balancer::~L4Balancer()
{
    stop();
}

bool L4Balancer::available(std::string& why)
{
    return FrontDoor::available(FrontDoorKind::Nginx, why) && FrontDoor::available(FrontDoorKind::Haproxy, why);
}

bool L4Balancer::start(unsigned backends)
{
    for (int attempt = 0; attempt < 3; ++attempt) {
        stop();
        const std::string& dir = m_dir.path();
        m_port = freeTcpPort();
        m_backendPorts.clear();
        std::string listens, servers;
        for (unsigned i = 0; i < backends; ++i) {
            m_backendPorts.push_back(freeTcpPort());
            listens += "    listen 127.0.0.1:" + str(m_backendPorts.back()) + " backlog=4096;\n";
            servers += "    server b" + std::to_string(i) + " 127.0.0.1:" + str(m_backendPorts.back()) + "\n";
        }
        std::filesystem::create_directories(dir + "/www");
        writeFile(dir + "/www/index.html", "hello\n");
        std::string conf = nginxConfig(dir, listens, "");
        // Each backend by the port it answered on, in its log and in a header a run can name it by.
        conf.replace(conf.find("'$server_protocol $status $connection $remote_addr'"),
            std::string("'$server_protocol $status $connection $remote_addr'").size(), "'$server_port'");
        conf.replace(conf.find("    root "), 0, "    add_header X-Backend $server_port always;\n");
        writeFile(dir + "/nginx.conf", conf);
        writeFile(dir + "/haproxy.cfg",
            "global\n    nbthread 1\n    maxconn 4096\ndefaults\n    mode tcp\n    timeout connect 5s\n"
            "    timeout client 30s\n    timeout server 30s\nfrontend fe\n    bind 127.0.0.1:"
                + str(m_port) + "\n    default_backend be\nbackend be\n    balance roundrobin\n" + servers);
        if (!m_backends.start(
                { "timeout", SERVER_DEADLINE_S, "nginx", "-c", dir + "/nginx.conf", "-p", dir }, dir + "/nginx.out")
            || !m_balancer.start(
                { "timeout", SERVER_DEADLINE_S, "haproxy", "-f", dir + "/haproxy.cfg", "-db" }, dir + "/haproxy.out"))
            continue;
        bool up = waitForPort("127.0.0.1", m_port, scaledMs(10'000));
        for (const uint16_t p : m_backendPorts)
            up = up && waitForPort("127.0.0.1", p, scaledMs(10'000));
        if (up) return true;
    }
    return false;
}

void L4Balancer::stop()
{
    if (m_balancer.running()) m_balancer.signalAndWait(SIGTERM, 10'000);
    if (m_backends.running()) m_backends.signalAndWait(SIGTERM, 10'000);
}

std::vector<uint64_t> L4Balancer::requestsPerBackend() const
{
    std::vector<uint64_t> counts(m_backendPorts.size(), 0);
    for (const std::string& line : splitLines(readFile(m_dir.file("access.log"))))
        for (size_t i = 0; i < m_backendPorts.size(); ++i)
            if (line == str(m_backendPorts[i])) ++counts[i];
    return counts;
}

std::string L4Balancer::log() const
{
    return readFile(m_dir.file("haproxy.out")) + readFile(m_dir.file("error.log"));
}

} // namespace wb::test
