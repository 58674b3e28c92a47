#pragma once
// Finds wrk and wrk2 reports inside arbitrary text (terminal logs with shell
// prompts, commands and prose around them; several reports per file) and reads
// each whole, so old results can be imported into a session.

#include <cstdint>
#include <string>
#include <vector>

namespace wb {

/// One report as wrk printed it. Times are microseconds, sizes bytes, rates per second.
struct WrkLogReport
{
    size_t firstLine = 0; ///< 1-based line of "Running ... test @ ..."
    size_t lastLine = 0; ///< 1-based line of "Transfer/sec:"
    bool isWrk2
        = false; ///< has wrk2's "Thread calibration" lines or HdrHistogram blocks, or "-R"/wrk2 in its command line

    // From the command line just above the report, when present.
    std::string commandLine; ///< e.g. "wrk -t12 -c400 -d30s --latency http://localhost:8080" (empty if none)
    bool hasLatencyFlag = false; ///< -L/--latency/-U in the command line, or a "Latency Distribution" block printed
    double rate = 0; ///< wrk2 -R/--rate, 0 when not given
    double timeoutS = 0; ///< --timeout, 0 when not given

    // From the report itself.
    std::string url; ///< from "Running 30s test @ URL"
    double plannedDurationS = 0; ///< "Running 30s test" / "2m" / "1h"
    unsigned threads = 0;
    unsigned connections = 0;

    struct StatsRow
    {
        double avg = 0;
        double stdev = 0;
        double max = 0;
        double withinStdevPct = 0;
    };
    StatsRow latencyUs; ///< "Latency" row, converted to microseconds
    StatsRow requestsPerThread; ///< "Req/Sec" row (k/M expanded)

    struct Percentile
    {
        double percentile = 0; ///< 0..100
        double valueUs = 0;
    };
    std::vector<Percentile> latencyDistribution; ///< "Latency Distribution" block, if printed

    struct SpectrumRow
    {
        double valueUs = 0;
        double percentile = 0; ///< 0..1 as wrk2 prints it
        uint64_t totalCount = 0;
    };
    std::vector<SpectrumRow> spectrum; ///< wrk2 "Detailed Percentile spectrum", if printed
    /// wrk2 -U: the same two blocks for "Uncorrected Latency (measured without taking delayed starts into account)".
    std::vector<Percentile> uncorrectedLatencyDistribution;
    std::vector<SpectrumRow> uncorrectedSpectrum;

    uint64_t requests = 0; ///< "N requests in 30.09s"
    double durationS = 0; ///< the measured duration from that line
    uint64_t bytesRead = 0; ///< "392.58MB read" (binary units as wrk prints)
    uint64_t errorsConnect = 0, errorsRead = 0, errorsWrite = 0, errorsTimeout = 0;
    uint64_t non2xx = 0;
    double requestsPerS = 0;
    double transferBytesPerS = 0;
};

struct WrkLogSkip
{
    size_t line = 0; ///< 1-based line where the unreadable report starts
    std::string reason; ///< e.g. "report ends before 'Requests/sec:'"
};

struct WrkLogParseResult
{
    std::vector<WrkLogReport> reports;
    std::vector<WrkLogSkip> skipped; ///< reports found but not readable whole (nothing of them is kept)
};

/// Finds and reads every report in text. Never throws; tolerant of CRLF,
/// ANSI colour codes, tabs, indentation and markdown quote markers. Linear in
/// the size of the text. Strings in the result are valid UTF-8 (invalid bytes
/// become '?').
WrkLogParseResult parseWrkLog(const std::string& text);

} // namespace wb
