#include "experiment/studentt.h"

#include <cmath>
#include <limits>
#include <math.h> // lgamma_r: std::lgamma writes the global signgam, a data race off the main thread

namespace wb {

namespace {

double logGamma(double x)
{
    int sign = 0;
    return ::lgamma_r(x, &sign);
}

// The continued fraction of I_x(a, b) (Abramowitz & Stegun 26.5.8), evaluated
// with the modified Lentz method. It converges fast for x < (a + 1) / (a + b + 2);
// the caller uses the symmetry I_x(a, b) = 1 - I_{1-x}(b, a) otherwise.
double betaContinuedFraction(double a, double b, double x)
{
    constexpr int MAX_TERMS = 500;
    constexpr double EPSILON = 1e-15;
    constexpr double TINY = 1e-300; // stands in for a zero denominator (Lentz)
    auto nonZero = [](double v) { return std::fabs(v) < TINY ? TINY : v; };

    double c = 1.0;
    double d = 1.0 / nonZero(1.0 - (a + b) * x / (a + 1.0));
    double f = d;
    for (int m = 1; m <= MAX_TERMS; ++m) {
        const double m2 = 2.0 * m;
        // Even step: d_{2m} = m (b - m) x / ((a + 2m - 1)(a + 2m)).
        double coefficient = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2));
        d = 1.0 / nonZero(1.0 + coefficient * d);
        c = nonZero(1.0 + coefficient / c);
        f *= c * d;
        // Odd step: d_{2m+1} = -(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1)).
        coefficient = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0));
        d = 1.0 / nonZero(1.0 + coefficient * d);
        c = nonZero(1.0 + coefficient / c);
        const double delta = c * d;
        f *= delta;
        if (std::fabs(delta - 1.0) < EPSILON) break;
    }
    return f;
}

} // namespace

double regularizedIncompleteBeta(double a, double b, double x)
{
    if (!(a > 0) || !(b > 0) || !(x >= 0) || !(x <= 1)) return std::numeric_limits<double>::quiet_NaN();
    if (x == 0 || x == 1) return x;
    // x^a (1-x)^b / B(a, b), in logs so that large a and b do not overflow.
    const double front = std::exp(a * std::log(x) + b * std::log1p(-x) - (logGamma(a) + logGamma(b) - logGamma(a + b)));
    if (x < (a + 1.0) / (a + b + 2.0)) return front * betaContinuedFraction(a, b, x) / a;
    return 1.0 - front * betaContinuedFraction(b, a, 1.0 - x) / b;
}

double studentTCdf(double t, double df)
{
    if (!(df > 0) || std::isnan(t)) return std::numeric_limits<double>::quiet_NaN();
    if (std::isinf(t)) return t > 0 ? 1.0 : 0.0;
    // P(|T| > |t|) = I_{df / (df + t^2)}(df / 2, 1 / 2).
    const double tail = 0.5 * regularizedIncompleteBeta(df / 2.0, 0.5, df / (df + t * t));
    return t > 0 ? 1.0 - tail : tail;
}

double studentTQuantile(double p, double df)
{
    if (!(p > 0) || !(p < 1) || !(df > 0)) return std::numeric_limits<double>::quiet_NaN();
    if (p == 0.5) return 0.0;
    // Symmetric: solve for the upper tail and mirror.
    if (p < 0.5) return -studentTQuantile(1.0 - p, df);
    double low = 0.0;
    double high = 1.0;
    while (studentTCdf(high, df) < p) {
        low = high;
        high *= 2.0;
        if (high > 1e300) return std::numeric_limits<double>::infinity();
    }
    // The CDF is monotonic, so bisection cannot fail; 200 halvings exhaust a double.
    for (int i = 0; i < 200 && high - low > 1e-12 * high; ++i) {
        const double mid = 0.5 * (low + high);
        (studentTCdf(mid, df) < p ? low : high) = mid;
    }
    return 0.5 * (low + high);
}

} // namespace wb
