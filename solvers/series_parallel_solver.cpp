#include "solvers/series_parallel_solver.hpp"

#include <chrono>
#include <vector>

namespace solvers {

bool SeriesParallelOptions::IsValid(std::string* why) const { return grid.IsValid(why); }

NotSeriesParallel::NotSeriesParallel(graph::NonSeriesParallel residual)
    : std::invalid_argument(residual.description), residual_(std::move(residual)) {}

namespace {

distributions::Distribution reduce(const graph::SpTree& tree, const distributions::GridOptions& grid) {
  namespace d = distributions;
  const auto& nodes = tree.nodes();
  // Children precede parents, so one forward sweep reduces the tree.
  std::vector<d::Distribution> value(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const graph::SpNode& node = nodes[i];
    switch (node.kind) {
      case graph::SpKind::Leaf: value[i] = node.task.runtime; break;
      case graph::SpKind::Series:
        value[i] = value[node.children.front()];
        for (std::size_t k = 1; k < node.children.size(); ++k) {
          value[i] = d::series(value[i], value[node.children[k]], grid);
        }
        break;
      case graph::SpKind::Parallel:
        value[i] = value[node.children.front()];
        for (std::size_t k = 1; k < node.children.size(); ++k) {
          value[i] = d::parallel(value[i], value[node.children[k]], grid);
        }
        break;
      case graph::SpKind::SeriesPower:
        value[i] = d::series_power(value[node.children.front()], node.count, grid);
        break;
      case graph::SpKind::ParallelPower:
        value[i] = d::parallel_power(value[node.children.front()], node.count, grid);
        break;
      case graph::SpKind::Branch: {
        std::vector<d::Distribution> alternatives;
        for (std::size_t child : node.children) alternatives.push_back(value[child]);
        value[i] = d::mixture(node.probabilities, std::move(alternatives));
        break;
      }
    }
  }
  return value[tree.root()];
}

}  // namespace

Result solve_series_parallel(const graph::SpTree& tree, const SeriesParallelOptions& options) {
  std::string why;
  if (!options.IsValid(&why)) throw std::invalid_argument("series-parallel options: " + why);
  const auto start = std::chrono::steady_clock::now();
  const distributions::Distribution runtime = reduce(tree, options.grid);
  Result result;
  result.method = Method::Approximate;
  result.mean = distributions::mean(runtime);
  const distributions::Bracket bracket = distributions::mean_bracket(runtime);
  result.lower = bracket.lower;
  result.upper = bracket.upper;
  result.detail = distributions::is_closed_form(runtime) ? "series-parallel reduction, closed form"
                                                         : "series-parallel reduction, numerical grid";
  result.statistics.tree_nodes = static_cast<std::int64_t>(tree.nodes().size());
  result.statistics.represented_tasks = tree.expanded_node_count();
  result.statistics.grid_points = static_cast<std::int64_t>(distributions::grid_size(runtime));
  if (options.keep_distribution) result.distribution = runtime;
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
