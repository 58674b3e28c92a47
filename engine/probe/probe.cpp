#include "probe/probe.h"

#include "http/fieldtext.h"
#include "probe/probeerror.h"
#include "probe/tlscapture.h"

#include <algorithm>
#include <arpa/inet.h>
#include <cctype>
#include <chrono>
#include <cstring>
#include <curl/curl.h>
#include <memory>
#include <mutex>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>

namespace wb {

namespace {

using EasyHandle = std::unique_ptr<CURL, decltype(&curl_easy_cleanup)>;
using MultiHandle = std::unique_ptr<CURLM, decltype(&curl_multi_cleanup)>;
using HeaderList = std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)>;

void initCurlOnce()
{
    // curl_global_init is not thread-safe; every probe goes through here first.
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

std::string trimmed(std::string_view s)
{
    const auto begin = s.find_first_not_of(" \t\r\n");
    if (begin == std::string_view::npos) return {};
    const auto end = s.find_last_not_of(" \t\r\n");
    return std::string(s.substr(begin, end - begin + 1));
}

/// What one request (one hop of a redirect chain) is: where, how, with what.
struct Hop
{
    std::string url;
    std::string host; ///< without IPv6 brackets
    uint16_t port = 0;
    bool tls = false;
    std::string method;
    std::string body;
    std::vector<Header> headers;
};

/// The state curl's callbacks write into; lives for the whole probe.
struct Transfer
{
    char errorText[CURL_ERROR_SIZE] = {};
    std::string statusLine;
    std::vector<Header> headers;
    uint64_t bodyBytes = 0;
    TlsCapture tls; ///< the handshake of this hop's connection
    TlsCapture previousTls; ///< the last hop's, for a hop that reuses its connection
    const std::atomic<bool>* cancel = nullptr;
    /// ProbeOptions::pinnedAddresses as curl's CURLOPT_RESOLVE list, and as bytes to compare.
    std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> resolve { nullptr, curl_slist_free_all };
    struct Pinned
    {
        int family = 0;
        unsigned char bytes[16] {};
    };
    std::vector<Pinned> pinned;
    bool refusedAddress = false; ///< curl tried an address outside `pinned`

    void startHop()
    {
        errorText[0] = '\0';
        statusLine.clear();
        headers.clear();
        bodyBytes = 0;
        previousTls = std::move(tls);
        tls = TlsCapture {};
    }
};

size_t onHeader(char* data, size_t size, size_t count, void* user)
{
    auto* t = static_cast<Transfer*>(user);
    const size_t n = size * count;
    const std::string_view line(data, n);
    if (line.rfind("HTTP/", 0) == 0) {
        // A new response (after a 1xx interim answer): its headers replace the previous ones.
        t->statusLine = trimmed(line);
        t->headers.clear();
    } else if (!line.empty() && (line[0] == ' ' || line[0] == '\t') && !t->headers.empty()) {
        t->headers.back().value += " " + trimmed(line); // obsolete line folding
    } else if (const auto colon = line.find(':'); colon != std::string_view::npos) {
        t->headers.push_back({ std::string(line.substr(0, colon)), trimmed(line.substr(colon + 1)) });
    }
    return n;
}

size_t onBody(char*, size_t size, size_t count, void* user)
{
    static_cast<Transfer*>(user)->bodyBytes += size * count;
    return size * count;
}

int onProgress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t)
{
    const auto* cancel = static_cast<Transfer*>(user)->cancel;
    return cancel && cancel->load(std::memory_order_relaxed) ? 1 : 0;
}

CURLcode onSslContext(CURL*, void* sslCtx, void* user)
{
    installTlsCapture(sslCtx, &static_cast<Transfer*>(user)->tls);
    return CURLE_OK;
}

long toMs(uint64_t us)
{
    return static_cast<long>(std::max<uint64_t>(1, (us + 999) / 1000));
}

std::string endpointText(const std::string& ip, uint16_t port)
{
    return (ip.find(':') != std::string::npos ? "[" + ip + "]" : ip) + ":" + std::to_string(port);
}

uint64_t timeUs(CURL* easy, CURLINFO info)
{
    curl_off_t v = 0;
    curl_easy_getinfo(easy, info, &v);
    return v > 0 ? static_cast<uint64_t>(v) : 0;
}

std::string infoText(CURL* easy, CURLINFO info)
{
    const char* v = nullptr;
    curl_easy_getinfo(easy, info, &v);
    return v ? v : "";
}

long infoLong(CURL* easy, CURLINFO info)
{
    long v = 0;
    curl_easy_getinfo(easy, info, &v);
    return v;
}

/// Splits an absolute URL (as curl made it) into the parts a hop needs.
bool parseHopUrl(const std::string& url, Hop& hop)
{
    std::unique_ptr<CURLU, decltype(&curl_url_cleanup)> u(curl_url(), curl_url_cleanup);
    if (!u || curl_url_set(u.get(), CURLUPART_URL, url.c_str(), 0) != CURLUE_OK) return false;
    char* part = nullptr;
    if (curl_url_get(u.get(), CURLUPART_SCHEME, &part, 0) != CURLUE_OK) return false;
    hop.tls = equalsIgnoreCase(part, "https");
    curl_free(part);
    if (curl_url_get(u.get(), CURLUPART_HOST, &part, 0) != CURLUE_OK) return false;
    hop.host = part;
    curl_free(part);
    if (hop.host.size() > 2 && hop.host.front() == '[') hop.host = hop.host.substr(1, hop.host.size() - 2);
    if (curl_url_get(u.get(), CURLUPART_PORT, &part, CURLU_DEFAULT_PORT) != CURLUE_OK) return false;
    hop.port = static_cast<uint16_t>(std::atoi(part));
    curl_free(part);
    hop.url = url;
    return true;
}

/// Every address the host resolves to, numeric, without duplicates. Done after
/// the timed request so it cannot warm a cache for it; curl reports only the
/// address it used.
std::vector<std::string> resolveAll(const std::string& host)
{
    std::vector<std::string> out;
    addrinfo hints {};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* list = nullptr;
    if (getaddrinfo(host.c_str(), nullptr, &hints, &list) != 0) return out;
    for (const addrinfo* a = list; a; a = a->ai_next) {
        char text[NI_MAXHOST];
        if (getnameinfo(a->ai_addr, a->ai_addrlen, text, sizeof text, nullptr, 0, NI_NUMERICHOST) != 0) continue;
        if (std::find(out.begin(), out.end(), text) == out.end()) out.push_back(text);
    }
    freeaddrinfo(list);
    return out;
}

bool isRedirectStatus(long code)
{
    return code == 301 || code == 302 || code == 303 || code == 307 || code == 308;
}

/// The request of the next hop, as browsers and curl -L do it: 303 (and 301/302
/// after a POST) turn into a GET without body; credentials and a custom Host
/// stay with the host they were meant for.
Hop nextHop(const Hop& previous, long status, const Hop& target)
{
    Hop next = target;
    next.method = previous.method;
    next.body = previous.body;
    if ((status == 303 && previous.method != "HEAD")
        || ((status == 301 || status == 302) && previous.method == "POST")) {
        next.method = "GET";
        next.body.clear();
    }
    const bool sameOrigin = equalsIgnoreCase(target.host, previous.host) && target.port == previous.port;
    const bool bodyDropped = next.body.empty() && !previous.body.empty();
    auto is = [](const Header& h, const char* name) { return equalsIgnoreCase(h.name, name); };
    for (const Header& h : previous.headers) {
        if (!sameOrigin && (is(h, "Host") || is(h, "Authorization") || is(h, "Cookie"))) continue;
        if (bodyDropped && (is(h, "Content-Length") || is(h, "Content-Type"))) continue;
        next.headers.push_back(h);
    }
    return next;
}

/// The request headers as the engine sends them: the user's, and none of curl's
/// own defaults (Accept: */*, Expect: 100-continue) unless the user gave them.
HeaderList headerList(const Hop& hop)
{
    curl_slist* list = nullptr;
    auto given = [&](const char* name) {
        return std::any_of(
            hop.headers.begin(), hop.headers.end(), [&](const Header& h) { return equalsIgnoreCase(h.name, name); });
    };
    for (const Header& h : hop.headers)
        // "Name;" is curl's spelling of a header with an empty value.
        list = curl_slist_append(list, (h.value.empty() ? h.name + ";" : h.name + ": " + h.value).c_str());
    if (!given("Accept")) list = curl_slist_append(list, "Accept:");
    if (!given("Expect")) list = curl_slist_append(list, "Expect:");
    return HeaderList(list, curl_slist_free_all);
}

/// Every socket curl opens: refused unless it goes to a pinned address (the last check of a
/// pinned probe, on the address actually connected to, whatever curl's resolver did).
curl_socket_t onOpenSocket(void* user, curlsocktype, curl_sockaddr* address)
{
    auto* t = static_cast<Transfer*>(user);
    const bool pinned = std::any_of(t->pinned.begin(), t->pinned.end(), [&](const Transfer::Pinned& p) {
        if (p.family != address->family) return false;
        if (address->family == AF_INET)
            return std::memcmp(
                       p.bytes, &reinterpret_cast<const sockaddr_in*>(&address->addr)->sin_addr, sizeof(in_addr))
                == 0;
        return std::memcmp(p.bytes, &reinterpret_cast<const sockaddr_in6*>(&address->addr)->sin6_addr, sizeof(in6_addr))
            == 0;
    });
    if (!pinned) {
        t->refusedAddress = true;
        return CURL_SOCKET_BAD;
    }
    return ::socket(address->family, address->socktype | SOCK_CLOEXEC, address->protocol);
}

/// Pins the probe's host to options.pinnedAddresses; false when one is not an address.
bool setupPinning(CURL* easy, Transfer& t, const ProbeOptions& o)
{
    if (o.pinnedAddresses.empty()) return true;
    std::string entry = o.request.url.host + ":" + std::to_string(o.request.url.port) + ":";
    for (size_t i = 0; i < o.pinnedAddresses.size(); ++i) {
        const std::string& a = o.pinnedAddresses[i];
        Transfer::Pinned p;
        if (::inet_pton(AF_INET, a.c_str(), p.bytes) == 1)
            p.family = AF_INET;
        else if (::inet_pton(AF_INET6, a.c_str(), p.bytes) == 1)
            p.family = AF_INET6;
        else
            return false;
        t.pinned.push_back(p);
        entry += (i ? "," : "") + (a.find(':') != std::string::npos ? "[" + a + "]" : a);
    }
    t.resolve.reset(curl_slist_append(nullptr, entry.c_str()));
    curl_easy_setopt(easy, CURLOPT_RESOLVE, t.resolve.get());
    curl_easy_setopt(easy, CURLOPT_OPENSOCKETFUNCTION, onOpenSocket);
    curl_easy_setopt(easy, CURLOPT_OPENSOCKETDATA, &t);
    return true;
}

void setupHandle(CURL* easy, Transfer& t, const ProbeOptions& o)
{
    curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, t.errorText);
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L); // thread-safe timeouts
    curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, onHeader);
    curl_easy_setopt(easy, CURLOPT_HEADERDATA, &t);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, onBody);
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, &t);
    curl_easy_setopt(easy, CURLOPT_XFERINFOFUNCTION, onProgress);
    curl_easy_setopt(easy, CURLOPT_XFERINFODATA, &t);
    curl_easy_setopt(easy, CURLOPT_NOPROGRESS, 0L);
    // A cancel must not wait for a slow DNS lookup: without this, removing a
    // transfer that is resolving joins curl's resolver thread (getaddrinfo can
    // take many seconds against a dead server); with it the thread is left to end alone.
    if (o.cancel) curl_easy_setopt(easy, CURLOPT_QUICK_EXIT, 1L);
    curl_easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(easy, CURLOPT_FOLLOWLOCATION, 0L); // followed by hand, to time each hop
    curl_easy_setopt(easy, CURLOPT_PATH_AS_IS, 1L); // send the path as the engine does
    curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, toMs(o.timeoutUs));
    curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, toMs(std::min(o.connectTimeoutUs, o.timeoutUs)));
    // HTTP/2 as the load engine speaks it: h2 by ALPN over TLS, prior knowledge (h2c) over plain TCP.
    const long http2 = o.request.url.isTls() ? CURL_HTTP_VERSION_2TLS : CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE;
    curl_easy_setopt(easy, CURLOPT_HTTP_VERSION, o.allowHttp2 ? http2 : static_cast<long>(CURL_HTTP_VERSION_1_1));
    curl_easy_setopt(easy, CURLOPT_SSLVERSION, CURL_SSLVERSION_TLSv1_2); // the engine's minimum
    curl_easy_setopt(easy, CURLOPT_SSL_VERIFYPEER, o.tls.verifyPeer ? 1L : 0L);
    curl_easy_setopt(easy, CURLOPT_SSL_VERIFYHOST, o.tls.verifyPeer ? 2L : 0L);
    if (!o.tls.caFile.empty()) curl_easy_setopt(easy, CURLOPT_CAINFO, o.tls.caFile.c_str());
    curl_easy_setopt(easy, CURLOPT_SSL_CTX_FUNCTION, onSslContext);
    curl_easy_setopt(easy, CURLOPT_SSL_CTX_DATA, &t);
}

