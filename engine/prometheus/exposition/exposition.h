#pragma once
// The Prometheus text exposition format (version 0.0.4) and OpenMetrics 1.0 text, as the programs
// users point `--scrape` at print them: node_exporter, Envoy's /stats/prometheus, the ingress
// controllers, nginx-prometheus-exporter, client libraries, our own built-in server.
//
// The input comes from the network, so the parse is bounded: at most ExpositionLimits::maxBytes
// are read, at most maxSamples samples are kept (a filter decides which, before anything is
// copied), names and label sets have a length limit. A line that is not understood is skipped and
// named ("line 12: ...") in the first few warnings; it never fails the whole scrape.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace wb {

/// What a `# TYPE` line declares ("unknown"/"untyped" and a family without a TYPE line: Untyped).
enum class MetricType : uint8_t { Untyped, Counter, Gauge, Histogram, Summary, GaugeHistogram, Info, StateSet };

/// What a sample is within its family (suffixes of counters, histograms and summaries).
enum class SampleRole : uint8_t {
    Value, ///< a gauge's or untyped value, a counter's value (text format: the name is the family's)
    Total, ///< OpenMetrics counter: family_total
    Created, ///< family_created: a creation time, not a measurement
    Bucket, ///< family_bucket{le="..."}: cumulative count (gauge histograms: family_bucket too)
    Sum, ///< family_sum
    Count, ///< family_count
    Quantile, ///< a summary's family{quantile="..."}
};

struct MetricLabel
{
    std::string name;
    std::string value;
    bool operator==(const MetricLabel&) const = default;
};

struct MetricSample
{
    std::string family; ///< the metric family (name without the role's suffix)
    std::string name; ///< as written (node_cpu_seconds_total, x_bucket)
    MetricType type = MetricType::Untyped;
    SampleRole role = SampleRole::Value;
    std::vector<MetricLabel> labels; ///< as written, in order
    double value = 0;

    /// The label's value, or "" when absent.
    std::string_view label(std::string_view labelName) const;
};

struct ExpositionLimits
{
    size_t maxBytes = 16u << 20; ///< input beyond this is not read (a warning says so)
    size_t maxSamples = 20000; ///< samples kept (after the filter); the rest are dropped with a warning
    size_t maxWarnings = 5; ///< bad lines named one by one; the rest are counted
    size_t maxNameBytes = 512; ///< a metric or label name
    size_t maxLabelValueBytes = 4096;
    size_t maxLabels = 64; ///< labels on one sample
};

struct Exposition
{
    std::vector<MetricSample> samples; ///< the kept samples, in input order
    std::vector<std::string> warnings; ///< "line 12: ..."; at most maxWarnings, then one that counts the rest
    size_t badLines = 0; ///< lines skipped as not understood
    size_t samplesSeen = 0; ///< every well-formed sample line, kept or not
    bool truncated = false; ///< stopped at maxBytes or maxSamples
};

/// Which samples to keep, asked once per family and sample name (cached by the parser).
using SampleFilter = std::function<bool(std::string_view family, std::string_view name)>;

/// Parses text. keep: null keeps every sample (up to the limits).
Exposition parseExposition(std::string_view text, const SampleFilter& keep = {}, const ExpositionLimits& limits = {});

const char* metricTypeName(MetricType type);

/// The series' identity: name{label="value",...} with the labels sorted by name and values escaped
/// as the format escapes them; `without` leaves one label out (a histogram's "le").
std::string seriesKey(std::string_view name, const std::vector<MetricLabel>& labels, std::string_view without = {});

} // namespace wb
