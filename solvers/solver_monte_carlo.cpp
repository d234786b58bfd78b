// Monte Carlo simulation of the exact model (every scenario, dynamic pools too) as a Solver.
#include <stdexcept>

#include "solvers/solver_methods.hpp"

namespace solvers::methods {

namespace {

class MonteCarloSolver final : public Solver {
 public:
  explicit MonteCarloSolver(MonteCarloOptions options) : options_(std::move(options)) {
    options_.threads = 0;  // within the caller's arena
  }
  const SolverInfo& info() const override { return monte_carlo_info(); }
  Result solve(const ScaledModels& models) const override {
    if (models.exact.empty()) throw std::invalid_argument("Monte Carlo solver: no exact model");
    return solve_monte_carlo(models.exact, options_);
  }

 private:
  MonteCarloOptions options_;
};

}  // namespace

const SolverInfo& monte_carlo_info() {
  static const SolverInfo info{
      .method = Method::MonteCarlo,
      .name = "mc",
      .title = "monte carlo ± 95%",
      .interval_title = "",
      .presentation = Presentation::EstimatePlusMinus,
      .interval = IntervalKind::Confidence95,
      .needs_exact_model = true,
      .speedup_as_interval = false,
      .description = "Monte Carlo simulation of the exact model, with a 95% confidence interval",
  };
  return info;
}

std::unique_ptr<Solver> make_monte_carlo(const SolverOptions& options) {
  return std::make_unique<MonteCarloSolver>(options.monte_carlo);
}

}  // namespace solvers::methods
