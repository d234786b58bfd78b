// The series-parallel reduction of the approximate (barrier) model as a Solver.
#include <chrono>
#include <stdexcept>

#include "solvers/solver_methods.hpp"

namespace solvers::methods {

namespace {

class SeriesParallelSolver final : public Solver {
 public:
  SeriesParallelSolver(SeriesParallelOptions options, std::uint64_t budget)
      : options_(std::move(options)), budget_(static_cast<double>(budget)) {}
  const SolverInfo& info() const override { return series_parallel_info(); }
  // Every maximum (and what is built on it) is a numerical grid of two lattices, kept for the
  // whole reduction; the tree is the approximate model's, a few nodes per phase.
  MemoryPlan plan_memory(const ScaledModels& models) const override {
    if (models.approximate == nullptr) throw std::invalid_argument("series-parallel solver: no approximate model");
    double grids = 0.0;
    for (const graph::SpNode& node : models.approximate->nodes()) grids += node.kind == graph::SpKind::Leaf ? 0.0 : 1.0;
    MemoryPlan plan;
    plan.bytes = grids * (16.0 * static_cast<double>(options_.grid.max_points) + 256.0);
    if (plan.bytes > budget_) {
      plan.refusal = over_budget(MemoryBudgetExceeded("approx: the grids of the reduction", plan.bytes, budget_),
                                 static_cast<double>(models.approximate->expanded_node_count()));
    }
    return plan;
  }
  Result solve(const ScaledModels& models) const override {
    if (const MemoryPlan plan = plan_memory(models); plan.refusal)
      return refused(Method::SeriesParallel, *plan.refusal);
    return solve_series_parallel(*models.approximate, options_);
  }
  // Every inner node above a random leaf is reduced on the grid, every node in closed form.
  SolveCost cost(const ModelSizes& sizes, const UnitCosts& costs) const override {
    return {.seconds = costs.reduction_node_point * sizes.random_inner_tree_nodes *
                           static_cast<double>(options_.grid.max_points) +
                       costs.reduction_node * sizes.tree_nodes};
  }
  // With costs.time_pilots, the reduction itself, timed: what a grid point costs differs
  // tenfold between operations (a phase-type leaf's matrix exponentials, an FFT power over
  // iterations with its Chernoff window, a maximum), and the quantiles add the sums above the
  // maxima, which no count of nodes tells. The pilot is the solve, so the analysis times a few.
  SolveCost cost_of_models(const ScaledModels& models, const ModelSizes& sizes, const UnitCosts& costs) const override {
    if (!costs.time_pilots || models.approximate == nullptr) return cost(sizes, costs);
    const auto begin = std::chrono::steady_clock::now();
    (void)solve(models);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    return {.seconds = seconds * costs.reduction_node_point / reference_costs().reduction_node_point};
  }

 private:
  SeriesParallelOptions options_;
  double budget_;
};

}  // namespace

// The bounds' grids have their own size (solvers/bounds.hpp): only the reduction reads it.
constexpr std::string_view kSeriesParallelOwnOptions[] = {"grid-points"};

const SolverInfo& series_parallel_info() {
  static const SolverInfo info{
      .method = Method::SeriesParallel,
      .name = "approx",
      .title = "approx",
      .interval_title = "bracket of the mean",
      .presentation = Presentation::EstimateAndInterval,
      .interval = IntervalKind::DiscretisationBracket,
      .needs_exact_model = false,
      .speedup_as_interval = false,
      .gives_quantiles = true,
      .prediction_rank = 1,
      .shared_by_ranks = false,
      .cost_needs_models = true,
      .own_options = kSeriesParallelOwnOptions,
      .in_words = "the approximate model's reduction",
      .description = "the approximate (barrier) model, reduced exactly up to a discretisation bracket",
  };
  return info;
}

std::unique_ptr<Solver> make_series_parallel(const SolverOptions& options) {
  SeriesParallelOptions series_parallel = options.series_parallel;
  series_parallel.quantiles = options.quantiles;
  return std::make_unique<SeriesParallelSolver>(std::move(series_parallel), options.memory_budget_bytes);
}

}  // namespace solvers::methods