void setupRequest(CURL* easy, const Hop& hop, curl_slist* headers)
{
    curl_easy_setopt(easy, CURLOPT_URL, hop.url.c_str());
    // Forget the previous hop's body (setting POSTFIELDS implies POST), then back to a plain GET.
    curl_easy_setopt(easy, CURLOPT_POSTFIELDS, nullptr);
    curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(-1));
    curl_easy_setopt(easy, CURLOPT_HTTPGET, 1L);
    curl_easy_setopt(easy, CURLOPT_CUSTOMREQUEST, nullptr);
    if (hop.method == "HEAD") {
        curl_easy_setopt(easy, CURLOPT_NOBODY, 1L);
    } else {
        if (!hop.body.empty()) {
            curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(hop.body.size()));
            curl_easy_setopt(easy, CURLOPT_POSTFIELDS, hop.body.data());
        }
        if (hop.method != "GET" && hop.method != "POST")
            curl_easy_setopt(easy, CURLOPT_CUSTOMREQUEST, hop.method.c_str());
        if (hop.method == "POST" && hop.body.empty()) curl_easy_setopt(easy, CURLOPT_CUSTOMREQUEST, "POST");
        if (hop.method == "GET" && !hop.body.empty()) curl_easy_setopt(easy, CURLOPT_CUSTOMREQUEST, "GET");
    }
    curl_easy_setopt(easy, CURLOPT_HTTPHEADER, headers);
}

