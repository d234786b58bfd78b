// Series-parallel reduction: the runtime distribution of a series-parallel model, computed by
// folding its decomposition tree with the distributions library (convolution for series,
// product of CDFs for parallel, powers for the compressed nodes, mixtures for branches).
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "distributions/distribution.hpp"
#include "graph/series_parallel.hpp"
#include "graph/sp_tree.hpp"
#include "graph/task_graph.hpp"
#include "solvers/result.hpp"

namespace solvers {

struct SeriesParallelOptions {
  // The numerical grid used where no closed form is exact (see distributions::GridOptions).
  distributions::GridOptions grid;
  // Keep the whole runtime distribution in the result. Without it only the mean and its
  // bracket are computed, and sums and mixtures above the last maximum are reduced on their
  // children's means and brackets alone (exact: the mean is linear), which spares the FFT
  // powers over iterations.
  bool keep_distribution = true;
  // Levels in (0, 1), ascending, of the quantiles to report (Result::quantiles), each with the
  // bracket its lower and upper lattices give (docs/methods.md, "Quantiles"). Asking for any
  // reduces the root's distribution even without keep_distribution (after the mean, which does
  // not change); a distribution that overflows the grid leaves the quantiles empty, said in
  // Result::detail.
  std::vector<double> quantiles;

  bool IsValid(std::string* why) const;
};

// Thrown by the task-graph overload when the graph is not series-parallel.
class NotSeriesParallel : public std::invalid_argument {
 public:
  explicit NotSeriesParallel(graph::NonSeriesParallel residual);
  const graph::NonSeriesParallel& residual() const { return residual_; }

 private:
  graph::NonSeriesParallel residual_;
};

// Reduces the tree. The result's method is Approximate; [lower, upper] is the discretisation
// bracket of the mean (lower == upper when every step had an exact closed form). Throws
// std::invalid_argument for invalid options.
Result solve_series_parallel(const graph::SpTree& tree, const SeriesParallelOptions& options);

// The q-quantile of `d` for each level: the estimate is distributions::quantile (the central
// estimate of a grid, the exact inverse of a closed form) and [lower, upper] contains the
// q-quantile of the law the grid brackets: quantiles of the lower and upper lattices at levels
// q -/+ delta, widened by slack / delta (the best of a few delta). Exact closed forms give
// lower == upper == estimate.
std::vector<Quantile> distribution_quantiles(const distributions::Distribution& d, const std::vector<double>& levels);

// Recognises the graph first; throws NotSeriesParallel with the offending subgraph when it is
// not series-parallel.
Result solve_series_parallel(const graph::TaskGraph& graph, const SeriesParallelOptions& options);

}  // namespace solvers
