#include "experiment/pooledeffect.h"

#include "common/format.h"
#include "common/nan.h"
#include "experiment/experimentresults.h"
#include "experiment/studentt.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <set>
#include <utility>

namespace wb {

namespace {

using Matrix = std::vector<std::vector<double>>;

// Solves A x = b for a small symmetric positive definite A (Gaussian elimination with
// partial pivoting); false when A is singular. A few dozen parameters at most.
bool solve(Matrix a, std::vector<double> b, std::vector<double>& x)
{
    const size_t n = b.size();
    for (size_t col = 0; col < n; ++col) {
        size_t pivot = col;
        for (size_t r = col + 1; r < n; ++r)
            if (std::fabs(a[r][col]) > std::fabs(a[pivot][col])) pivot = r;
        if (std::fabs(a[pivot][col]) < 1e-12) return false;
        std::swap(a[pivot], a[col]);
        std::swap(b[pivot], b[col]);
        for (size_t r = col + 1; r < n; ++r) {
            const double f = a[r][col] / a[col][col];
            for (size_t c = col; c < n; ++c)
                a[r][c] -= f * a[col][c];
            b[r] -= f * b[col];
        }
    }
    x.assign(n, 0);
    for (size_t i = n; i-- > 0;) {
        double s = b[i];
        for (size_t c = i + 1; c < n; ++c)
            s -= a[i][c] * x[c];
        x[i] = s / a[i][i];
    }
    return true;
}

// A linear model where each observation has its cell's intercept and at most one effect
// (param < 0: none, the baseline). Fits by least squares.
struct Fit
{
    bool ok = false;
    double rss = 0;
    std::vector<double> coef; ///< cells first, then effects
    Matrix xtx;
};

Fit fitModel(const std::vector<PooledObservation>& obs, const std::vector<int>& effectOf, size_t cells, size_t effects)
{
    Fit f;
    const size_t p = cells + effects;
    f.xtx.assign(p, std::vector<double>(p, 0));
    std::vector<double> xty(p, 0);
    for (size_t i = 0; i < obs.size(); ++i) {
        const size_t c = obs[i].cell;
        f.xtx[c][c] += 1;
        xty[c] += obs[i].logValue;
        if (effectOf[i] >= 0) {
            const size_t e = cells + static_cast<size_t>(effectOf[i]);
            f.xtx[e][e] += 1;
            f.xtx[c][e] += 1;
            f.xtx[e][c] += 1;
            xty[e] += obs[i].logValue;
        }
    }
    if (!solve(f.xtx, xty, f.coef)) return f;
    for (size_t i = 0; i < obs.size(); ++i) {
        double fitted = f.coef[obs[i].cell];
        if (effectOf[i] >= 0) fitted += f.coef[cells + static_cast<size_t>(effectOf[i])];
        const double r = obs[i].logValue - fitted;
        f.rss += r * r;
    }
    f.ok = true;
    return f;
}

} // namespace

std::vector<PooledEffect> fitPooledEffects(const std::vector<PooledObservation>& input, double confidence)
{
    // Only cells with a baseline run: elsewhere a variant's effect has nothing to be measured against.
    std::set<size_t> withBaseline;
    for (const PooledObservation& o : input)
        if (o.variant < 0) withBaseline.insert(o.cell);
    std::map<size_t, size_t> cellIndex; // renumbered 0..cells-1
    std::map<int, size_t> variantIndex;
    std::vector<PooledObservation> obs;
    for (const PooledObservation& o : input) {
        if (!withBaseline.count(o.cell)) continue;
        obs.push_back(o);
        cellIndex.emplace(o.cell, 0);
        if (o.variant >= 0) variantIndex.emplace(o.variant, 0);
    }
    size_t k = 0;
    for (auto& [cell, i] : cellIndex)
        i = k++;
    k = 0;
    for (auto& [variant, i] : variantIndex)
        i = k++;
    for (PooledObservation& o : obs)
        o.cell = cellIndex[o.cell];
    const size_t cells = cellIndex.size();

    // Within-cell variance, pooled: sums of squares about each (cell, target) mean.
    std::map<std::pair<size_t, int>, std::pair<double, size_t>> groups; // sum, n
    for (const PooledObservation& o : obs) {
        auto& g = groups[{ o.cell, o.variant }];
        g.first += o.logValue;
        g.second += 1;
    }
    double within = 0;
    for (const PooledObservation& o : obs) {
        const auto& g = groups[{ o.cell, o.variant }];
        const double d = o.logValue - g.first / static_cast<double>(g.second);
        within += d * d;
    }
    const double df = static_cast<double>(obs.size()) - static_cast<double>(groups.size());
    const double s2 = df > 0 ? within / df : NaN;

    // The common-effect model.
    std::vector<int> common(obs.size(), -1);
    for (size_t i = 0; i < obs.size(); ++i)
        if (obs[i].variant >= 0) common[i] = static_cast<int>(variantIndex[obs[i].variant]);
    const Fit fit = fitModel(obs, common, cells, variantIndex.size());

    std::vector<PooledEffect> out;
    for (const auto& [variant, vi] : variantIndex) {
        PooledEffect e;
        e.variant = variant;
        e.ratio.confidence = confidence;
        std::set<size_t> itsCells;
        for (const PooledObservation& o : obs)
            if (o.variant == variant) {
                itsCells.insert(o.cell);
                ++e.runs;
            }
        e.cells = itsCells.size();
        if (!fit.ok) {
            out.push_back(e);
            continue;
        }
        const double beta = fit.coef[cells + vi];
        e.ratio.ratio = std::exp(beta);
        if (df > 0) {
            // [(X'X)^-1]_beta,beta: solve X'X u = unit vector.
            std::vector<double> unit(cells + variantIndex.size(), 0), u;
            unit[cells + vi] = 1;
            if (solve(fit.xtx, unit, u)) {
                const double se = std::sqrt(s2 * u[cells + vi]);
                const double t = studentTQuantile(0.5 + confidence / 2.0, df);
                e.ratio.df = df;
                e.ratio.low = std::exp(beta - t * se);
                e.ratio.high = std::exp(beta + t * se);
            }
        }
        // The variant's effect per cell instead of common: one effect per (variant, cell).
        if (e.cells > 1 && df > 0 && s2 > 0) {
            std::vector<int> split = common;
            std::map<size_t, int> perCell;
            const int extra = static_cast<int>(variantIndex.size());
            for (size_t c : itsCells)
                perCell[c] = perCell.empty() ? static_cast<int>(vi) : extra + static_cast<int>(perCell.size()) - 1;
            for (size_t i = 0; i < obs.size(); ++i)
                if (obs[i].variant == variant) split[i] = perCell[obs[i].cell];
            const Fit per = fitModel(obs, split, cells, variantIndex.size() + e.cells - 1);
            if (per.ok) {
                e.interactionDf = static_cast<double>(e.cells - 1);
                e.interactionF = std::max(0.0, fit.rss - per.rss) / e.interactionDf / s2;
                // P(F > f) for F(d1, d2) = I_{d2 / (d2 + d1 f)}(d2 / 2, d1 / 2).
                e.interactionP = regularizedIncompleteBeta(
                    df / 2.0, e.interactionDf / 2.0, df / (df + e.interactionDf * e.interactionF));
            }
        }
        out.push_back(e);
    }
    return out;
}

std::vector<PooledEffect> pooledEffects(const ExperimentResults& results)
{
    std::map<int64_t, const RunRecord*> byId;
    for (const RunRecord& r : results.runs)
        byId[r.id] = &r;
    std::map<std::pair<std::string, size_t>, size_t> cellOf;
    std::vector<PooledObservation> obs;
    std::map<int, std::string> names;
    std::set<std::string> baselineNames;
    for (const ExperimentRow& row : results.rows) {
        const size_t cell = cellOf.emplace(std::make_pair(row.group, row.cell), cellOf.size()).first->second;
        const int variant = row.baseline ? -1 : static_cast<int>(row.target);
        if (row.baseline)
            baselineNames.insert(row.targetName);
        else
            names[variant] = row.targetName;
        for (int64_t id : row.runIds) {
            const auto it = byId.find(id);
            if (it == byId.end()) continue;
            const double v = rateOf(*it->second, results.metric);
            if (v > 0) obs.push_back({ cell, variant, std::log(v) });
        }
    }
    if (cellOf.size() < 2) return {};
    const std::string baseline = baselineNames.size() == 1 ? *baselineNames.begin() : "the baseline";
    std::vector<PooledEffect> out = fitPooledEffects(obs);
    for (PooledEffect& e : out) {
        e.name = names[e.variant];
        std::string interaction;
        if (!std::isnan(e.interactionF))
            interaction = "interaction F(" + printedNumber("%.0f", e.interactionDf) + ", "
                + printedNumber("%.0f", e.ratio.df) + ") = " + printedNumber("%.2f", e.interactionF)
                + ", p = " + printedNumber("%.2g", e.interactionP);
        const std::string over = " over " + std::to_string(e.cells) + (e.cells == 1 ? " cell" : " cells");
        if (e.notCommon()) {
            e.verdict
                = "the effect of " + e.name + " is not common to the cells (" + interaction + "): no pooled verdict";
            continue;
        }
        e.verdict = "pooled" + over + ": " + ratioVerdict(e.ratio, e.name, baseline);
        if (!interaction.empty()) e.verdict += "; " + interaction;
    }
    return out;
}

} // namespace wb
