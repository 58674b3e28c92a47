// The exposition parser and the derivation, on what real programs print: node_exporter 1.5.0,
// nginx-prometheus-exporter 0.11.0 and Prometheus 2.42's own /metrics (Debian bookworm), each
// captured twice a few seconds apart (tests/engine/prometheus/exposition/fixtures). The syntax the fixtures do
// not use (OpenMetrics' # EOF, _created, exemplars, escapes, quoted names) is checked on the
// format's own rules.

#include "prometheus/exposition/derive.h"
#include "prometheus/exposition/exposition.h"
#include "prometheus/exposition/presets.h"
#include "testsupport.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <gtest/gtest.h>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace wb;

namespace {

std::string fixture(const std::string& name)
{
    std::ifstream in(test::sourceDir() + "/tests/engine/prometheus/exposition/fixtures/" + name, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

size_t sampleLines(const std::string& text)
{
    size_t n = 0;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (!line.empty() && line[0] != '#') ++n;
    return n;
}

std::map<std::string, double> valuesOf(const std::vector<DerivedValue>& values, SeriesKind kind)
{
    std::map<std::string, double> out;
    for (const DerivedValue& v : values)
        if (v.kind == kind) out[v.name] = v.value;
    return out;
}

} // namespace

TEST(Exposition, ReadsNodeExporterWhole)
{
    const std::string text = fixture("node-exporter-1.5.0-t0.txt");
    ASSERT_FALSE(text.empty());
    const Exposition e = parseExposition(text);
    EXPECT_TRUE(e.warnings.empty()) << e.warnings.front();
    EXPECT_EQ(e.badLines, 0u);
    EXPECT_EQ(e.samplesSeen, sampleLines(text));
    EXPECT_EQ(e.samples.size(), e.samplesSeen);
    size_t cpu = 0;
    for (const MetricSample& s : e.samples) {
        if (s.name != "node_cpu_seconds_total") continue;
        ++cpu;
        EXPECT_EQ(s.family, "node_cpu_seconds_total");
        EXPECT_EQ(s.type, MetricType::Counter);
        EXPECT_EQ(s.role, SampleRole::Value);
        EXPECT_FALSE(s.label("cpu").empty());
        EXPECT_FALSE(s.label("mode").empty());
    }
    EXPECT_EQ(cpu % 8, 0u) << "eight modes per CPU";
    EXPECT_GT(cpu, 0u);
    // A summary: its quantiles and its _sum and _count.
    auto gc = std::find_if(e.samples.begin(), e.samples.end(),
        [](const MetricSample& s) { return s.family == "go_gc_duration_seconds" && s.role == SampleRole::Count; });
    ASSERT_NE(gc, e.samples.end());
    EXPECT_EQ(gc->type, MetricType::Summary);
}

TEST(Exposition, FilterKeepsOnlyWhatItAsksFor)
{
    const std::string text = fixture("node-exporter-1.5.0-t0.txt");
    size_t asked = 0;
    const Exposition e = parseExposition(text, [&](std::string_view family, std::string_view) {
        ++asked;
        return family == "node_cpu_seconds_total";
    });
    EXPECT_EQ(e.samplesSeen, sampleLines(text));
    EXPECT_GT(e.samples.size(), 0u);
    for (const MetricSample& s : e.samples)
        EXPECT_EQ(s.family, "node_cpu_seconds_total");
    EXPECT_LT(asked, e.samplesSeen) << "asked once per name, not per line";
}

TEST(Exposition, ReadsPrometheusHistograms)
{
    const Exposition e = parseExposition(fixture("prometheus-2.42-t1.txt"));
    EXPECT_TRUE(e.warnings.empty());
    size_t buckets = 0;
    for (const MetricSample& s : e.samples)
        if (s.family == "prometheus_http_request_duration_seconds" && s.role == SampleRole::Bucket) {
            EXPECT_EQ(s.type, MetricType::Histogram);
            EXPECT_FALSE(s.label("le").empty());
            ++buckets;
        }
    EXPECT_GT(buckets, 0u);
}

TEST(Exposition, OpenMetricsSyntax)
{
    const std::string text = "# TYPE requests counter\n"
                             "# UNIT requests requests\n"
                             "requests_total{path=\"/a\"} 12 1700000000.5 # {trace_id=\"x\"} 1 1700000000\n"
                             "requests_created{path=\"/a\"} 1.7e9\n"
                             "# TYPE up gauge\n"
                             "up +Inf\n"
                             "{\"my.dotted\", \"quoted.label\"=\"v\"} 3\n"
                             "# EOF\n"
                             "late 1\n";
    const Exposition e = parseExposition(text);
    ASSERT_EQ(e.samples.size(), 4u);
    EXPECT_EQ(e.samples[0].family, "requests");
    EXPECT_EQ(e.samples[0].role, SampleRole::Total);
    EXPECT_EQ(e.samples[0].type, MetricType::Counter);
    EXPECT_EQ(e.samples[0].value, 12);
    EXPECT_EQ(e.samples[1].role, SampleRole::Created);
    EXPECT_TRUE(std::isinf(e.samples[2].value));
    EXPECT_EQ(e.samples[3].name, "my.dotted");
    EXPECT_EQ(e.samples[3].label("quoted.label"), "v");
    ASSERT_EQ(e.warnings.size(), 1u);
    EXPECT_EQ(e.warnings[0], "line 9: text after '# EOF'");
}

TEST(Exposition, EscapesAndKeys)
{
    const Exposition e = parseExposition("m{b=\"x\\\"y\",a=\"1\\\\2\\n3\"} -2.5e-3\n");
    ASSERT_EQ(e.samples.size(), 1u);
    EXPECT_EQ(e.samples[0].label("b"), "x\"y");
    EXPECT_EQ(e.samples[0].label("a"), "1\\2\n3");
    EXPECT_DOUBLE_EQ(e.samples[0].value, -2.5e-3);
    EXPECT_EQ(seriesKey(e.samples[0].name, e.samples[0].labels), "m{a=\"1\\\\2\\n3\",b=\"x\\\"y\"}");
    EXPECT_EQ(seriesKey("h", { { "le", "1" }, { "x", "y" } }, "le"), "h{x=\"y\"}");
    // The key parses back to the same series.
    const Exposition again = parseExposition(seriesKey(e.samples[0].name, e.samples[0].labels) + " 1\n");
    ASSERT_EQ(again.samples.size(), 1u);
    EXPECT_EQ(again.samples[0].labels.size(), 2u);
    EXPECT_EQ(again.samples[0].label("a"), "1\\2\n3");
}

// Both formats say label values and quoted names are UTF-8 (Prometheus refuses a scrape that
// breaks it); ours keeps the sample and makes the text valid where it enters.
TEST(Exposition, TextThatIsNotUtf8IsMadeValidWhereItEnters)
{
    const Exposition e = parseExposition("m{a=\"x\xff\x1b[2J\",\"q\xfe\"=\"1\"} 1\n{\"n\xc3\"} 2\n");
    ASSERT_EQ(e.samples.size(), 2u);
    EXPECT_EQ(e.samples[0].label("a"), "x\xef\xbf\xbd\x1b[2J") << "controls stay: escaped on the way out";
    EXPECT_EQ(e.samples[0].labels[1].name, "q\xef\xbf\xbd");
    EXPECT_EQ(e.samples[1].name, "n\xef\xbf\xbd");
    EXPECT_EQ(e.badLines, 0u);
}

TEST(Exposition, BadLinesAreNamedAndSkipped)
{
    std::string text = "# TYPE ok gauge\nok 1\n";
    for (int i = 0; i < 9; ++i)
        text += "broken{a=\"1\" 2\n";
    text += "ok{x=\"2\"} nope\nok{x=\"3\"} 3 4 5\n1bad 2\nok{x=\"4\"} 4\n";
    const Exposition e = parseExposition(text);
    ASSERT_EQ(e.samples.size(), 2u);
    EXPECT_EQ(e.samples[1].value, 4);
    EXPECT_EQ(e.badLines, 12u);
    ASSERT_EQ(e.warnings.size(), 6u) << "five named, then one that counts the rest";
    EXPECT_EQ(e.warnings[0], "line 3: labels not separated by ','");
    EXPECT_EQ(e.warnings[5], "and 7 more lines not understood");
}

TEST(Exposition, Bounded)
{
    std::string text;
    for (int i = 0; i < 100; ++i)
        text += "m{i=\"" + std::to_string(i) + "\"} 1\n";
    ExpositionLimits limits;
    limits.maxSamples = 10;
    Exposition e = parseExposition(text, {}, limits);
    EXPECT_EQ(e.samples.size(), 10u);
    EXPECT_TRUE(e.truncated);
    ASSERT_FALSE(e.warnings.empty());
    EXPECT_NE(e.warnings.back().find("more than 10 series"), std::string::npos);

    limits = {};
    limits.maxBytes = 100;
    e = parseExposition(text, {}, limits);
    EXPECT_TRUE(e.truncated);
    EXPECT_LE(e.samples.size(), 100u / 8);
    EXPECT_EQ(e.badLines, 0u) << "the cut line is dropped, not misread";

    limits = {};
    limits.maxLabelValueBytes = 8;
    e = parseExposition("m{a=\"0123456789\"} 1\nm{a=\"short\"} 2\n", {}, limits);
    ASSERT_EQ(e.samples.size(), 1u);
    EXPECT_EQ(e.samples[0].value, 2);
    limits = {};
    limits.maxLabels = 2;
    e = parseExposition("m{a=\"1\",b=\"2\",c=\"3\"} 1\n", {}, limits);
    EXPECT_TRUE(e.samples.empty());
    EXPECT_EQ(e.badLines, 1u);
}

// shows() remembers its answer per sample name. An endpoint that prints new names at every scrape
// grew that memory without end under a broad --scrape-metric; it holds as many names as a scrape
// keeps samples, and answers the same after starting over.
TEST(MetricSelection, RemembersAsManyNamesAsAScrapeKeeps)
{
    const MetricSelection select(".*");
    MetricSample sample;
    for (int i = 0; i < 100'000; ++i) {
        sample.name = sample.family = "gen_" + std::to_string(i);
        ASSERT_TRUE(select.shows(sample));
        ASSERT_LE(select.cachedNames(), ExpositionLimits {}.maxSamples);
    }
    const MetricSelection presetsOnly("");
    sample.name = sample.family = "wrkbench_server_connections";
    for (int i = 0; i < 3; ++i)
        EXPECT_TRUE(presetsOnly.shows(sample));
    sample.name = sample.family = "unrelated";
    EXPECT_FALSE(presetsOnly.shows(sample));
}

TEST(Derive, NodeCpuBusyFromTwoRealScrapes)
{
    const MetricSelection select("");
    auto keep = [&](std::string_view f, std::string_view n) { return select.keeps(f, n); };
    const ScrapeSnapshot t0 = ScrapeSnapshot::of(1000, parseExposition(fixture("node-exporter-1.5.0-t0.txt"), keep));
    const ScrapeSnapshot t1 = ScrapeSnapshot::of(2500, parseExposition(fixture("node-exporter-1.5.0-t1.txt"), keep));
    EXPECT_TRUE(select.derive(nullptr, t0).empty()) << "the node preset shows nothing as it is";
    const std::vector<DerivedValue> values = select.derive(&t0, t1);
    const auto percent = valuesOf(values, SeriesKind::Percent);
    ASSERT_TRUE(percent.count("node_cpu_busy_percent"));
    const double busy = percent.at("node_cpu_busy_percent");
    EXPECT_GE(busy, 0);
    EXPECT_LE(busy, 100);
    double sum = 0;
    size_t modes = 0;
    for (const auto& [name, v] : percent)
        if (name.rfind("node_cpu_mode_percent{", 0) == 0) sum += v, ++modes;
    EXPECT_EQ(modes, 8u);
    EXPECT_NEAR(sum, 100, 1e-9);
    // The same share, figured by hand from the two files: everything but idle and iowait.
    double all = 0, idle = 0;
    for (const MetricSample& s : t1.data.samples) {
        const double* before = t0.counter(seriesKey(s.name, s.labels));
        ASSERT_NE(before, nullptr);
        all += s.value - *before;
        if (s.label("mode") == "idle" || s.label("mode") == "iowait") idle += s.value - *before;
    }
    ASSERT_GT(all, 0);
    EXPECT_NEAR(busy, 100 * (all - idle) / all, 1e-9);
}

TEST(Derive, HistogramQuantilesFromPrometheus)
{
    const ScrapeSnapshot t0 = ScrapeSnapshot::of(0, parseExposition(fixture("prometheus-2.42-t0.txt")));
    const ScrapeSnapshot t1 = ScrapeSnapshot::of(3000, parseExposition(fixture("prometheus-2.42-t1.txt")));
    const std::vector<DerivedValue> values = deriveWindow(&t0, t1, {});
    const std::string key = "prometheus_http_request_duration_seconds{handler=\"/metrics\"}";
    // Four requests in the window, all in the first bucket (le 0.1): interpolated within it.
    EXPECT_DOUBLE_EQ(valuesOf(values, SeriesKind::P50).at(key), 0.05);
    EXPECT_DOUBLE_EQ(valuesOf(values, SeriesKind::P99).at(key), 0.099);
    const auto rates = valuesOf(values, SeriesKind::Rate);
    EXPECT_DOUBLE_EQ(rates.at("prometheus_http_request_duration_seconds_count{handler=\"/metrics\"}"), 4.0 / 3.0);
    EXPECT_GT(valuesOf(values, SeriesKind::Mean).at(key), 0);
    // Gauges are values at the window's end.
    const auto gauges = valuesOf(values, SeriesKind::Value);
    for (const MetricSample& s : t1.data.samples)
        if (s.type == MetricType::Gauge && std::isfinite(s.value)) {
            EXPECT_EQ(gauges.at(seriesKey(s.name, s.labels)), s.value);
        }
}

TEST(Derive, NginxExporterPreset)
{
    const MetricSelection select("");
    auto keep = [&](std::string_view f, std::string_view n) { return select.keeps(f, n); };
    const std::string text = fixture("nginx-exporter-0.11.0.txt");
    const ScrapeSnapshot t0 = ScrapeSnapshot::of(0, parseExposition(text, keep));
    EXPECT_EQ(t0.data.samples.size(), 8u) << "connections, requests, up; not the exporter's own";
    // The same endpoint 2 s later with 10 more requests: nothing else moved.
    std::string later = text;
    const std::string from = "nginx_http_requests_total 22";
    later.replace(later.find(from), from.size(), "nginx_http_requests_total 32");
    const ScrapeSnapshot t1 = ScrapeSnapshot::of(2000, parseExposition(later, keep));
    const std::vector<DerivedValue> values = select.derive(&t0, t1);
    EXPECT_DOUBLE_EQ(valuesOf(values, SeriesKind::Rate).at("nginx_http_requests_total"), 5);
    EXPECT_DOUBLE_EQ(valuesOf(values, SeriesKind::Rate).at("nginx_connections_dropped"), 0);
    EXPECT_EQ(valuesOf(values, SeriesKind::Value).at("nginx_connections_active"), 1);
    EXPECT_FALSE(valuesOf(values, SeriesKind::Rate).count("nginx_connections_accepted")) << "read, not shown";
}

TEST(Derive, CounterResetCountsFromZero)
{
    const ScrapeSnapshot t0 = ScrapeSnapshot::of(0, parseExposition("# TYPE c counter\nc 100\n"));
    const ScrapeSnapshot t1 = ScrapeSnapshot::of(1000, parseExposition("# TYPE c counter\nc 7\n"));
    EXPECT_DOUBLE_EQ(valuesOf(deriveWindow(&t0, t1, {}), SeriesKind::Rate).at("c"), 7);
}

TEST(Derive, HistogramQuantileEdges)
{
    const double inf = std::numeric_limits<double>::infinity();
    EXPECT_TRUE(std::isnan(histogramQuantile(0.5, {})));
    EXPECT_TRUE(std::isnan(histogramQuantile(0.5, { { 1, 0 }, { inf, 0 } }))) << "nothing observed";
    EXPECT_TRUE(std::isnan(histogramQuantile(0.5, { { 1, 3 } }))) << "no +Inf bucket";
    EXPECT_DOUBLE_EQ(histogramQuantile(0.5, { { 1, 0 }, { 2, 10 }, { inf, 10 } }), 1.5);
    EXPECT_DOUBLE_EQ(histogramQuantile(0.99, { { 1, 5 }, { inf, 10 } }), 1) << "in +Inf: the largest bound";
    EXPECT_DOUBLE_EQ(histogramQuantile(0.5, { { inf, 10 }, { 2, 10 }, { 1, 0 } }), 1.5) << "any order";
}

TEST(ScrapeSpec, EndpointsAndValidation)
{
    auto e = parseScrapeEndpoint("node=http://127.0.0.1:9100/metrics");
    ASSERT_TRUE(e.ok()) << e.error();
    EXPECT_EQ(e->name, "node");
    EXPECT_EQ(e->url, "http://127.0.0.1:9100/metrics");
    e = parseScrapeEndpoint("http://127.0.0.1:9100/metrics?a=b");
    ASSERT_TRUE(e.ok()) << e.error();
    EXPECT_EQ(e->name, "127.0.0.1-9100");
    // A bare URL's name is valid as it is: --scrape URL with a port is the common case.
    auto bare = scrapeSpecOf({ "http://127.0.0.1:9100/metrics", "http://[::1]:9100/metrics", "http://node-1/m" }, "");
    ASSERT_TRUE(bare.ok()) << bare.error();
    EXPECT_EQ(bare->endpoints[1].name, "--1-9100");
    EXPECT_EQ(bare->endpoints[2].name, "node-1");
    EXPECT_NE(scrapeSpecOf({ "http://127.0.0.1:9100/a", "http://127.0.0.1:9100/b" }, "")
                  .error()
                  .find("two scrape endpoints are named '127.0.0.1-9100'"),
        std::string::npos);
    EXPECT_FALSE(parseScrapeEndpoint("ftp://x/metrics").ok());
    EXPECT_FALSE(parseScrapeEndpoint("bad name=http://x/").ok());
    ScrapeSpec spec { { { "a", "http://x/" }, { "a", "http://y/" } }, "" };
    EXPECT_NE(spec.validate().error().find("two scrape endpoints are named 'a'"), std::string::npos);
    spec = { { { "a", "http://x/" } }, "node_(" };
    EXPECT_NE(spec.validate().error().find("not a regular expression"), std::string::npos);
    spec = { { { "a", "http://x/" } }, "node_.*" };
    EXPECT_TRUE(spec.validate().ok());
    auto back = scrapeSpecFromJson(scrapeSpecToJson(spec));
    ASSERT_TRUE(back.ok()) << back.error();
    EXPECT_EQ(*back, spec);
}

TEST(ScrapeRecord, JsonRoundTrip)
{
    ScrapeRecord r;
    r.metricRegex = "x.*";
    r.endpoints = { { "node", "http://127.0.0.1:9100/metrics", 12, 1, { "scrape 'node': HTTP status 500" } },
        { "app", "http://127.0.0.1:8080/metrics", 12, 0, {} } };
    ASSERT_TRUE(r.addPoint(0, "node_cpu_busy_percent", SeriesKind::Percent, { 1000, 12.5 }, 10));
    ASSERT_TRUE(r.addPoint(1, "x{a=\"b\"}", SeriesKind::P99, { 1000, 0.25 }, 10));
    ASSERT_TRUE(r.addPoint(0, "node_cpu_busy_percent", SeriesKind::Percent, { 2000, 13.5 }, 10));
    EXPECT_FALSE(r.addPoint(1, "y", SeriesKind::Value, { 1000, 1 }, 1)) << "the endpoint's series cap";
    ASSERT_EQ(r.series.size(), 2u);
    EXPECT_EQ(r.series[0].points.size(), 2u);
    EXPECT_EQ(r.series[1].label(), "x{a=\"b\"} p99");
    auto back = scrapeRecordFromJson(scrapeRecordToJson(r));
    ASSERT_TRUE(back.ok()) << back.error();
    EXPECT_EQ(*back, r);
    EXPECT_FALSE(scrapeRecordFromJson(nlohmann::json::parse(R"({"endpoints":[],"series":[{"endpoint":"z"}]})")).ok());
}
