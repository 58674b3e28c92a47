#pragma once
// Student's t distribution without Boost: the CDF through the regularized
// incomplete beta function (a continued fraction), the quantile by bisection
// on the CDF. Degrees of freedom may be fractional (Welch-Satterthwaite).

namespace wb {

/// I_x(a, b) for a, b > 0 and 0 <= x <= 1, to about 1e-14 relative.
double regularizedIncompleteBeta(double a, double b, double x);

/// P(T <= t) for T ~ Student's t with df > 0 degrees of freedom.
double studentTCdf(double t, double df);

/// The t with P(T <= t) = p, for 0 < p < 1 and df > 0 (NaN outside). Accurate
/// to about 1e-10 relative: far below what a confidence interval needs.
double studentTQuantile(double p, double df);

} // namespace wb
