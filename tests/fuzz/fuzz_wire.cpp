// libFuzzer target for the wire library's decoders (wire/): what a loader, a pod, an
// agent or a file from another machine sends. The input is read as a run configuration,
// a loader stream line, an interval record and an end-of-run record. Checked:
//   - nothing throws, crashes or recurses without bound (deep nesting is refused);
//   - a refusal is one non-empty sentence;
//   - a configuration that reads is written to a text that reads back to the same text
//     (bodies and header values byte for byte);
//   - an interval or an end that reads is written and read back to the same record.
// A violation traps.

#include "wire/configcodec.h"
#include "wire/intervalcodec.h"
#include "wire/loaderread.h"
#include "wire/runendcodec.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace {

void check(bool ok)
{
    if (!ok) __builtin_trap();
}

template<typename T> void checkRefusal(const wb::Result<T>& r)
{
    if (!r) check(!r.error().empty());
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);

    auto config = wb::runConfigFromJson(text);
    checkRefusal(config);
    if (config) {
        const std::string once = wb::runConfigToJson(*config);
        auto again = wb::runConfigFromJson(once);
        check(again.ok());
        check(wb::runConfigToJson(*again) == once);
        check(again->request.body == config->request.body);
        check(again->request.headers.size() == config->request.headers.size());
        for (size_t i = 0; i < config->request.headers.size(); ++i)
            check(again->request.headers[i].value == config->request.headers[i].value);
    }

    checkRefusal(wb::parseLoaderLine(text));

    auto interval = wb::parseIntervalJson(text);
    checkRefusal(interval);
    if (interval) {
        wb::RunConfig open;
        open.ratePerS = 1;
        open.request.url = *wb::parseUrl("https://a/");
        auto back = wb::parseIntervalJson(wb::formatIntervalJson(*interval, open));
        check(back.ok());
        check(back->requests == interval->requests && back->errors == interval->errors);
        check(back->latencyHistogram == interval->latencyHistogram);
        check(back->statusCodes.size() == interval->statusCodes.size());
        check(back->loaderCost == interval->loaderCost && back->inFlight == interval->inFlight);
    }

    auto end = wb::parseRunEndJson(text);
    checkRefusal(end);
    if (end) {
        auto back = wb::parseRunEndJson(wb::dumpWireJson(wb::runEndToJson(*end, 0)));
        check(back.ok());
        check(back->entries.size() == end->entries.size());
        check(back->warmupRequests == end->warmupRequests && back->reconnects == end->reconnects);
    }
    return 0;
}
