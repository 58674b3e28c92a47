#pragma once
// `--hdr-log FILE`: the run as an HdrHistogram interval log (HistogramLogWriter's format, version 1.3), so
// HdrHistogram's own tools read our runs; docs/CLI.md shows one. One line per interval and histogram, tagged as the
// JSON's histogram keys, written and flushed as each interval arrives: a long run keeps nothing in memory and a killed
// one leaves a valid log up to its last interval. Timestamps are seconds since the measurement began (the BaseTime);
// values are microseconds, and Interval_Max is in milliseconds (the value divided by 1000, the unit ratio).

#include "common/result.h"
#include "run/runobserver.h"

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace wb {

class HdrLogWriter : public RunObserver
{
public:
    /// Creates (or truncates) path and writes the version line; one sentence when it cannot.
    static Result<std::unique_ptr<HdrLogWriter>> open(const std::string& path);
    ~HdrLogWriter() override;
    HdrLogWriter(const HdrLogWriter&) = delete;
    HdrLogWriter& operator=(const HdrLogWriter&) = delete;

    void onStarted(const RunConfig& config) override;
    void onInterval(const IntervalRecord& interval) override;

    /// The first write that failed (the log stops there), or empty.
    const std::string& error() const { return m_error; }

private:
    HdrLogWriter(std::FILE* file, std::string path);
    void write(const std::string& text);

    std::FILE* m_file;
    std::string m_path;
    std::vector<std::string> m_tags { "latency", "connect", "ttfb" };
    bool m_headerWritten = false;
    std::string m_error;
};

} // namespace wb
