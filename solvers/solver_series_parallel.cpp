// The series-parallel reduction of the approximate (barrier) model as a Solver.
#include <stdexcept>

#include "solvers/solver_methods.hpp"

namespace solvers::methods {

namespace {

class SeriesParallelSolver final : public Solver {
 public:
  explicit SeriesParallelSolver(SeriesParallelOptions options) : options_(std::move(options)) {}
  const SolverInfo& info() const override { return series_parallel_info(); }
  Result solve(const ScaledModels& models) const override {
    if (models.approximate == nullptr) throw std::invalid_argument("series-parallel solver: no approximate model");
    return solve_series_parallel(*models.approximate, options_);
  }

 private:
  SeriesParallelOptions options_;
};

}  // namespace

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
      .description = "the approximate (barrier) model, reduced exactly up to a discretisation bracket",
  };
  return info;
}

std::unique_ptr<Solver> make_series_parallel(const SolverOptions& options) {
  return std::make_unique<SeriesParallelSolver>(options.series_parallel);
}

}  // namespace solvers::methods
