// State-space analysis of the exact model as a Solver: refuses (typed) a model with a dynamic
// pool or one estimated beyond its budget, with the estimate.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "distributions/queries.hpp"
#include "solvers/reference_costs.hpp"
#include "solvers/solver_methods.hpp"

namespace solvers::methods {

namespace {

// The makespan of a graph whose every runtime is a point mass: its longest path, exactly; or
// nothing when some runtime is random.
std::optional<double> deterministic_makespan(const graph::TaskGraph& g) {
  std::vector<double> finish(g.node_count(), 0.0);
  double makespan = 0.0;
  for (graph::NodeId v : graph::topological_order(g)) {
    const auto law = distributions::closed_form(g.node(v).runtime);
    if (!law || law->kind != distributions::ClosedFormParameters::Kind::Deterministic) return std::nullopt;
    double start = 0.0;
    for (graph::NodeId u : g.predecessors(v)) start = std::max(start, finish[u]);
    finish[v] = start + law->value;
    makespan = std::max(makespan, finish[v]);
  }
  return makespan;
}

// The mixture's mean when every scenario is deterministic; exact.
std::optional<Result> deterministic_result(std::span<const WeightedGraph> scenarios) {
  Result result;
  result.method = Method::StateSpace;
  for (const WeightedGraph& scenario : scenarios) {
    const auto makespan = deterministic_makespan(*scenario.graph);
    if (!makespan) return std::nullopt;
    result.mean += scenario.probability * *makespan;
    result.statistics.represented_tasks += static_cast<std::int64_t>(scenario.graph->node_count());
  }
  result.lower = result.upper = result.mean;
  result.detail = "exact: every runtime is deterministic, the makespan is the longest path";
  return result;
}

class StateSpaceSolver final : public Solver {
 public:
  // `planned`: the plan of the models this solver is made for, where the maker estimated it
  // already (within_seconds), so that plan_memory does not enumerate the state space again.
  explicit StateSpaceSolver(StateSpaceOptions options, std::optional<MemoryPlan> planned = std::nullopt)
      : options_(std::move(options)), planned_(std::move(planned)) {
    options_.threads = 0;                 // within the caller's arena
    options_.fit_non_phase_type = false;  // "exact" is exact: a fitted model is refused
  }
  const SolverInfo& info() const override { return state_space_info(); }
  // The estimate of the largest scenario's sweep. A model beyond the budget or max_states is
  // refused by solve() itself at once (with its estimate), so its plan holds nothing. A
  // scenario the sweep cannot take (StateSpaceUnsupported: a task not of phase type, a state
  // wider than the encoding) adds nothing: solve() refuses it with the reason when it gets there.
  MemoryPlan plan_memory(const ScaledModels& models) const override {
    if (models.exact.empty()) throw std::invalid_argument("state-space solver: no exact model");
    if (planned_) return *planned_;
    MemoryPlan plan;
    if (first_dynamic_pool(models.exact) != nullptr || every_runtime_deterministic(models.exact)) return plan;
    for (const WeightedGraph& scenario : models.exact) {
      const auto counted = estimate_state_count(*scenario.graph, options_);
      if (!counted.ok()) continue;
      const StateSpaceEstimate& estimate = *counted.value;
      const bool fits = estimate.rank_bytes <= static_cast<double>(options_.memory_budget_bytes) &&
                        (options_.max_states == 0 || estimate.states <= static_cast<double>(options_.max_states));
      if (!fits) return MemoryPlan{};
      plan.bytes = std::max(plan.bytes, estimate.rank_bytes);
    }
    return plan;
  }
  // The states `seconds` pay for at the reference cost of a state: the estimate stops counting
  // past them, so asking costs at most that many states' enumeration. A deterministic mixture
  // is its longest paths, always affordable; a dynamic pool never is.
  std::unique_ptr<Solver> within_seconds(const ScaledModels& models, double seconds) const override {
    if (models.exact.empty() || first_dynamic_pool(models.exact) != nullptr) return nullptr;
    if (every_runtime_deterministic(models.exact)) return std::make_unique<StateSpaceSolver>(options_, MemoryPlan{});
    // At most 2^53 states: beyond it a count is no longer exact in a double, and no state
    // space of that size fits any memory.
    const double affordable = std::min(std::floor(seconds / kSecondsPerState), 9007199254740992.0);
    if (affordable < 1.0) return nullptr;
    StateSpaceOptions tuned = options_;
    tuned.estimate_stop_states = affordable;
    if (tuned.max_states == 0 || static_cast<double>(tuned.max_states) > affordable) {
      tuned.max_states = static_cast<std::int64_t>(affordable);
    }
    double states = 0.0;
    MemoryPlan plan;  // as plan_memory makes it: the largest scenario's sweep
    for (const WeightedGraph& scenario : models.exact) {
      const auto counted = estimate_state_count(*scenario.graph, tuned);
      // A graph the sweep cannot take (wider than the encoding, a fitted runtime, a runtime
      // without phase-type form) is not offered: the solve would compile it again only to
      // refuse it.
      if (!counted.ok()) return nullptr;
      const StateSpaceEstimate& estimate = *counted.value;
      states += estimate.states;
      if (!estimate.complete || states > affordable ||
          estimate.rank_bytes > static_cast<double>(tuned.memory_budget_bytes)) {
        return nullptr;
      }
      plan.bytes = std::max(plan.bytes, estimate.rank_bytes);
    }
    return std::make_unique<StateSpaceSolver>(std::move(tuned), plan);
  }
  // From the sizes alone: the sweep of the most states it may visit (max_states, else what
  // the memory budget holds at the sweep's smallest state), an upper bound.
  SolveCost cost(const ModelSizes& sizes, const UnitCosts& costs) const override {
    (void)sizes;
    constexpr double kBytesPerState = 64.0;
    const double most = options_.max_states > 0 ? static_cast<double>(options_.max_states)
                                                : static_cast<double>(options_.memory_budget_bytes) / kBytesPerState;
    return {.seconds = costs.state * most, .at_limit = true};
  }
  // Each scenario's states, estimated as the solve does; refused as the solve would be (a
  // dynamic pool, a runtime without phase-type form, beyond max_states or the memory budget),
  // after the estimate's time.
  // A dynamic pool is refused before anything is estimated. A deterministic model is its
  // longest path, a pass over its tasks: timed with costs.time_pilots (an all-to-all's 10^5
  // tasks take a good part of a second over a sweep), else counted as nothing.
  SolveCost cost_of_models(const ScaledModels& models, const ModelSizes& sizes, const UnitCosts& costs) const override {
    if (models.exact.empty()) return cost(sizes, costs);
    if (first_dynamic_pool(models.exact) != nullptr) return {.refused = true};
    if (every_runtime_deterministic(models.exact)) {
      if (!costs.time_pilots) return {};
      const auto begin = std::chrono::steady_clock::now();
      (void)solve(models);
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
      return {.seconds = seconds * costs.state / kSecondsPerState, .proportional_to_tasks = true};
    }
    const auto begin = std::chrono::steady_clock::now();
    const auto estimate_seconds = [&] {
      return costs.time_pilots ? std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count()
                               : costs.state_estimate;
    };
    SolveCost total;
    for (const WeightedGraph& scenario : models.exact) {
      const auto counted = estimate_state_count(*scenario.graph, options_);
      if (!counted.ok()) return {.seconds = estimate_seconds(), .refused = true};
      const StateSpaceEstimate& estimate = *counted.value;
      if ((options_.max_states > 0 && estimate.states > static_cast<double>(options_.max_states)) ||
          estimate.bytes > static_cast<double>(options_.memory_budget_bytes)) {
        return {.seconds = estimate_seconds(), .refused = true};
      }
      if (!estimate.complete) {
        const SolveCost limit = cost(sizes, costs);
        total.seconds += limit.seconds;
        total.at_limit = true;
      } else {
        total.seconds += costs.state * estimate.states;
      }
    }
    if (costs.time_pilots) total.seconds += estimate_seconds();  // the solve estimates first too
    return total;
  }
  // As within_seconds decides, from the sizes: only a sweep whose limit fits the budget.
  std::optional<double> cost_within(const ModelSizes& sizes, const UnitCosts& costs, double seconds) const override {
    const SolveCost most = cost(sizes, costs);
    if (most.seconds <= seconds) return most.seconds;
    return std::nullopt;
  }
  Result solve(const ScaledModels& models) const override {
    if (models.exact.empty()) throw std::invalid_argument("state-space solver: no exact model");
    if (const std::string* pool = first_dynamic_pool(models.exact)) {
      return not_supported(
          Method::StateSpace,
          "state space: node '" + *pool + "' is a dynamic pool (dynamic scheduling is simulated by Monte Carlo)");
    }
    // Point masses are not of phase type, but a deterministic graph needs no state space.
    if (auto deterministic = deterministic_result(models.exact)) return *deterministic;
    try {
      return solve_state_space(models.exact, options_, models.report_progress);
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
    why.limit_value =
        too_many ? static_cast<double>(options_.max_states) : static_cast<double>(options_.memory_budget_bytes);
    why.size = estimate.states;
    why.size_is_lower_bound = !estimate.complete;
    why.bytes = estimate.bytes;
    why.explanation = "state space too large: " + estimate.BriefReport();
    return result;
  }

  StateSpaceOptions options_;
  std::optional<MemoryPlan> planned_;
};

}  // namespace

constexpr std::string_view kStateSpaceOwnOptions[] = {"max-states"};

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
      .prediction_rank = 4,
      .shared_by_ranks = true,
      .cost_needs_models = true,
      .own_options = kStateSpaceOwnOptions,
      .in_words = "the state-space analysis",
      .description =
          "the exact model's mean, exact: state-space analysis where every task is of phase type "
          "and the state space fits, the longest path where every task is deterministic",
  };
  return info;
}

std::unique_ptr<Solver> make_state_space(const SolverOptions& options) {
  StateSpaceOptions state_space = options.state_space;
  state_space.memory_budget_bytes = options.memory_budget_bytes;
  return std::make_unique<StateSpaceSolver>(std::move(state_space));
}

}  // namespace solvers::methods
