#include "analysis/cost.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <stdexcept>

#include <fmt/format.h>

#include "analysis/parallel.hpp"
#include "distributions/fingerprint.hpp"
#include "graph/fingerprint.hpp"
#include "scaling/approximate_model.hpp"
#include "scaling/exact_model.hpp"
#include "solvers/reference_costs.hpp"
#include "solvers/solver.hpp"

namespace analysis {

UnitCosts reference_costs() {
  // Measured on the reference machine (docs/performance.md, "Cost estimate"): CPU seconds of
  // runs dominated by that work divided by its units, rounded up.
  UnitCosts costs;
  costs.tree_node = 2e-6;
  costs.exact_model = 5e-5;
  costs.exact_task = 3e-6;
  costs.exact_processor = 2.5e-9;
  costs.reduction_node_point = 1e-7;
  costs.bounds_model = 0.04;
  costs.bounds_small_task = 2.5e-4;
  costs.bounds_small_most = 1.5;
  costs.bounds_task = 3e-6;
  costs.task_sample = solvers::kSecondsPerTaskSample;
  costs.state = solvers::kSecondsPerState;
  costs.state_estimate = 0.2;
  return costs;
}

namespace {

// Time the state-space estimates may take in all; beyond it a state space counts at its limit.
constexpr double kStateEstimateSeconds = 0.25;
// The state space of a model with more tasks is not estimated (building its exact model alone
// would take a good part of that time): it counts at its limit.
constexpr std::int64_t kStateEstimateTasks = 50'000;
// States a state space counts at when it cannot be estimated and max_states is 0: what the
// memory budget holds at about this many bytes a state (the sweep's smallest).
constexpr double kBytesPerState = 64.0;

struct Item {
  distributions::Fingerprint print;
  std::int64_t tasks = 0;
  double nodes = 0.0;
  double inner_nodes = 0.0;
};

double monte_carlo_samples(const solvers::MonteCarloOptions& options) {
  if (options.relative_precision == 0.0) return static_cast<double>(options.samples);
  const double z = 1.959963984540054;
  const double wanted = std::pow(z * kAssumedMakespanCv / options.relative_precision, 2.0);
  return std::clamp(wanted, static_cast<double>(options.min_samples), static_cast<double>(options.max_samples));
}

double exact_cost(const UnitCosts& costs, std::int64_t tasks, int p) {
  return costs.exact_model + costs.exact_task * static_cast<double>(tasks) +
         costs.exact_processor * static_cast<double>(p);
}

int bucket_of(int p) {
  int k = 0;
  while ((p >> (k + 1)) > 0) ++k;
  return k;
}

// The state space of one (case, p): the seconds its solve takes, by its estimated size.
struct StateCost {
  double seconds = 0.0;
  bool refused = false;   // beyond max_states or without phase-type form: the estimate's time only
  bool at_limit = false;  // not estimated: counted at the limit
};

StateCost state_space_cost(const Case& one, int p, const Request& request, const UnitCosts& costs, double limit) {
  StateCost cost;
  std::optional<scaling::ExactModel> exact;
  try {
    exact = scaling::exact_model(*one.program, *one.machine, one.environment, p, request.exact_model);
  } catch (const scaling::ExactModelTooLarge&) {
    cost.refused = true;  // beyond the builder's limits: no state space is swept
    return cost;
  } catch (const scaling::ScalingError&) {
    cost.refused = true;  // a value the model refuses: the study reports it, nothing is swept
    return cost;
  }
  for (const scaling::Scenario& scenario : exact->scenarios) {
    solvers::StateSpaceEstimate estimate;
    try {
      estimate = solvers::estimate_state_count(scenario.graph, request.solver_options.state_space);
    } catch (const std::invalid_argument&) {
      // A dynamic pool or a runtime without phase-type form (estimate_state_count's documented
      // refusals): refused after the estimate.
      cost.seconds += costs.state_estimate;
      cost.refused = true;
      return cost;
    }
    // As the solver: beyond max_states or the memory budget (a lower bound when incomplete).
    const std::int64_t most = request.solver_options.state_space.max_states;
    if ((most > 0 && estimate.states > static_cast<double>(most)) ||
        estimate.bytes > static_cast<double>(request.memory_budget_bytes)) {
      cost.seconds += costs.state_estimate;
      cost.refused = true;
      return cost;
    }
    if (!estimate.complete) {
      cost.seconds += costs.state * limit;
      cost.at_limit = true;
    } else {
      cost.seconds += costs.state * estimate.states;
    }
  }
  return cost;
}

}  // namespace

std::optional<CostEstimate> estimate_cost(const std::vector<Case>& cases, const Request& request,
                                          const UnitCosts& costs) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<int> counts = request.processors;
  if (counts.empty() || counts.front() != 1) counts.insert(counts.begin(), 1);
  const std::size_t items = counts.size() * cases.size();
  std::vector<Item> built(items);
  // As find_shared_models in study.cpp: item k = p index * cases + case.
  const auto failure = run_items(
      items, request.threads,
      [&](std::size_t k) -> std::optional<Failure> {
        const Case& one = cases[k % cases.size()];
        const int p = counts[k / cases.size()];
        const graph::SpTree tree = scaling::approximate_model(*one.program, *one.machine, one.environment, p);
        graph::add_to(built[k].print, tree);
        built[k].print.add(static_cast<std::uint64_t>(p == 1 ? 1 : 0));
        built[k].tasks = tree.expanded_node_count();
        for (const graph::SpNode& node : tree.nodes()) {
          built[k].nodes += 1.0;
          if (node.kind != graph::SpKind::Leaf) built[k].inner_nodes += 1.0;
        }
        return std::nullopt;
      },
      [&](std::size_t k) { return cases[k % cases.size()].label.machine_index; });
  if (failure) return std::nullopt;

