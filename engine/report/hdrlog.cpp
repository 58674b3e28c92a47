#include "report/hdrlog.h"

#include "run/runcontroller.h"
#include "stats/hdrcodec.h"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <ctime>
#include <fmt/format.h>

namespace wb {

namespace {

// Interval_Max is the value divided by this: microseconds to milliseconds, as the Java
// writer's default (1e6) turns nanoseconds into milliseconds.
constexpr double MAX_VALUE_UNIT_RATIO = 1000.0;

std::string isoUtc(int64_t unixMs)
{
    const std::time_t seconds = static_cast<std::time_t>(unixMs / 1000);
    std::tm tm {};
    gmtime_r(&seconds, &tm);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &tm);
    return fmt::format("{}.{:03}Z", text, unixMs % 1000);
}

LatencyHistogram histogramOf(const IntervalRecord& r, const std::string& tag)
{
    if (tag == "latency") return r.latencyHistogramDecoded();
    if (tag == "service") return r.serviceHistogramDecoded();
    if (tag == "send_lag") return r.sendLagHistogramDecoded();
    if (tag == "connect") return r.connectHistogramDecoded();
    if (tag == "tls_handshake") return r.tlsHandshakeHistogramDecoded();
    return r.firstByteHistogramDecoded();
}

} // namespace

Result<std::unique_ptr<HdrLogWriter>> HdrLogWriter::open(const std::string& path)
{
    std::FILE* file = std::fopen(path.c_str(), "w");
    if (!file) return Error { fmt::format("cannot write the HdrHistogram log '{}': {}", path, std::strerror(errno)) };
    std::unique_ptr<HdrLogWriter> writer(new HdrLogWriter(file, path));
    writer->write("#[Histogram log format version 1.3]\n");
    writer->write(fmt::format(
        "#[Logged by wrkbench {}: values in microseconds, Interval_Max in milliseconds]\n", engineVersion()));
    if (!writer->error().empty()) return Error { writer->error() };
    return writer;
}

HdrLogWriter::HdrLogWriter(std::FILE* file, std::string path)
    : m_file(file)
    , m_path(std::move(path))
{ }

HdrLogWriter::~HdrLogWriter()
{
    std::fclose(m_file);
}

void HdrLogWriter::onStarted(const RunConfig& config)
{
    m_tags = { "latency" };
    if (config.openModel()) m_tags.push_back("service");
    if (config.openModel()) m_tags.push_back("send_lag");
    m_tags.push_back("connect");
    if (config.request.url.isTls()) m_tags.push_back("tls_handshake");
    m_tags.push_back("ttfb");
}

void HdrLogWriter::onInterval(const IntervalRecord& interval)
{
    if (!m_error.empty()) return;
    std::string text;
    if (!m_headerWritten) {
        // The base time is when measurement began; every timestamp is relative to it.
        const int64_t baseMs = interval.startUnixMs - std::llround(interval.startS * 1000.0);
        text += fmt::format(
            "#[StartTime: {:.3f} (seconds since epoch), {}]\n", static_cast<double>(baseMs) / 1000.0, isoUtc(baseMs));
        text += fmt::format("#[BaseTime: {:.3f} (seconds since epoch)]\n", static_cast<double>(baseMs) / 1000.0);
        text += "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"\n";
        m_headerWritten = true;
    }
    for (const std::string& tag : m_tags) {
        const LatencyHistogram h = histogramOf(interval, tag);
        text += fmt::format("Tag={},{:.3f},{:.3f},{:.3f},{}\n", tag, interval.startS, interval.durationS(),
            static_cast<double>(h.maxUs()) / MAX_VALUE_UNIT_RATIO, encodeHdrBase64(h));
    }
    write(text);
}

void HdrLogWriter::write(const std::string& text)
{
    if (!m_error.empty()) return;
    // Flushed every interval, so a killed run leaves whole lines behind.
    if (std::fwrite(text.data(), 1, text.size(), m_file) != text.size() || std::fflush(m_file) != 0)
        m_error = fmt::format("cannot write the HdrHistogram log '{}': {}", m_path, std::strerror(errno));
}

} // namespace wb
