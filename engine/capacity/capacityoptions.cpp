#include "capacity/capacityoptions.h"

#include "parse/quantity.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace wb {
namespace {

Result<double> readRatePerS(const std::string& text)
{
    std::string number = text;
    if (number.size() > 2 && number.compare(number.size() - 2, 2, "/s") == 0) number.resize(number.size() - 2);
    // Rates below 1 req/s are allowed ("0.5"); parseCount takes the rest ("10k", "1.5M").
    char* end = nullptr;
    const double plain = std::strtod(number.c_str(), &end);
    if (!number.empty() && end && *end == '\0' && std::isfinite(plain)) {
        if (plain <= 0 || plain > 100e6) return Error { "'" + text + "': give a rate above 0 and up to 100M/s" };
        return plain;
    }
    auto n = parseCount(number);
    if (!n) return Error { n.error() };
    if (*n == 0 || *n > 100'000'000) return Error { "'" + text + "': give a rate above 0 and up to 100M/s" };
    return static_cast<double>(*n);
}

Result<uint64_t> readDuration(const std::string& text, uint64_t lowUs)
{
    auto us = parseDurationUs(text);
    if (!us) return Error { us.error() };
    if (*us < lowUs) return Error { "'" + text + "' is shorter than " + durationText(lowUs) };
    return *us;
}

Result<unsigned> readSmallCount(const std::string& text, unsigned low, unsigned high)
{
    auto n = parseCount(text);
    if (!n) return Error { n.error() };
    if (*n < low || *n > high) return Error { fmt::format("'{}': give {} to {}", text, low, high) };
    return static_cast<unsigned>(*n);
}

template<double CapacityOptions::*Member> Status readRateMember(CapacityOptions& o, const std::string& text)
{
    auto r = readRatePerS(text);
    if (!r) return Error { r.error() };
    o.*Member = *r;
    return {};
}

template<double CapacityOptions::*Member> std::string rateMemberText(const CapacityOptions& o)
{
    return o.*Member > 0 ? rateText(o.*Member) : std::string();
}

template<uint64_t CapacityOptions::*Member, uint64_t LOW_US>
Status readDurationMember(CapacityOptions& o, const std::string& text)
{
    auto us = readDuration(text, LOW_US);
    if (!us) return Error { us.error() };
    o.*Member = *us;
    return {};
}

template<uint64_t CapacityOptions::*Member> std::string durationMemberText(const CapacityOptions& o)
{
    return durationText(o.*Member);
}

template<unsigned CapacityOptions::*Member, unsigned LOW, unsigned HIGH>
Status readCountMember(CapacityOptions& o, const std::string& text)
{
    auto n = readSmallCount(text, LOW, HIGH);
    if (!n) return Error { n.error() };
    o.*Member = *n;
    return {};
}

template<unsigned CapacityOptions::*Member> std::string countMemberText(const CapacityOptions& o)
{
    return std::to_string(o.*Member);
}

constexpr CapacityOption OPTIONS[] = {
    { "from", "--from",
        "The first trial's rate (default: an eighth of what the connections carry at the probe's latency)",
        readRateMember<&CapacityOptions::fromPerS>, rateMemberText<&CapacityOptions::fromPerS> },
    { "to", "--to", "The highest rate tried: passing there reports 'at least' it",
        readRateMember<&CapacityOptions::toPerS>, rateMemberText<&CapacityOptions::toPerS> },
    { "min", "--min", "The lowest rate tried: failing there reports that the target fails even there",
        readRateMember<&CapacityOptions::minPerS>, rateMemberText<&CapacityOptions::minPerS> },
    { "trial", "--trial", "Length of a trial while the bracket is wide",
        readDurationMember<&CapacityOptions::trialUs, 100'000>, durationMemberText<&CapacityOptions::trialUs> },
    { "final", "--final", "Length of a trial once the bracket is within a few percent",
        readDurationMember<&CapacityOptions::finalUs, 100'000>, durationMemberText<&CapacityOptions::finalUs> },
    { "repeat", "--repeat", "Final trials of each rate at the boundary",
        readCountMember<&CapacityOptions::repeat, 1, 100>, countMemberText<&CapacityOptions::repeat> },
    { "may_fail", "--may-fail", "Of the repeats, how many may fail and the rate still passes",
        readCountMember<&CapacityOptions::mayFail, 0, 99>, countMemberText<&CapacityOptions::mayFail> },
    { "precision", "--precision", "Stop when the bracket is this narrow: upper / lower - 1, in percent (2 or 2%)",
        [](CapacityOptions& o, const std::string& text) -> Status {
            std::string number = text;
            if (!number.empty() && number.back() == '%') number.pop_back();
            char* end = nullptr;
            const double pct = std::strtod(number.c_str(), &end);
            if (number.empty() || !end || *end != '\0' || !std::isfinite(pct) || pct < 0.1 || pct > 100)
                return Error { "'" + text + "': give a percentage from 0.1 to 100" };
            o.precision = pct / 100;
            return {};
        },
        [](const CapacityOptions& o) { return fmt::format("{:g}%", o.precision * 100); } },
    { "budget", "--budget", "Stop when the next trial would go past this much time; the bracket is then said as it is",
        readDurationMember<&CapacityOptions::budgetUs, 1'000'000>, durationMemberText<&CapacityOptions::budgetUs> },
};

} // namespace

Status CapacityOptions::validate() const
{
    if (minPerS > toPerS)
        return Error { fmt::format("--min {} is above --to {}", rateText(minPerS), rateText(toPerS)) };
    if (fromPerS > 0 && (fromPerS < minPerS || fromPerS > toPerS))
        return Error { fmt::format(
            "--from {} is outside --min {} .. --to {}", rateText(fromPerS), rateText(minPerS), rateText(toPerS)) };
    if (mayFail >= repeat)
        return Error { fmt::format("--may-fail {} must be below --repeat {}: a rate needs one pass", mayFail, repeat) };
    if (finalUs < trialUs) return Error { "--final is shorter than --trial: the final trials are the long ones" };
    return {};
}

std::span<const CapacityOption> capacityOptions()
{
    return OPTIONS;
}

double suggestedFromPerS(unsigned connections, double probeLatencyUs, const CapacityOptions& o)
{
    double rate = o.minPerS;
    if (probeLatencyUs > 0 && connections > 0) rate = connections * 1e6 / probeLatencyUs / 8;
    rate = std::clamp(rate, o.minPerS, o.toPerS);
    if (rate >= 10) { // two significant digits: a round number the user can repeat
        const double scale = std::pow(10.0, std::floor(std::log10(rate)) - 1);
        rate = std::max(o.minPerS, std::floor(rate / scale) * scale);
    }
    return rate;
}

std::string rateText(double perS)
{
    if (perS >= 1000 && std::fmod(perS, 1000) == 0) return fmt::format("{:g}k", perS / 1000);
    if (perS >= 100) return fmt::format("{:.0f}", perS);
    return fmt::format("{:g}", std::round(perS * 100) / 100);
}

} // namespace wb