std::string httpVersionText(long v)
{
    switch (v) {
    case CURL_HTTP_VERSION_1_0:
        return "HTTP/1.0";
    case CURL_HTTP_VERSION_1_1:
        return "HTTP/1.1";
    case CURL_HTTP_VERSION_2_0:
        return "HTTP/2";
    case CURL_HTTP_VERSION_3:
        return "HTTP/3";
    default:
        return {};
    }
}

std::string failureMessage(CURL* easy, CURLcode code, const Transfer& t, const Hop& hop, const ProbeOptions& o)
{
    ProbeFailure f;
    f.curlCode = code;
    f.curlText = t.errorText[0] ? t.errorText : curl_easy_strerror(code);
    f.osErrno = static_cast<int>(infoLong(easy, CURLINFO_OS_ERRNO));
    f.host = hop.host;
    const std::string ip = infoText(easy, CURLINFO_PRIMARY_IP);
    f.endpoint = endpointText(ip.empty() ? hop.host : ip, hop.port);
    f.tls = hop.tls;
    f.dnsUs = timeUs(easy, CURLINFO_NAMELOOKUP_TIME_T);
    f.connectUs = timeUs(easy, CURLINFO_CONNECT_TIME_T);
    f.tlsUs = timeUs(easy, CURLINFO_APPCONNECT_TIME_T);
    f.requestSentUs = timeUs(easy, CURLINFO_PRETRANSFER_TIME_T);
    f.firstByteUs = timeUs(easy, CURLINFO_STARTTRANSFER_TIME_T);
    f.bodyBytes = t.bodyBytes;
    f.timeoutUs = o.timeoutUs;
    f.connectTimeoutUs = o.connectTimeoutUs;
    f.caFile = o.tls.caFile;
    f.capture = &t.tls;
    return describeFailure(f);
}