  bool exact_needed = request.prediction.seconds_per_model > 0.0;
  int best_rank = 0;  // of the methods asked for: the prediction solves itself only above it
  for (solvers::Method method : request.methods) {
    exact_needed = exact_needed || solvers::info(method).needs_exact_model;
    best_rank = std::max(best_rank, solvers::info(method).prediction_rank);
  }
  const bool own_solve = request.prediction.seconds_per_model > 0.0 &&
                         best_rank < solvers::info(solvers::Method::MonteCarlo).prediction_rank;
  const solvers::SolverOptions& options = request.solver_options;
  const double samples = monte_carlo_samples(options.monte_carlo);
  const double state_limit = options.state_space.max_states > 0
                                 ? static_cast<double>(options.state_space.max_states)
                                 : static_cast<double>(request.memory_budget_bytes) / kBytesPerState;

  CostEstimate estimate;
  std::map<std::pair<std::string, int>, CostPart> parts;
  const auto add = [&](const std::string& method, int p, double seconds) {
    if (!(seconds > 0.0)) return;
    CostPart& part = parts[{method, bucket_of(p)}];
    if (part.method.empty()) {
      part.method = method;
      part.p_low = part.p_high = p;
    }
    part.p_low = std::min(part.p_low, p);
    part.p_high = std::max(part.p_high, p);
    part.seconds += seconds;
  };

  // Groups of items with equal approximate models, in ascending p within each case.
  std::map<std::pair<std::size_t, distributions::Fingerprint>, std::vector<std::size_t>> groups;
  for (std::size_t k = 0; k < items; ++k) groups[{k % cases.size(), built[k].print}].push_back(k);
  std::vector<std::size_t> representatives;
  for (const auto& [key, members] : groups) {
    representatives.push_back(members.front());
    for (std::size_t k : members) {
      const int p = counts[k / cases.size()];
      const bool exact_built = members.size() > 1 && exact_needed && built[k].tasks <= request.max_exact_tasks;
      add("models", p, costs.tree_node * built[k].nodes + (exact_built ? exact_cost(costs, built[k].tasks, p) : 0.0));
    }
  }
  std::sort(representatives.begin(), representatives.end());  // ascending p, then case
  estimate.models = representatives.size();

