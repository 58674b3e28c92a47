#pragma once
// What every codec of the wire library shares: the JSON type (keys kept in the
// order written, so documents read top-down), a bounded parse for untrusted
// text, typed readers that name the key that is wrong, and the histogram pair
// ("histograms": HdrHistogram V2 base64, "histogram_totals": the exact count,
// min, max and sum that encoding does not carry).
//
// Readers throw WireError (a sentence naming the problem); each codec's public
// functions catch it and return a Result, so no exception leaves the library.

#include "common/jsonfield.h"
#include "common/result.h"
#include "stats/histogram.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace wb {

using WireJson = nlohmann::ordered_json;

/// A sentence naming what is wrong with the document (common/jsonfield.h's typed readers throw it too).
using WireError = JsonFieldError;

/// Nesting deeper than this is refused before parsing: a run configuration or a loader line
/// is at most 6 deep, and a deep enough document overflows the stack of a recursive writer.
constexpr int WIRE_MAX_DEPTH = 32;

/// Parses untrusted text: throws WireError for malformed JSON or nesting past WIRE_MAX_DEPTH.
WireJson parseWireJson(std::string_view text);

/// The text of j, one line; strings are written as they are (the codecs only put valid UTF-8
/// in strings, and carry other bytes as base64).
std::string dumpWireJson(const WireJson& j, int indent = -1);

const WireJson& wireMember(const WireJson& j, const char* key);
uint64_t wireCount(const WireJson& j, const char* key);
uint64_t wireCountOr(const WireJson& j, const char* key, uint64_t otherwise);
double wireNumber(const WireJson& j, const char* key, double otherwise = 0);
int64_t wireInt(const WireJson& j, const char* key, int64_t otherwise = 0);
bool wireBool(const WireJson& j, const char* key, bool otherwise = false);
std::string wireText(const WireJson& j, const char* key);

/// One histogram of a holder's "histograms" and "histogram_totals".
struct NamedHistogram
{
    const char* key;
    const LatencyHistogram* histogram;
};
void putWireHistograms(WireJson& holder, const std::vector<NamedHistogram>& histograms);
/// The histogram under key (empty when absent); its exact totals restored and checked.
LatencyHistogram wireHistogram(const WireJson& holder, const char* key);

/// Runs f, turning WireError and JSON exceptions into an Error prefixed with `where`.
template<typename F> auto wireGuarded(F&& f, const std::string& where) -> Result<decltype(f())>
{
    try {
        return f();
    } catch (const WireError& bad) {
        return Error { where + bad.what };
    } catch (const nlohmann::json::exception& e) {
        return Error { where + "malformed JSON (" + std::string(e.what()) + ")" };
    } catch (const std::exception& e) {
        return Error { where + e.what() };
    }
}

} // namespace wb