/// Copies what curl and the callbacks learnt about the final request into r.
void collect(CURL* easy, const Transfer& t, ProbeResult& r)
{
    r.dnsUs = timeUs(easy, CURLINFO_NAMELOOKUP_TIME_T);
    r.connectUs = timeUs(easy, CURLINFO_CONNECT_TIME_T);
    r.tlsUs = timeUs(easy, CURLINFO_APPCONNECT_TIME_T);
    r.requestSentUs = timeUs(easy, CURLINFO_PRETRANSFER_TIME_T);
    r.firstByteUs = timeUs(easy, CURLINFO_STARTTRANSFER_TIME_T);
    r.totalUs = timeUs(easy, CURLINFO_TOTAL_TIME_T);
    r.remoteIp = infoText(easy, CURLINFO_PRIMARY_IP);
    r.remotePort = static_cast<uint16_t>(infoLong(easy, CURLINFO_PRIMARY_PORT));
    r.localIp = infoText(easy, CURLINFO_LOCAL_IP);
    r.localPort = static_cast<uint16_t>(infoLong(easy, CURLINFO_LOCAL_PORT));
    r.connectionReused = infoLong(easy, CURLINFO_NUM_CONNECTS) == 0;
    r.httpVersion = httpVersionText(infoLong(easy, CURLINFO_HTTP_VERSION));
    r.statusCode = static_cast<int>(infoLong(easy, CURLINFO_RESPONSE_CODE));
    r.statusLine = t.statusLine;
    r.headers = t.headers;
    r.bodyBytes = t.bodyBytes;
    r.tlsVersion = t.tls.version;
    r.cipher = t.tls.cipher;
    r.alpn = t.tls.alpn;
    r.certificates = t.tls.chain;
}

