#include "solvers/series_parallel_solver.hpp"
#include "distributions/errors.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <span>
#include <optional>
#include <vector>

namespace solvers {

bool SeriesParallelOptions::IsValid(std::string* why) const {
  return grid.IsValid(why) && valid_quantile_levels(quantiles, why);
}

NotSeriesParallel::NotSeriesParallel(graph::NonSeriesParallel residual)
    : std::invalid_argument(residual.description), residual_(std::move(residual)) {}

namespace {

// The value of one tree node: its distribution where an ancestor needs it, otherwise only its
// mean and the bracket of its mean. Sums and mixtures need no distribution for their mean
// (it is linear), so a series of iterations over the maxima of processors costs one maximum
// per distinct iteration, not an FFT power over all of them.
struct Value {
  std::optional<distributions::Distribution> distribution;
  double mean = 0.0;
  distributions::Bracket bracket{0.0, 0.0};
};

Value from_distribution(distributions::Distribution d) {
  Value value;
  value.mean = distributions::mean(d);
  value.bracket = distributions::mean_bracket(d);
  value.distribution = std::move(d);
  return value;
}

// Which nodes need their whole distribution: the root if asked for, every maximum (its mean
// is not a function of its children's means), the children of maxima, and the children of
// sums and mixtures whose own distribution is needed.
std::vector<bool> distributions_needed(const graph::SpTree& tree, bool at_root) {
  const auto& nodes = tree.nodes();
  std::vector<bool> needed(nodes.size(), false);
  needed[tree.root()] = at_root;
  for (std::size_t i = nodes.size(); i-- > 0;) {
    const graph::SpNode& node = nodes[i];
    const bool maximum = node.kind == graph::SpKind::Parallel || node.kind == graph::SpKind::ParallelPower;
    if (maximum) needed[i] = true;
    for (std::size_t child : node.children) {
      if (maximum || needed[i]) needed[child] = true;
    }
  }
  return needed;
}

// The distribution of a needed non-leaf node from its children's.
distributions::Distribution reduce_node(const graph::SpNode& node, const std::vector<Value>& value,
                                        const distributions::GridOptions& grid) {
  namespace d = distributions;
  auto distribution_of = [&](std::size_t i) -> const d::Distribution& { return *value[i].distribution; };
  switch (node.kind) {
    case graph::SpKind::Series: {
      d::Distribution sum = distribution_of(node.children.front());
      for (std::size_t k = 1; k < node.children.size(); ++k)
        sum = d::series(sum, distribution_of(node.children[k]), grid);
      return sum;
    }
    case graph::SpKind::Parallel: {
      d::Distribution maximum = distribution_of(node.children.front());
      for (std::size_t k = 1; k < node.children.size(); ++k) {
        maximum = d::parallel(maximum, distribution_of(node.children[k]), grid);
      }
      return maximum;
    }
    case graph::SpKind::SeriesPower: return d::series_power(distribution_of(node.children.front()), node.count, grid);
    case graph::SpKind::ParallelPower:
      return d::parallel_power(distribution_of(node.children.front()), node.count, grid);
    case graph::SpKind::Branch: {
      std::vector<d::Distribution> alternatives;
      for (std::size_t child : node.children) alternatives.push_back(distribution_of(child));
      return d::mixture(node.probabilities, std::move(alternatives));
    }
    case graph::SpKind::Leaf: break;
  }
  throw std::logic_error("series-parallel reduction: a leaf has no children to reduce");
}

// The mean and bracket of a sum or mixture node from its children's: linear, so exact.
void linear_mean(const graph::SpNode& node, const std::vector<Value>& value, Value& v) {
  v.mean = 0.0;
  v.bracket = {0.0, 0.0};
  switch (node.kind) {
    case graph::SpKind::Series:
      for (std::size_t child : node.children) {
        v.mean += value[child].mean;
        v.bracket.lower += value[child].bracket.lower;
        v.bracket.upper += value[child].bracket.upper;
      }
      return;
    case graph::SpKind::SeriesPower: {
      const double n = static_cast<double>(node.count);
      const Value& child = value[node.children.front()];
      v.mean = n * child.mean;
      v.bracket = {n * child.bracket.lower, n * child.bracket.upper};
      return;
    }
    case graph::SpKind::Branch:
      for (std::size_t k = 0; k < node.children.size(); ++k) {
        const Value& child = value[node.children[k]];
        v.mean += node.probabilities[k] * child.mean;
        v.bracket.lower += node.probabilities[k] * child.bracket.lower;
        v.bracket.upper += node.probabilities[k] * child.bracket.upper;
      }
      return;
    case graph::SpKind::Leaf:
    case graph::SpKind::Parallel:
    case graph::SpKind::ParallelPower: break;
  }
  throw std::logic_error("series-parallel reduction: a maximum without its distribution");
}

// Reduces every node, children before parents: its distribution where `needed` says so,
// otherwise its mean and bracket from its children's (maxima always have their distribution,
// as their children do, so what is reduced on the means alone is linear).
std::vector<Value> reduce(const graph::SpTree& tree, const distributions::GridOptions& grid,
                          const std::vector<bool>& needed) {
  const auto& nodes = tree.nodes();
  std::vector<Value> value(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const graph::SpNode& node = nodes[i];
    if (node.kind == graph::SpKind::Leaf) {
      value[i] = from_distribution(node.task.runtime);
    } else if (needed[i]) {
      value[i] = from_distribution(reduce_node(node, value, grid));
    } else {
      linear_mean(node, value, value[i]);
    }
  }
  return value;
}

// The root's distribution after a reduction on the means (for its quantiles): the nodes that
// only the root needs get their distributions, their means and brackets left as they were, so
// the mean reported does not depend on whether quantiles were asked for.
const distributions::Distribution& root_distribution(const graph::SpTree& tree, const distributions::GridOptions& grid,
                                                     std::vector<Value>& value) {
  const std::vector<bool> needed = distributions_needed(tree, true);
  for (std::size_t i = 0; i < value.size(); ++i) {
    if (needed[i] && !value[i].distribution) value[i].distribution = reduce_node(tree.nodes()[i], value, grid);
  }
  return *value[tree.root()].distribution;
}

// The smallest lattice point x_i with P(Y <= x_i) >= level (the last point when rounding keeps
// the sum below it): the level-quantile of one lattice.
double lattice_quantile(std::span<const double> pmf, double origin, double step, double level) {
  double below = 0.0;
  for (std::size_t i = 0; i < pmf.size(); ++i) {
    below += pmf[i];
    if (below >= level) return origin + static_cast<double>(i) * step;
  }
  return origin + static_cast<double>(pmf.size() - 1) * step;
}

}  // namespace

std::vector<Quantile> distribution_quantiles(const distributions::Distribution& d, const std::vector<double>& levels) {
  std::vector<Quantile> out;
  for (double level : levels) {
    Quantile q;
    q.level = level;
    q.estimate = distributions::quantile(d, level);
    q.lower = q.upper = q.estimate;
    if (!distributions::is_closed_form(d)) {
      const distributions::LatticeView lattice = distributions::lattice(d);
      // The cumulative sums are rounded (a few ulps per point): the levels are moved outwards by
      // far more than that, which only widens the bracket.
      constexpr double kRounding = 1e-12;
      auto lower_at = [&](double u) { return lattice_quantile(lattice.lower, lattice.origin, lattice.step, u); };
      auto upper_at = [&](double u) { return lattice_quantile(lattice.upper, lattice.origin, lattice.step, u); };
      q.lower = lower_at(level - kRounding);
      q.upper = upper_at(level + kRounding);
      if (lattice.slack > 0.0) {
        // The lattices bracket the truth only up to a transport distance `slack`: for every
        // delta, Q(q) >= Q_lower(q - delta) - slack / delta and Q(q) <= Q_upper(q + delta) +
        // slack / delta (docs/methods.md, "Quantiles"). The best of a few deltas is kept.
        double best_lower = -std::numeric_limits<double>::infinity();
        double best_upper = std::numeric_limits<double>::infinity();
        for (double delta = 1e-10; delta <= 0.0101; delta *= 10.0) {
          if (level - delta - kRounding > 0.0) {
            best_lower = std::max(best_lower, lower_at(level - delta - kRounding) - lattice.slack / delta);
          }
          if (level + delta + kRounding < 1.0) {
            best_upper = std::min(best_upper, upper_at(level + delta + kRounding) + lattice.slack / delta);
          }
        }
        // Runtimes are >= 0 when the grid is; a level too near 0 or 1 for any delta keeps the
        // infinite end (never a made-up figure).
        q.lower = lattice.origin >= 0.0 ? std::max(0.0, best_lower) : best_lower;
        q.upper = best_upper;
      }
      // The central estimate spreads each point over its cell: keep it inside the bracket.
      q.estimate = std::clamp(q.estimate, q.lower, q.upper);
    }
    out.push_back(q);
  }
  return out;
}

Result solve_series_parallel(const graph::SpTree& tree, const SeriesParallelOptions& options) {
  std::string why;
  if (!options.IsValid(&why)) throw std::invalid_argument("series-parallel options: " + why);
  const auto start = std::chrono::steady_clock::now();
  std::vector<Value> values = reduce(tree, options.grid, distributions_needed(tree, options.keep_distribution));
  Value& value = values[tree.root()];
  Result result;
  result.method = Method::SeriesParallel;
  result.mean = value.mean;
  result.lower = value.bracket.lower;
  result.upper = value.bracket.upper;
  const bool exact = result.lower == result.upper;
  result.detail = exact ? "series-parallel reduction, closed form" : "series-parallel reduction, numerical grid";
  result.statistics.tree_nodes = static_cast<std::int64_t>(tree.nodes().size());
  result.statistics.represented_tasks = tree.expanded_node_count();
  result.note = tree.caveat();  // the builder's reason the tree is no bound, if it knows one
  if (!options.quantiles.empty()) {
    // A runtime whose mean is finite may still have a distribution beyond the grid's range (a
    // sum of 10^12 iterations): then the mean stands without quantiles, and the detail says so.
    try {
      result.quantiles = distribution_quantiles(root_distribution(tree, options.grid, values), options.quantiles);
    } catch (const distributions::SupportOverflow& error) {
      result.detail +=
          std::string("; no quantiles: the runtime's distribution overflows the grid (") + error.what() + ")";
    }
    const bool finite = std::all_of(result.quantiles.begin(), result.quantiles.end(), [](const Quantile& q) {
      return std::isfinite(q.estimate) && !std::isnan(q.lower) && !std::isnan(q.upper);
    });
    if (!finite) {
      result.quantiles.clear();
      result.detail += "; no quantiles: they are not finite";
    }
  }
  if (value.distribution) {
    result.statistics.grid_points = static_cast<std::int64_t>(distributions::grid_size(*value.distribution));
    if (options.keep_distribution) result.distribution = std::move(value.distribution);
  }
  result.statistics.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

Result solve_series_parallel(const graph::TaskGraph& graph, const SeriesParallelOptions& options) {
  graph::SpDecomposition decomposition = graph::decompose(graph);
  if (!decomposition.tree) throw NotSeriesParallel(std::move(*decomposition.residual));
  return solve_series_parallel(*decomposition.tree, options);
}

}  // namespace solvers
