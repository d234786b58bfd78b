// The toy method: the exact model's longest path of the mean runtimes, a lower bound on the
// mean makespan (Jensen: the makespan is a convex function of the runtimes). On one processor
// the model is a chain and the figure is T(1) exactly.
#include "toy_method/solver_toy.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "distributions/distribution.hpp"
#include "graph/task_graph.hpp"

namespace solvers::methods {

namespace {

double longest_mean_path(const graph::TaskGraph& g) {
  std::vector<double> finish(g.node_count(), 0.0);
  double longest = 0.0;
  for (graph::NodeId v : graph::topological_order(g)) {
    double start = 0.0;
    for (graph::NodeId u : g.predecessors(v)) start = std::max(start, finish[u]);
    finish[v] = start + distributions::mean(g.node(v).runtime);
    longest = std::max(longest, finish[v]);
  }
  return longest;
}

class ToySolver final : public Solver {
 public:
  const SolverInfo& info() const override { return toy_info(); }
  MemoryPlan plan_memory(const ScaledModels& models) const override {
    double nodes = 0.0;
    for (const WeightedGraph& scenario : models.exact) nodes = std::max(nodes, double(scenario.graph->node_count()));
    return {.bytes = 8.0 * nodes, .refusal = std::nullopt};
  }
  Result solve(const ScaledModels& models) const override {
    if (models.exact.empty()) throw std::invalid_argument("toy solver: no exact model");
    Result result;
    result.method = kToy;
    for (const WeightedGraph& scenario : models.exact) {
      result.mean += scenario.probability * longest_mean_path(*scenario.graph);
    }
    result.lower = result.upper = result.mean;
    result.detail = "toy: the longest path of the mean runtimes";
    return result;
  }
  // A second per task, so that a test sees the toy's part in the cost estimate.
  SolveCost cost(const ModelSizes& sizes, const UnitCosts& costs) const override {
    (void)costs;
    return {.seconds = sizes.tasks};
  }
};

}  // namespace

const SolverInfo& toy_info() {
  static const SolverInfo info{
      .method = kToy,
      .name = "toy",
      .title = "toy path",
      .interval_title = "",
      .presentation = Presentation::EstimateOnly,
      .interval = IntervalKind::ExactOrProven,
      .needs_exact_model = true,
      .speedup_as_interval = false,
      .gives_quantiles = false,
      .prediction_rank = 0,
      .shared_by_ranks = false,
      .cost_needs_models = false,
      .own_options = {},
      .in_words = "the toy",
      .description = "a toy: the exact model's longest path of the mean runtimes",
  };
  return info;
}

std::unique_ptr<Solver> make_toy(const SolverOptions& options) {
  (void)options;
  return std::make_unique<ToySolver>();
}

}  // namespace solvers::methods