  std::vector<bool> state_refused(cases.size(), false);
  double estimating = 0.0;
  for (std::size_t k : representatives) {
    const std::size_t c = k % cases.size();
    const int p = counts[k / cases.size()];
    const Item& item = built[k];
    const auto tasks = static_cast<double>(item.tasks);
    const bool exact = (exact_needed || p == 1) && item.tasks <= request.max_exact_tasks;
    if (exact) add("models", p, exact_cost(costs, item.tasks, p));
    // The prediction's own solve (exact or Monte Carlo) within its budget, at most; at p = 1
    // the one-processor chain answers instead.
    if (exact && own_solve && p > 1 && cases[c].label.phase.empty()) {
      add("prediction", p, std::min(request.prediction.seconds_per_model, costs.task_sample * tasks * samples));
    }
    for (solvers::Method method : request.methods) {
      const std::string name(solvers::info(method).name);
      if (method == solvers::Method::SeriesParallel) {
        add(name, p,
            costs.reduction_node_point * item.inner_nodes *
                static_cast<double>(options.series_parallel.grid.max_points));
        continue;
      }
      if (!exact) continue;  // refused: the exact model is over the task limit
      switch (method) {
        case solvers::Method::Bounds:
          add(name, p,
              costs.bounds_model + std::min(costs.bounds_small_task * tasks, costs.bounds_small_most) +
                  costs.bounds_task * tasks);
          break;
        case solvers::Method::MonteCarlo: add(name, p, costs.task_sample * tasks * samples); break;
        case solvers::Method::StateSpace: {
          // A larger p than one refused is assumed refused too: more processors run more
          // tasks at once, which only adds states.
          if (state_refused[c]) {
            add(name, p, costs.state_estimate);
            break;
          }
          if (estimating >= kStateEstimateSeconds || item.tasks > kStateEstimateTasks) {
            add(name, p, costs.state * state_limit);
            estimate.states_at_limit = true;
            break;
          }
          const auto begin = std::chrono::steady_clock::now();
          const StateCost cost = state_space_cost(cases[c], p, request, costs, state_limit);
          estimating += std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
          state_refused[c] = cost.refused;
          estimate.states_at_limit = estimate.states_at_limit || cost.at_limit;
          add(name, p, cost.seconds);
          break;
        }
        default: break;
      }
    }
  }
  for (auto& [key, part] : parts) {
    estimate.seconds += part.seconds;
    estimate.parts.push_back(part);
  }
  std::stable_sort(estimate.parts.begin(), estimate.parts.end(),
                   [](const CostPart& a, const CostPart& b) { return a.seconds > b.seconds; });
  estimate.estimate_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return estimate;
}

std::string duration_text(double seconds) {
  if (seconds < 1.0) return "under 1 s";
  if (seconds < 90.0) return fmt::format("about {:.0f} s", seconds);
  if (seconds < 90.0 * 60.0) return fmt::format("about {:.0f} min", seconds / 60.0);
  if (seconds < 48.0 * 3600.0) return fmt::format("about {:.1f} h", seconds / 3600.0);
  return fmt::format("about {:.0f} days", seconds / 86400.0);
}

std::string describe(const CostPart& part) {
  const std::string what = part.method == "models"       ? "building the models"
                           : part.method == "prediction" ? "the prediction's own solve"
                                                         : part.method;
  const std::string range =
      part.p_low == part.p_high ? fmt::format("p = {}", part.p_low) : fmt::format("p = {}-{}", part.p_low, part.p_high);
  return fmt::format("{} on {}: {}", what, range, duration_text(part.seconds));
}

}  // namespace analysis
