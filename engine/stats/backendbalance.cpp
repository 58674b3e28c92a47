#include "stats/backendbalance.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace wb {

namespace {

constexpr int GAMMA_MAX_ITERATIONS = 1000;
constexpr double GAMMA_EPSILON = 1e-15;

// P(a, x) by its series, for x < a + 1.
double lowerSeries(double a, double x)
{
    double term = 1.0 / a;
    double sum = term;
    for (int n = 1; n < GAMMA_MAX_ITERATIONS; ++n) {
        term *= x / (a + n);
        sum += term;
        if (std::fabs(term) < std::fabs(sum) * GAMMA_EPSILON) break;
    }
    return sum * std::exp(-x + a * std::log(x) - std::lgamma(a));
}

// Q(a, x) by its continued fraction (modified Lentz), for x >= a + 1.
double upperFraction(double a, double x)
{
    constexpr double tiny = std::numeric_limits<double>::min() / GAMMA_EPSILON;
    double b = x + 1.0 - a;
    double c = 1.0 / tiny;
    double d = 1.0 / b;
    double h = d;
    for (int i = 1; i < GAMMA_MAX_ITERATIONS; ++i) {
        const double an = -i * (i - a);
        b += 2.0;
        d = an * d + b;
        if (std::fabs(d) < tiny) d = tiny;
        c = b + an / c;
        if (std::fabs(c) < tiny) c = tiny;
        d = 1.0 / d;
        const double delta = d * c;
        h *= delta;
        if (std::fabs(delta - 1.0) < GAMMA_EPSILON) break;
    }
    return std::exp(-x + a * std::log(x) - std::lgamma(a)) * h;
}

} // namespace

double upperRegularizedGamma(double a, double x)
{
    if (!(a > 0) || !(x >= 0)) return std::numeric_limits<double>::quiet_NaN();
    if (x == 0) return 1.0;
    if (x < a + 1.0) return std::clamp(1.0 - lowerSeries(a, x), 0.0, 1.0);
    return std::clamp(upperFraction(a, x), 0.0, 1.0);
}

double chiSquareSurvival(double x, unsigned k)
{
    if (k == 0) return 1.0;
    return upperRegularizedGamma(k / 2.0, std::max(0.0, x) / 2.0);
}

std::vector<size_t> backendsByRequests(const BackendBreakdown& b)
{
    std::vector<size_t> order;
    for (size_t i = 0; i < b.stats.size(); ++i)
        if (b.stats[i].requests > 0) order.push_back(i);
    std::sort(order.begin(), order.end(), [&](size_t x, size_t y) {
        return b.stats[x].requests != b.stats[y].requests ? b.stats[x].requests > b.stats[y].requests
                                                          : b.names[x] < b.names[y];
    });
    return order;
}

double MeanSplit::frontDoorShare() const
{
    return responses > 0 && totalUs() > 0 ? frontDoorUs / totalUs() : std::numeric_limits<double>::quiet_NaN();
}

MeanSplit meanSplitOf(const LatencyHistogram& upstream, const LatencyHistogram& frontDoor)
{
    // Both sides hold the same responses (each that stated a time adds one value to each).
    MeanSplit s;
    s.responses = upstream.count();
    if (s.responses == 0) return s;
    s.upstreamUs = upstream.meanUs();
    s.frontDoorUs = frontDoor.empty() ? 0.0 : frontDoor.meanUs();
    return s;
}

BackendBalance backendBalanceOf(const BackendBreakdown& backends)
{
    BackendBalance b;
    std::vector<double> counts;
    for (size_t i = 0; i < backends.stats.size(); ++i) {
        if (backends.stats[i].requests == 0 || backends.names[i] == OTHER_BACKEND) continue;
        counts.push_back(static_cast<double>(backends.stats[i].requests));
        b.requests += backends.stats[i].requests;
    }
    b.backends = static_cast<unsigned>(counts.size());
    if (counts.empty()) return b;
    const double total = static_cast<double>(b.requests);
    const auto [lo, hi] = std::minmax_element(counts.begin(), counts.end());
    b.maxShare = *hi / total;
    b.minShare = *lo / total;
    b.maxMinRatio = *hi / *lo;
    const double mean = total / static_cast<double>(counts.size());
    double squares = 0;
    double chi = 0;
    for (double n : counts) {
        squares += (n - mean) * (n - mean);
        chi += (n - mean) * (n - mean) / mean;
    }
    b.cv = std::sqrt(squares / static_cast<double>(counts.size())) / mean;
    b.chiSquare = chi;
    b.degreesOfFreedom = b.backends - 1;
    b.pValue = chiSquareSurvival(chi, b.degreesOfFreedom);
    return b;
}

const char* backendEventId(BackendEvent::Kind kind)
{
    return kind == BackendEvent::Kind::Appeared ? "appeared" : "vanished";
}

std::vector<BackendEvent> backendEventsOf(const std::vector<IntervalRecord>& intervals)
{
    // The first and last intervals in which any backend was named bound the run's
    // answering: a backend missing from the first appeared later, one missing from the
    // last had vanished. Seen times are folded over all intervals.
    const IntervalRecord* first = nullptr;
    const IntervalRecord* last = nullptr;
    for (const IntervalRecord& r : intervals)
        if (!r.backends.empty()) {
            if (!first) first = &r;
            last = &r;
        }
    if (!first) return {};
    struct Seen
    {
        double firstS = -1, lastS = -1;
    };
    std::map<std::string, Seen> seen;
    for (const IntervalRecord& r : intervals)
        for (const BackendRecord& b : r.backends) {
            Seen& s = seen[b.name];
            if (b.firstSeenS >= 0 && (s.firstS < 0 || b.firstSeenS < s.firstS)) s.firstS = b.firstSeenS;
            s.lastS = std::max(s.lastS, b.lastSeenS);
        }
    auto in = [](const IntervalRecord& r, const std::string& name) {
        return std::any_of(
            r.backends.begin(), r.backends.end(), [&](const BackendRecord& b) { return b.name == name; });
    };
    std::vector<BackendEvent> events;
    for (const auto& [name, s] : seen) {
        if (name == OTHER_BACKEND) continue;
        if (!in(*first, name)) events.push_back({ BackendEvent::Kind::Appeared, name, s.firstS });
        if (!in(*last, name)) events.push_back({ BackendEvent::Kind::Vanished, name, s.lastS });
    }
    std::stable_sort(
        events.begin(), events.end(), [](const BackendEvent& a, const BackendEvent& b) { return a.atS < b.atS; });
    return events;
}

} // namespace wb
