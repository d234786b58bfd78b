// State-space analysis of the exact model as a Solver: refuses (typed) a model with a dynamic
// pool or one estimated beyond its budget, with the estimate.
#include <stdexcept>
#include <string>

#include "solvers/solver_methods.hpp"

namespace solvers::methods {

namespace {

class StateSpaceSolver final : public Solver {
 public:
  explicit StateSpaceSolver(StateSpaceOptions options) : options_(std::move(options)) {
    options_.threads = 0;  // within the caller's arena
  }
  const SolverInfo& info() const override { return state_space_info(); }
  Result solve(const ScaledModels& models) const override {
    if (models.exact.empty()) throw std::invalid_argument("state-space solver: no exact model");
    if (const std::string* pool = first_dynamic_pool(models.exact)) {
      return not_supported(Method::StateSpace, "state space: node '" + *pool +
                                                   "' is a dynamic pool (dynamic scheduling is simulated by Monte Carlo)");
    }
    try {
      return solve_state_space(models.exact, options_);
    } catch (const StateSpaceTooLarge& too_large) {
      return too_large_result(too_large.estimate());
    }
  }

 private:
  Result too_large_result(const StateSpaceEstimate& estimate) const {
    Result result;
    result.method = Method::StateSpace;
    Unsolved& why = result.unsolved.emplace();
    why.reason = Unsolved::Reason::StateSpaceTooLarge;
    const bool too_many = options_.max_states > 0 && estimate.states > static_cast<double>(options_.max_states);
    why.limit = too_many ? Unsolved::Limit::States : Unsolved::Limit::Memory;
    why.limit_value = too_many ? static_cast<double>(options_.max_states)
                               : static_cast<double>(options_.memory_budget_bytes);
    why.size = estimate.states;
    why.size_is_lower_bound = !estimate.complete;
    why.bytes = estimate.bytes;
    why.explanation = "state space too large: " + estimate.BriefReport();
    return result;
  }

  StateSpaceOptions options_;
};

}  // namespace

const SolverInfo& state_space_info() {
  static const SolverInfo info{
      .method = Method::StateSpace,
      .name = "exact",
      .title = "exact",
      .interval_title = "",
      .presentation = Presentation::EstimateOnly,
      .interval = IntervalKind::ExactOrProven,
      .needs_exact_model = true,
      .speedup_as_interval = false,
      .description = "state-space analysis of the exact model, where it fits",
  };
  return info;
}

std::unique_ptr<Solver> make_state_space(const SolverOptions& options) {
  return std::make_unique<StateSpaceSolver>(options.state_space);
}

}  // namespace solvers::methods
