// Bounds on the exact model's mean as a Solver: the tightest valid pair of every scenario,
// weighted by the scenarios' probabilities.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "solvers/solver_methods.hpp"

namespace solvers::methods {

namespace {

class BoundsSolver final : public Solver {
 public:
  explicit BoundsSolver(BoundsOptions options) : options_(std::move(options)) {}
  const SolverInfo& info() const override { return bounds_info(); }
  // The scenarios are bounded one after another: the largest plan.
  MemoryPlan plan_memory(const ScaledModels& models) const override {
    if (models.exact.empty()) throw std::invalid_argument("bounds solver: no exact model");
    MemoryPlan plan;
    if (first_dynamic_pool(models.exact) != nullptr) return plan;
    for (const WeightedGraph& scenario : models.exact) {
      try {
        plan.bytes = std::max(plan.bytes, estimate_bounds_memory(*scenario.graph, options_));
      } catch (const MemoryBudgetExceeded& over) {
        plan.refusal = over_budget(over, static_cast<double>(scenario.graph->node_count()));
        plan.bytes = over.bytes();
        return plan;
      }
    }
    return plan;
  }
  Result solve(const ScaledModels& models) const override {
    if (models.exact.empty()) throw std::invalid_argument("bounds solver: no exact model");
    if (const std::string* pool = first_dynamic_pool(models.exact)) {
      return not_supported(Method::Bounds, "bounds: node '" + *pool +
                                               "' is a dynamic pool (dynamic scheduling is simulated by Monte Carlo)");
    }
    if (const MemoryPlan plan = plan_memory(models); plan.refusal) return refused(Method::Bounds, *plan.refusal);
    if (models.exact.size() == 1) return solve_bounds(*models.exact.front().graph, options_, models.report_progress);
    // A mixture: E[T] = sum of P(scenario) E[T | scenario], so the weighted bounds bound it.
    Result mixture;
    mixture.method = Method::Bounds;
    const auto shares = static_cast<double>(models.exact.size());
    for (std::size_t i = 0; i < models.exact.size(); ++i) {
      const WeightedGraph& scenario = models.exact[i];
      const ProgressFunction part =
          progress_part(models.report_progress, static_cast<double>(i) / shares, static_cast<double>(i + 1) / shares);
      const Result one = solve_bounds(*scenario.graph, options_, part);
      mixture.lower += scenario.probability * one.lower;
      mixture.upper += scenario.probability * one.upper;
      mixture.statistics.seconds += one.statistics.seconds;
    }
    mixture.mean = 0.5 * (mixture.lower + mixture.upper);
    mixture.detail = "probability-weighted bounds of " + std::to_string(models.exact.size()) + " scenarios";
    return mixture;
  }
  // A fixed part per model, the costly methods' per task up to their work limits, and the
  // cheap ones' per task.
  SolveCost cost(const ModelSizes& sizes, const UnitCosts& costs) const override {
    return {.seconds = costs.bounds_model + std::min(costs.bounds_small_task * sizes.tasks, costs.bounds_small_most) +
                       costs.bounds_task * sizes.tasks};
  }
  // As the solve decides: a dynamic pool is refused at once, and deterministic runtimes leave
  // only the longest paths, a pass over the tasks per method.
  SolveCost cost_of_models(const ScaledModels& models, const ModelSizes& sizes, const UnitCosts& costs) const override {
    if (models.exact.empty()) return cost(sizes, costs);
    if (first_dynamic_pool(models.exact) != nullptr) return {.refused = true};
    if (every_runtime_deterministic(models.exact)) {
      return {.seconds = costs.bounds_deterministic_model + costs.bounds_task * sizes.tasks};
    }
    return cost(sizes, costs);
  }

 private:
  BoundsOptions options_;
};

}  // namespace

const SolverInfo& bounds_info() {
  static const SolverInfo info{
      .method = Method::Bounds,
      .name = "bounds",
      .title = "bounds on the exact mean",
      .interval_title = "",
      .presentation = Presentation::IntervalOnly,
      .interval = IntervalKind::BoundPair,
      .needs_exact_model = true,
      .speedup_as_interval = true,
      .prediction_rank = 2,
      .shared_by_ranks = false,
      .cost_needs_models = true,
      .own_options = {},
      .in_words = "the bounds",
      .description = "lower and upper bounds on the exact model's mean",
  };
  return info;
}

std::unique_ptr<Solver> make_bounds(const SolverOptions& options) {
  BoundsOptions bounds = options.bounds;
  bounds.memory_budget_bytes = options.memory_budget_bytes;
  return std::make_unique<BoundsSolver>(std::move(bounds));
}

}  // namespace solvers::methods
