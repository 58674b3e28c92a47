#!/usr/bin/env python3
"""Reference values for experiment_stats_test, computed independently of the
C++ code: the statistics module for mean and standard deviation, Simpson
integration of the t density plus bisection for the quantiles, and bisection on
Fieller's inequality (not its closed-form roots) for the ratio interval.
Prints one JSON document on stdout.

With an argument, a JSON list of {"baseline": [...], "other": [...]}, it computes
those datasets instead of its own (study_cli_test passes a study's cells)."""
import json
import math
import statistics
import sys

DATASETS = [
    # A clear difference, three repetitions each (throughput-like numbers).
    {"baseline": [48210.3, 47998.1, 48502.7], "other": [46234.0, 46101.5, 46420.9]},
    # Overlapping: no significant difference.
    {"baseline": [100.0, 110.0], "other": [95.0, 120.0]},
    # Unequal sizes and variances, the other side higher.
    {"baseline": [10.2, 9.8, 10.5, 10.1, 9.9], "other": [12.0, 11.5, 12.8]},
    # A proxied target: two repetitions each, much slower.
    {"baseline": [21000.0, 22500.0], "other": [9100.0, 9600.0]},
    # A baseline too noisy for a bounded interval.
    {"baseline": [1.0, 30.0], "other": [5.0, 6.0]},
]
QUANTILES = [(0.975, 1.0), (0.975, 2.0), (0.975, 4.0), (0.95, 7.5), (0.995, 3.3), (0.9, 25.0), (0.975, 1.37)]


def t_pdf(x, df):
    log_c = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)
    return math.exp(log_c - (df + 1) / 2 * math.log1p(x * x / df))


def t_cdf(t, df, steps=4000):
    # Simpson's rule on [0, |t|]; the density is smooth, so this is accurate to ~1e-12.
    if t == 0:
        return 0.5
    a, b = 0.0, abs(t)
    h = (b - a) / steps
    total = t_pdf(a, df) + t_pdf(b, df)
    for i in range(1, steps):
        total += (4 if i % 2 else 2) * t_pdf(a + i * h, df)
    half = total * h / 3
    return 0.5 + half if t > 0 else 0.5 - half


def t_quantile(p, df):
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < p:
        lo, hi = hi, hi * 2
    for _ in range(60):
        mid = (lo + hi) / 2
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def fieller(baseline, other, confidence=0.95):
    ma, mb = statistics.mean(baseline), statistics.mean(other)
    va = statistics.variance(baseline) / len(baseline)
    vb = statistics.variance(other) / len(other)
    r = mb / ma
    df = (vb + r * r * va) ** 2 / (vb ** 2 / (len(other) - 1) + r ** 4 * va ** 2 / (len(baseline) - 1))
    t = t_quantile(0.5 + confidence / 2, df)

    def inside(rho):  # rho belongs to the interval when this is <= 0
        return (mb - rho * ma) ** 2 - t * t * (vb + rho * rho * va)

    if ma * ma - t * t * va <= 0:
        return {"ratio": r, "df": df, "t": t, "low": None, "high": None}

    def edge(direction):
        near, step = r, abs(r) * 0.01 + 1e-12
        far = r + direction * step
        while inside(far) <= 0:
            step *= 2
            far = r + direction * step
        for _ in range(200):
            mid = (near + far) / 2
            if inside(mid) <= 0:
                near = mid
            else:
                far = mid
        return (near + far) / 2

    return {"ratio": r, "df": df, "t": t, "low": edge(-1), "high": edge(1)}


def main():
    out = {"datasets": [], "quantiles": []}
    datasets = json.loads(sys.argv[1]) if len(sys.argv) > 1 else DATASETS
    for d in datasets:
        entry = dict(d)
        for side in ("baseline", "other"):
            entry[side + "_mean"] = statistics.mean(d[side])
            entry[side + "_stdev"] = statistics.stdev(d[side])
        entry.update(fieller(d["baseline"], d["other"]))
        out["datasets"].append(entry)
    for p, df in QUANTILES:
        out["quantiles"].append({"p": p, "df": df, "t": t_quantile(p, df)})
    print(json.dumps(out))


if __name__ == "__main__":
    main()
