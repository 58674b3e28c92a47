// libFuzzer target for the Prometheus text / OpenMetrics parser (what --scrape reads from the
// network) and the derivation behind it. Checked:
//   - the limits hold: samples kept, labels per sample, names and label values, warnings;
//   - every warning is one line;
//   - a kept sample with a plain name prints (seriesKey) as a line that parses back to itself;
//   - deriving a window from the input against itself (half a second later) gives finite values,
//     every rate 0 (nothing moved) and every share within 0-100;
//   - through to the writers, with every kept sample a series of a run's record: its JSON
//     (common/jsontext.h) never throws, is UTF-8 with no control byte a terminal acts on, and
//     reads back to the same series; its text report as the terminal gets it (terminalText) and
//     its CSV are UTF-8, the terminal's with no control byte but line breaks and tabs.
// A violation traps.

#include "common/jsontext.h"
#include "common/text.h"
#include "prometheus/exposition/derive.h"
#include "prometheus/exposition/exposition.h"
#include "prometheus/exposition/presets.h"
#include "prometheus/exposition/scraperecord.h"
#include "prometheus/exposition/scrapetext.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace {

void check(bool ok)
{
    if (!ok) __builtin_trap();
}

void checkWriters(const wb::Exposition& e)
{
    wb::ScrapeRecord record;
    record.endpoints.push_back({ "e", "http://e/metrics", 2, 0, e.warnings });
    bool readable = true; // names the record's reader keeps whole (it cuts text past 64 KiB)
    for (const wb::MetricSample& s : e.samples) {
        const std::string name = wb::seriesKey(s.name, s.labels);
        readable = readable && name.size() <= 64 * 1024;
        record.addPoint(0, name, wb::SeriesKind::Value, { 1, std::isfinite(s.value) ? s.value : 0 }, 1000);
    }
    const std::string json = wb::jsonText(wb::scrapeRecordToJson(record));
    check(wb::isTerminalText(json));
    auto parsed = wb::parseJsonText<nlohmann::json>(json);
    check(parsed.ok());
    auto back = wb::scrapeRecordFromJson(*parsed);
    check(back.ok());
    if (readable) check(back->series == record.series);
    check(wb::isTerminalText(wb::terminalText(wb::formatScrapeText(record))));
    check(wb::isValidUtf8(wb::scrapeCsvRows(1, 0, record)));
}

bool plainName(const std::string& name)
{
    if (name.empty()) return false;
    for (size_t i = 0; i < name.size(); ++i) {
        const char c = name[i];
        const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
        if (!letter && !(i > 0 && c >= '0' && c <= '9')) return false;
    }
    return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    wb::ExpositionLimits limits;
    limits.maxSamples = 500;
    limits.maxBytes = 1 << 20;
    const wb::Exposition e = wb::parseExposition(text, {}, limits);
    check(e.samples.size() <= limits.maxSamples);
    check(e.warnings.size() <= limits.maxWarnings + 1);
    for (const std::string& w : e.warnings)
        check(w.find('\n') == std::string::npos);
    for (const wb::MetricSample& s : e.samples) {
        check(!s.name.empty() && s.name.size() <= limits.maxNameBytes);
        check(s.labels.size() <= limits.maxLabels);
        for (const wb::MetricLabel& l : s.labels)
            check(l.value.size() <= limits.maxLabelValueBytes && !l.name.empty());
        bool plainLabels = true;
        for (const wb::MetricLabel& l : s.labels)
            plainLabels = plainLabels && plainName(l.name);
        if (!plainName(s.name) || !plainLabels || !std::isfinite(s.value)) continue;
        const wb::Exposition again = wb::parseExposition(wb::seriesKey(s.name, s.labels) + " 1\n");
        check(again.samples.size() == 1);
        check(wb::seriesKey(again.samples[0].name, again.samples[0].labels) == wb::seriesKey(s.name, s.labels));
    }
    checkWriters(e);
    const wb::MetricSelection select(".*");
    const wb::ScrapeSnapshot before = wb::ScrapeSnapshot::of(0, e);
    const wb::ScrapeSnapshot after = wb::ScrapeSnapshot::of(500, e);
    for (const wb::DerivedValue& v : select.derive(&before, after)) {
        check(std::isfinite(v.value));
        if (v.kind == wb::SeriesKind::Rate) check(v.value == 0);
        if (v.kind == wb::SeriesKind::Percent) check(v.value >= 0 && v.value <= 100);
    }
    return 0;
}
