#include "solvers/series_parallel_solver.hpp"

#include <chrono>
#include <optional>
#include <vector>

namespace solvers {

bool SeriesParallelOptions::IsValid(std::string* why) const { return grid.IsValid(why); }

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

Value reduce(const graph::SpTree& tree, const distributions::GridOptions& grid, bool keep_distribution) {
  namespace d = distributions;
  const auto& nodes = tree.nodes();
  const std::vector<bool> needed = distributions_needed(tree, keep_distribution);
  // Children precede parents, so one forward sweep reduces the tree.
  std::vector<Value> value(nodes.size());
  auto distribution_of = [&](std::size_t i) -> const d::Distribution& { return *value[i].distribution; };
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const graph::SpNode& node = nodes[i];
    if (node.kind == graph::SpKind::Leaf) {
      value[i] = from_distribution(node.task.runtime);
      continue;
    }
    if (needed[i]) {
      switch (node.kind) {
        case graph::SpKind::Leaf: break;
        case graph::SpKind::Series: {
          d::Distribution sum = distribution_of(node.children.front());
          for (std::size_t k = 1; k < node.children.size(); ++k) {
            sum = d::series(sum, distribution_of(node.children[k]), grid);
          }
          value[i] = from_distribution(std::move(sum));
          break;
        }
        case graph::SpKind::Parallel: {
          d::Distribution maximum = distribution_of(node.children.front());
          for (std::size_t k = 1; k < node.children.size(); ++k) {
            maximum = d::parallel(maximum, distribution_of(node.children[k]), grid);
          }
          value[i] = from_distribution(std::move(maximum));
          break;
        }
        case graph::SpKind::SeriesPower:
          value[i] = from_distribution(d::series_power(distribution_of(node.children.front()), node.count, grid));
          break;
        case graph::SpKind::ParallelPower:
          value[i] = from_distribution(d::parallel_power(distribution_of(node.children.front()), node.count, grid));
          break;
        case graph::SpKind::Branch: {
          std::vector<d::Distribution> alternatives;
          for (std::size_t child : node.children) alternatives.push_back(distribution_of(child));
          value[i] = from_distribution(d::mixture(node.probabilities, std::move(alternatives)));
          break;
        }
      }
      continue;
    }
    // Only the mean is needed: maxima always have their distribution (their children do), so
    // what is left is linear in the children's means and brackets.
    Value& v = value[i];
    switch (node.kind) {
      case graph::SpKind::Series:
        for (std::size_t child : node.children) {
          v.mean += value[child].mean;
          v.bracket.lower += value[child].bracket.lower;
          v.bracket.upper += value[child].bracket.upper;
        }
        break;
      case graph::SpKind::SeriesPower: {
        const double n = static_cast<double>(node.count);
        const Value& child = value[node.children.front()];
        v.mean = n * child.mean;
        v.bracket = {n * child.bracket.lower, n * child.bracket.upper};
        break;
      }
      case graph::SpKind::Branch:
        for (std::size_t k = 0; k < node.children.size(); ++k) {
          const Value& child = value[node.children[k]];
          v.mean += node.probabilities[k] * child.mean;
          v.bracket.lower += node.probabilities[k] * child.bracket.lower;
          v.bracket.upper += node.probabilities[k] * child.bracket.upper;
        }
        break;
      case graph::SpKind::Leaf:
      case graph::SpKind::Parallel:
      case graph::SpKind::ParallelPower:
        throw std::logic_error("series-parallel reduction: a maximum without its distribution");
    }
  }
  return value[tree.root()];
}

}  // namespace

Result solve_series_parallel(const graph::SpTree& tree, const SeriesParallelOptions& options) {
  std::string why;
  if (!options.IsValid(&why)) throw std::invalid_argument("series-parallel options: " + why);
  const auto start = std::chrono::steady_clock::now();
  Value value = reduce(tree, options.grid, options.keep_distribution);
  Result result;
  result.method = Method::SeriesParallel;
  result.mean = value.mean;
  result.lower = value.bracket.lower;
  result.upper = value.bracket.upper;
  const bool exact = result.lower == result.upper;
  result.detail = exact ? "series-parallel reduction, closed form"
                        : "series-parallel reduction, numerical grid";
  result.statistics.tree_nodes = static_cast<std::int64_t>(tree.nodes().size());
  result.statistics.represented_tasks = tree.expanded_node_count();
  if (value.distribution) {
    result.statistics.grid_points = static_cast<std::int64_t>(distributions::grid_size(*value.distribution));
    result.distribution = std::move(value.distribution);
  }
  result.statistics.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

Result solve_series_parallel(const graph::TaskGraph& graph, const SeriesParallelOptions& options) {
  graph::SpDecomposition decomposition = graph::decompose(graph);
  if (!decomposition.tree) throw NotSeriesParallel(std::move(*decomposition.residual));
  return solve_series_parallel(*decomposition.tree, options);
}

}  // namespace solvers
