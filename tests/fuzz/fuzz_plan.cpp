// libFuzzer target for an experiment plan as a user's file gives it (`experiment PLAN`,
// the GUI's plan import) and a study's stored definition: parseExperimentPlan() with every
// key (the load's backend_from / upstream_time specs and the run metrics included) and
// studySpecFromJson(). Checked:
//   - nothing crashes, traps on undefined behaviour, or throws past its caller;
//   - a plan that parses writes a canonical form that parses again to the same canonical
//     form (what the session stores is what a resume runs);
//   - a study definition that parses writes back one that parses to the same;
//   - the text as a run's stored configuration (what a session file from anyone holds) goes
//     through the HTML report in bounded space: the page is UTF-8 and grows by at most a few
//     times the text's own size, however deep the text nests.
// A violation traps. A plan naming a request-mix file reads it: the corpus names none.

#include "common/utf8.h"
#include "experiment/experimentplan.h"
#include "experiment/htmlreport.h"
#include "experiment/study.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace {

void check(bool ok)
{
    if (!ok) __builtin_trap();
}

} // namespace

std::string reportOfConfiguration(const std::string& configJson)
{
    wb::ExperimentResults results;
    wb::RunRecord run;
    run.id = 1;
    run.configJson = configJson;
    results.runs.push_back(run);
    return wb::formatHtmlReport(results);
}

void checkStoredConfiguration(const std::string& text)
{
    static const size_t empty = reportOfConfiguration("{}").size();
    const std::string page = reportOfConfiguration(text);
    check(wb::isValidUtf8(page));
    // What the report shows of a configuration is the text as stored or indented up to 256 KiB,
    // each byte escaped as at most 6 ("&quot;"): never a size that grows with the depth.
    check(page.size() <= empty + 6 * (256 * 1024 + text.size() + 100));
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    checkStoredConfiguration(text);
    // A mix file is read from disk: not the fuzzer's business, and not a path it should invent.
    if (text.find("\"requests\"") != std::string::npos) return 0;
    if (auto plan = wb::parseExperimentPlan(text)) {
        const std::string canonical = wb::experimentPlanToJson(*plan);
        auto again = wb::parseExperimentPlan(canonical);
        check(again.ok());
        check(wb::experimentPlanToJson(*again) == canonical);
        check(again->metrics == plan->metrics);
    }
    if (auto spec = wb::studySpecFromJson(text)) {
        auto again = wb::studySpecFromJson(wb::studySpecToJson(*spec));
        check(again.ok());
        check(wb::studySpecToJson(*again) == wb::studySpecToJson(*spec));
    }
    return 0;
}
