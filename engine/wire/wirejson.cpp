#include "wire/wirejson.h"

#include "common/jsonint.h"
#include "common/jsontext.h"
#include "stats/hdrcodec.h"

#include <fmt/format.h>

namespace wb {

WireJson parseWireJson(std::string_view text)
{
    // The bound protects whatever walks the tree recursively afterwards (dump(), comparisons);
    // no format of ours nests anywhere near it.
    if (!jsonDepthWithin(text, WIRE_MAX_DEPTH))
        throw WireError { fmt::format("nested deeper than {} levels", WIRE_MAX_DEPTH) };
    auto parsed = parseJsonText<WireJson>(text, WIRE_MAX_DEPTH);
    if (!parsed) throw WireError { "malformed JSON (" + parsed.error() + ")" };
    return std::move(*parsed);
}

std::string dumpWireJson(const WireJson& j, int indent)
{
    // Bytes that must travel exactly (bodies, header values) are base64 when not UTF-8, so only
    // human text (an error message from a peer) can meet the replacement here.
    return jsonText(j, indent);
}

const WireJson& wireMember(const WireJson& j, const char* key)
{
    if (!j.is_object() || !j.contains(key)) throw WireError { fmt::format("'{}' is missing", key) };
    return j.at(key);
}

uint64_t wireCount(const WireJson& j, const char* key)
{
    const WireJson& v = wireMember(j, key);
    if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<int64_t>() >= 0))
        throw WireError { fmt::format("'{}' must be a whole number", key) };
    return v.get<uint64_t>();
}

uint64_t wireCountOr(const WireJson& j, const char* key, uint64_t otherwise)
{
    return j.is_object() && j.contains(key) && !j.at(key).is_null() ? wireCount(j, key) : otherwise;
}

double wireNumber(const WireJson& j, const char* key, double otherwise)
{
    if (!j.is_object() || !j.contains(key) || j.at(key).is_null()) return otherwise;
    if (!j.at(key).is_number()) throw WireError { fmt::format("'{}' must be a number", key) };
    return j.at(key).get<double>();
}

int64_t wireInt(const WireJson& j, const char* key, int64_t otherwise)
{
    if (!j.is_object() || !j.contains(key) || j.at(key).is_null()) return otherwise;
    const WireJson& v = j.at(key);
    if (const auto n = jsonInt64(v)) return *n;
    throw WireError { fmt::format("'{}' must be a whole number", key) };
}

bool wireBool(const WireJson& j, const char* key, bool otherwise)
{
    if (!j.is_object() || !j.contains(key) || j.at(key).is_null()) return otherwise;
    if (!j.at(key).is_boolean()) throw WireError { fmt::format("'{}' must be true or false", key) };
    return j.at(key).get<bool>();
}

std::string wireText(const WireJson& j, const char* key)
{
    if (!j.is_object() || !j.contains(key) || j.at(key).is_null()) return {};
    if (!j.at(key).is_string()) throw WireError { fmt::format("'{}' must be a string", key) };
    return j.at(key).get<std::string>();
}

void putWireHistograms(WireJson& holder, const std::vector<NamedHistogram>& histograms)
{
    WireJson encoded = WireJson::object();
    WireJson totals = WireJson::object();
    for (const NamedHistogram& n : histograms) {
        const LatencyHistogram& h = *n.histogram;
        encoded[n.key] = encodeHdrBase64(h);
        totals[n.key] = WireJson { { "count", h.count() }, { "min_us", h.minUs() }, { "max_us", h.maxUs() },
            { "sum_us", h.sumUs() } };
    }
    holder["histograms"] = std::move(encoded);
    holder["histogram_totals"] = std::move(totals);
}

LatencyHistogram wireHistogram(const WireJson& holder, const char* key)
{
    if (!holder.contains("histograms")) throw WireError { "'histograms' is missing (written by an older wrkbench?)" };
    const WireJson& all = holder.at("histograms");
    if (!all.is_object() || !all.contains(key)) return {};
    if (!all.at(key).is_string()) throw WireError { fmt::format("histograms.{} must be a string", key) };
    auto h = decodeHdrBase64(all.at(key).get<std::string>());
    if (!h) throw WireError { fmt::format("histograms.{}: {}", key, h.error()) };
    const WireJson totals = holder.contains("histogram_totals") ? holder.at("histogram_totals") : WireJson::object();
    if (totals.is_object() && totals.contains(key)) {
        const WireJson& t = totals.at(key);
        if (wireCount(t, "count") != h->count())
            throw WireError { fmt::format(
                "histogram_totals.{}.count is {} but the histogram holds {}", key, wireCount(t, "count"), h->count()) };
        if (!h->setExactTotals(wireCount(t, "min_us"), wireCount(t, "max_us"), wireCount(t, "sum_us")))
            throw WireError { fmt::format("histogram_totals.{} does not fit its histogram", key) };
    }
    return std::move(*h);
}

} // namespace wb