/// How often a probe looks at its cancel flag while it waits on the network.
constexpr int CANCEL_POLL_MS = 20;

/// curl_easy_perform() that a cancel flag ends within CANCEL_POLL_MS: curl calls
/// the progress callback only about once a second while nothing arrives (a
/// silent server, a slow connect), too slow for Stop's 200 ms. The multi handle
/// is the probe's for all its hops: its connection cache lets a redirect to the
/// same origin reuse the connection, as curl_easy_perform() would.
CURLcode performCancellable(CURLM* multi, CURL* easy, const std::atomic<bool>* cancel)
{
    if (!cancel) return curl_easy_perform(easy);
    if (curl_multi_add_handle(multi, easy) != CURLM_OK) return CURLE_FAILED_INIT;
    CURLcode result = CURLE_OK;
    bool done = false;
    for (int running = 1; !done;) {
        if (curl_multi_perform(multi, &running) != CURLM_OK) {
            result = CURLE_FAILED_INIT;
            break;
        }
        int queued = 0;
        while (CURLMsg* message = curl_multi_info_read(multi, &queued))
            if (message->msg == CURLMSG_DONE && message->easy_handle == easy) {
                result = message->data.result;
                done = true;
            }
        if (done || running == 0) break;
        if (cancel->load(std::memory_order_relaxed)) {
            result = CURLE_ABORTED_BY_CALLBACK; // reported as "cancelled", as the callback's abort is
            break;
        }
        if (curl_multi_poll(multi, nullptr, 0, CANCEL_POLL_MS, nullptr) != CURLM_OK) {
            result = CURLE_FAILED_INIT;
            break;
        }
    }
    curl_multi_remove_handle(multi, easy);
    return result;
}

} // namespace

