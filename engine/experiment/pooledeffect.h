#pragma once
// The verdict the cells cannot give alone: one effect per variant, pooled over every cell (group x level) of an
// experiment or study. A fixed-effect model on ln(req/s), y = alpha_cell + beta_variant + e, fitted by least squares
// (cells may be unbalanced), with the within-cell residual variance pooled over every cell and target; the interval is
// exp(beta +- t se(beta)). Beside it, the interaction F-test of the variant's effect per cell against the common one:
// where p < 0.05 the effect is not common and the pooled figure is no verdict. The formulas: docs/EXPERIMENTS.md,
// "Pooled over the cells".

#include "experiment/experimentstats.h"

#include <cstddef>
#include <string>
#include <vector>

namespace wb {

struct ExperimentResults;

/// One run's value in the model: its cell, its variant (-1 = the cell's baseline), ln(req/s).
struct PooledObservation
{
    size_t cell = 0;
    int variant = -1;
    double logValue = 0;
};

struct PooledEffect
{
    int variant = 0; ///< index as given to fitPooledEffects() (the plan's target for pooledEffects())
    std::string name; ///< filled by pooledEffects()
    size_t cells = 0; ///< cells with the variant and the baseline
    size_t runs = 0; ///< the variant's runs used
    RatioEstimate ratio; ///< exp(beta) with its t interval; df = the pooled within-cell df
    double interactionF = RatioEstimate::NOT_KNOWN; ///< NaN with one cell, or no within-cell df
    double interactionDf = 0; ///< k - 1
    double interactionP = RatioEstimate::NOT_KNOWN;
    /// The effect differs between cells (interaction p < 0.05).
    bool notCommon() const { return interactionP < 0.05; }
    /// "pooled over 6 cells: NodePort is 4.1% slower than NEG (CI 2.3-5.9%); interaction F(5, 12) = 0.81, p = 0.56",
    /// or "... the effect is not common to the cells (interaction F(...) = ..., p = ...): no pooled verdict".
    std::string verdict;
};

/// The pooled model fitted to observations (cells without a baseline run are left out).
/// One entry per variant that shares a cell with a baseline run, in variant order.
std::vector<PooledEffect> fitPooledEffects(
    const std::vector<PooledObservation>& observations, double confidence = 0.95);

/// The pooled line per variant of an experiment or study with more than one cell (group x level);
/// empty otherwise. Values by the results' metric.
std::vector<PooledEffect> pooledEffects(const ExperimentResults& results);

} // namespace wb