Result<ProbeResult> probe(const ProbeOptions& options)
{
    initCurlOnce();
    // Declared before the handle so it outlives it: curl and OpenSSL keep pointers into it.
    auto transfer = std::make_unique<Transfer>();
    EasyHandle easy(curl_easy_init(), curl_easy_cleanup);
    // Cleaned up before the easy handle (declared after it); each hop removes the easy handle from it.
    MultiHandle multi(options.cancel ? curl_multi_init() : nullptr, curl_multi_cleanup);
    if (!easy || (options.cancel && !multi)) return Error { "cannot initialise libcurl" };
    transfer->cancel = options.cancel;
    setupHandle(easy.get(), *transfer, options);
    if (!setupPinning(easy.get(), *transfer, options)) return Error { "a pinned address is not an IP address" };

    const RequestSpec& spec = options.request;
    Hop hop { spec.url.toString(), spec.url.host, spec.url.port, spec.url.isTls(), spec.method, spec.body,
        spec.headers };
    ProbeResult r;
    r.startedAtMs
        = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
              .count();
    for (unsigned hopIndex = 0;; ++hopIndex) {
        transfer->startHop();
        const HeaderList headers = headerList(hop);
        setupRequest(easy.get(), hop, headers.get());
        const CURLcode code = performCancellable(multi.get(), easy.get(), options.cancel);
        if (code != CURLE_OK) {
            if (transfer->refusedAddress)
                return Error { "refused to connect to an address that " + hop.host
                    + " was not pinned to (it resolved differently after it was allowed)" };
            std::string message = failureMessage(easy.get(), code, *transfer, hop, options);
            if (hopIndex > 0 && code != CURLE_ABORTED_BY_CALLBACK) message += " (after a redirect to " + hop.url + ")";
            return Error { message };
        }
        if (infoLong(easy.get(), CURLINFO_NUM_CONNECTS) == 0) transfer->tls = transfer->previousTls; // no new handshake
        collect(easy.get(), *transfer, r);
        r.url = hop.url;
        r.method = hop.method;
        const std::string location = infoText(easy.get(), CURLINFO_REDIRECT_URL);
        Hop target;
        if (!isRedirectStatus(r.statusCode) || location.empty() || !parseHopUrl(location, target)) break;
        const bool follow = options.followRedirects && hopIndex < options.maxRedirects;
        r.redirects.push_back({ hop.url, location, r.statusCode, r.totalUs, follow });
        if (!follow) break;
        r.redirectUs += r.totalUs;
        hop = nextHop(hop, r.statusCode, target);
    }
    if (options.cancel && options.cancel->load(std::memory_order_relaxed)) return Error { "cancelled" };
    // Pinned: what was connected to is what was allowed; a fresh lookup would only report
    // what a rebinding resolver says now.
    r.addresses = options.pinnedAddresses.empty() ? resolveAll(hop.host) : options.pinnedAddresses;
    return r;
}

Result<std::vector<ProbeResult>> probeRepeated(const ProbeOptions& options, unsigned count)
{
    std::vector<ProbeResult> out;
    for (unsigned i = 0; i < count; ++i) {
        auto one = probe(options); // a new curl handle each time: fresh DNS lookup and connection
        if (!one) return Error { one.error() };
        out.push_back(std::move(*one));
    }
    return out;
}

} // namespace wb
