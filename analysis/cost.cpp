#include "analysis/cost.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "analysis/cost_pilots.hpp"
#include "analysis/parallel.hpp"
#include "analysis/sensitivity.hpp"
#include "analysis/study_plan.hpp"
#include "distributions/fingerprint.hpp"
#include "distributions/queries.hpp"
#include "graph/fingerprint.hpp"
#include "scaling/approximate_model.hpp"
#include "solvers/reference_costs.hpp"
#include "solvers/solver.hpp"

namespace analysis {

namespace {

int bucket_of(int p) {
  int k = 0;
  while ((p >> (k + 1)) > 0) ++k;
  return k;
}

// The estimate's parts, per method and power-of-two range of p.
class Parts {
 public:
  void add(const std::string& method, int p, double seconds) {
    if (!(seconds > 0.0)) return;
    CostPart& part = parts_[{method, bucket_of(p)}];
    if (part.method.empty()) {
      part.method = method;
      part.p_low = part.p_high = p;
    }
    part.p_low = std::min(part.p_low, p);
    part.p_high = std::max(part.p_high, p);
    part.seconds += seconds;
  }
  // Into `estimate`, largest first.
  void finish(CostEstimate& estimate) const {
    for (const auto& [key, part] : parts_) {
      estimate.seconds += part.seconds;
      estimate.parts.push_back(part);
    }
    std::stable_sort(estimate.parts.begin(), estimate.parts.end(),
                     [](const CostPart& a, const CostPart& b) { return a.seconds > b.seconds; });
  }

 private:
  std::map<std::pair<std::string, int>, CostPart> parts_;
};

// The models the estimate had no time to build: their building, extrapolated from the largest
// ones built as seconds = a p^b (b in [1, 3]: a layout walked per processor is linear in p, an
// all-to-all's messages quadratic), into `parts`. Solving them is not counted: the estimate is
// then a floor.
void count_unbuilt(const StudyPlan& plan, Parts& parts) {
  int largest = 1;
  for (std::size_t k = 0; k < plan.size(); ++k) {
    if (plan.items[k].built) largest = std::max(largest, plan.p_of(k));
  }
  // Least squares of log seconds on log p over the built models of p >= largest / 8.
  double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t k = 0; k < plan.size(); ++k) {
    const int p = plan.p_of(k);
    if (!plan.items[k].built || !(plan.items[k].seconds > 0.0) || p * 8 < largest) continue;
    const double x = std::log(static_cast<double>(p)), y = std::log(plan.items[k].seconds);
    n += 1;
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  if (n == 0) return;
  const double spread = n * sxx - sx * sx;
  const double b = spread > 1e-12 ? std::clamp((n * sxy - sx * sy) / spread, 1.0, 3.0) : 1.0;
  const double log_a = (sy - b * sx) / n;
  for (std::size_t k = 0; k < plan.size(); ++k) {
    const int p = plan.p_of(k);
    if (!plan.items[k].built) parts.add("models", p, std::exp(log_a + b * std::log(static_cast<double>(p))));
  }
}

// The solvers of the estimate: the methods asked for, and those the prediction may solve
// itself (not asked for, ranked above every one asked for, able to fit a budget), best first.
struct Solvers {
  std::vector<std::unique_ptr<solvers::Solver>> asked;
  std::vector<std::unique_ptr<solvers::Solver>> own;
};

Solvers solvers_of(const Request& request) {
  solvers::SolverOptions options = request.solver_options;
  options.memory_budget_bytes = request.memory_budget_bytes;
  Solvers made;
  int best_rank = 0;
  for (solvers::Method method : request.methods) {
    made.asked.push_back(solvers::make_solver(method, options));
    best_rank = std::max(best_rank, solvers::info(method).prediction_rank);
  }
  if (!(request.prediction.seconds_per_model > 0.0)) return made;
  for (solvers::Method method : solvers::all_methods()) {
    const bool asked = std::find(request.methods.begin(), request.methods.end(), method) != request.methods.end();
    if (!asked && solvers::info(method).prediction_rank > best_rank) {
      made.own.push_back(solvers::make_solver(method, options));
    }
  }
  std::stable_sort(made.own.begin(), made.own.end(),
                   [](const auto& a, const auto& b) { return a->info().prediction_rank > b->info().prediction_rank; });
  return made;
}

// The items of the plan grouped by the model they share, each group ascending (the run solves its
// first): by representative in a complete plan; in one the time limited, the items built by
// their approximate models alone.
std::vector<std::vector<std::size_t>> group_models(const StudyPlan& plan) {
  std::vector<std::vector<std::size_t>> groups;
  if (plan.complete) {
    std::map<std::size_t, std::size_t> group_of;
    for (std::size_t k = 0; k < plan.size(); ++k) {
      const auto [at, added] = group_of.try_emplace(plan.representative[k], groups.size());
      if (added) groups.emplace_back();
      groups[at->second].push_back(k);
    }
    return groups;
  }
  std::map<std::pair<std::size_t, distributions::Fingerprint>, std::vector<std::size_t>> by_print;
  for (std::size_t k = 0; k < plan.size(); ++k) {
    if (plan.items[k].built) by_print[{plan.case_of(k), plan.items[k].print}].push_back(k);
  }
  for (auto& [key, members] : by_print) groups.push_back(std::move(members));
  return groups;
}

// One representative per group, ascending p, then case.
std::vector<std::size_t> representatives_of(const std::vector<std::vector<std::size_t>>& groups) {
  std::vector<std::size_t> representatives;
  for (const std::vector<std::size_t>& members : groups) representatives.push_back(members.front());
  std::sort(representatives.begin(), representatives.end());
  return representatives;
}

// Building the models: every approximate model, twice for the one of a group the run solves
// (plan_study in study_plan.cpp builds each to compare them, solve_case again to solve it),
// and the exact models the plan compares (those of processor counts sharing an approximate model).
void count_models(const StudyPlan& plan, const std::vector<std::vector<std::size_t>>& groups, const UnitCosts& costs,
                  const cost_detail::Pilots& estimates, Parts& parts) {
  for (const std::vector<std::size_t>& members : groups) {
    for (std::size_t k : members) {
      const int p = plan.p_of(k);
      const double tasks = plan.items[k].sizes.tasks;
      const bool exact_built = members.size() > 1 && plan.items[k].builds_exact();
      // With costs.time_pilots, the approximate model as long as it took to build here.
      const double approximate =
          (k == members.front() ? 2.0 : 1.0) *
          (costs.time_pilots ? plan.items[k].seconds : costs.tree_node * plan.items[k].sizes.tree_nodes);
      parts.add("models", p,
                approximate + (exact_built ? estimates.exact_seconds(plan.case_of(k), costs, tasks, p) : 0.0));
    }
  }
}

// The prediction's own solve of one model: the best method that fits its budget, at most it.
double own_solve_seconds(const Solvers& made, const solvers::ModelSizes& sizes, const Request& request,
                         const UnitCosts& costs) {
  for (const auto& solver : made.own) {
    if (const auto seconds = solver->cost_within(sizes, costs, request.prediction.seconds_per_model)) return *seconds;
  }
  return 0.0;
}

// The solves --sensitivity makes of one (case, p): the base, and per constant two for the
// elasticity and, for the two tolerances, a few to bracket and TOMS 748's steps (10.6 to 13 per
// constant in all on Foster's stencil and the paper's neighbour example, counted 2026-12-02).
double sensitivity_solves(const Case& one) {
  constexpr double kSolvesPerConstant = 14.0;
  return 1.0 + kSolvesPerConstant * static_cast<double>(constants_of(one).size());
}

// One model's parts: the prediction's own solve, each method asked for, its exact model's
// build and, with --sensitivity, the solves of its constants.
void add_model(const cost_detail::PilotModel& model, const std::vector<Case>& cases, const Solvers& made,
               const Request& request, const UnitCosts& costs, cost_detail::Pilots& pilots, Parts& parts,
               CostEstimate& estimate) {
  const bool exact = model.exact;
  // p = 1 not listed, its one-processor model a chain: the study runs no method there, T(1)
  // being the chain's sum. Where the pilots did not build that model it is taken for a chain,
  // as every p = 1 model of the examples is (a dynamically scheduled pool on one processor
  // runs its tasks in series).
  const bool base_only =
      exact && model.p == 1 && !request.reports(1) && pilots.one_processor_chain(model.case_index).value_or(true);
  const bool whole_program = cases[model.case_index].label.phase.empty();
  // The prediction's solve (its own, else the costliest method asked for) and the models' builds:
  // what each solve of --sensitivity costs.
  double prediction_seconds = 0.0;
  // At p = 1 the one-processor chain answers for the prediction instead.
  if (exact && model.p > 1 && whole_program) {
    prediction_seconds = own_solve_seconds(made, model.sizes, request, costs);
    parts.add("prediction", model.p, prediction_seconds);
  }
  const bool own_solve = prediction_seconds > 0.0;
  double build_seconds = model.build_seconds;
  for (std::size_t m = 0; m < made.asked.size() && !base_only; ++m) {
    const solvers::Solver& solver = *made.asked[m];
    const solvers::SolverInfo& info = solver.info();
    if (info.needs_exact_model && !exact) continue;  // refused: the exact model is over the task limit
    const solvers::SolveCost cost =
        info.cost_needs_models ? pilots.cost(m, model, costs) : solver.cost(model.sizes, costs);
    estimate.states_at_limit = estimate.states_at_limit || cost.at_limit;
    parts.add(std::string(info.name), model.p, cost.seconds);
    if (!own_solve) prediction_seconds = std::max(prediction_seconds, cost.seconds);
  }
  if (exact) {
    const double build = pilots.exact_seconds(model.case_index, costs, model.sizes.tasks, model.p);
    parts.add("models", model.p, build);
    build_seconds += build;
  }
  if (request.sensitivity && whole_program) {
    parts.add("sensitivity", model.p,
              sensitivity_solves(cases[model.case_index]) * (prediction_seconds + build_seconds));
  }
}

}  // namespace

std::optional<CostEstimate> estimate_cost(const StudyPlan& plan, const std::vector<Case>& cases, const Request& request,
                                          const UnitCosts& costs) {
  const auto start = std::chrono::steady_clock::now();
  const Solvers made = solvers_of(request);
  CostEstimate estimate;
  Parts parts;
  const std::vector<std::vector<std::size_t>> groups = group_models(plan);
  const std::vector<std::size_t> representatives = representatives_of(groups);
  const bool built = std::all_of(plan.items.begin(), plan.items.end(), [](const PlannedItem& i) { return i.built; });
  if (!built) count_unbuilt(plan, parts);
  estimate.complete = built;
  estimate.models = representatives.size();
  // The models to estimate, ascending p within each case; their pilots spread over the sweep.
  std::vector<cost_detail::PilotModel> models;
  for (std::size_t k : representatives) {
    const solvers::ModelSizes& sizes = plan.items[k].sizes;
    models.push_back({.case_index = plan.case_of(k),
                      .p = plan.p_of(k),
                      .sizes = sizes,
                      .exact = plan.items[k].builds_exact(),
                      .build_seconds = plan.items[k].seconds});
  }
  cost_detail::Pilots pilots(cases.size(), made.asked);
  pilots.run(cases, models, cost_detail::pilot_order(models), request, costs);
  for (const cost_detail::PilotModel& model : models)
    add_model(model, cases, made, request, costs, pilots, parts, estimate);
  count_models(plan, groups, costs, pilots, parts);
  parts.finish(estimate);
  estimate.seconds = agreed_seconds(estimate.seconds, request.communicator);
  estimate.estimate_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return estimate;
}

std::optional<CostEstimate> estimate_cost(const std::vector<Case>& cases, const Request& request,
                                          const UnitCosts& costs) {
  const auto start = std::chrono::steady_clock::now();
  const Outcome<StudyPlan> plan = plan_study(cases, request, PlanLimits{kEstimatePlanSeconds});
  if (!plan.ok()) return std::nullopt;
  std::optional<CostEstimate> estimate = estimate_cost(*plan.value, cases, request, costs);
  if (estimate)
    estimate->estimate_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return estimate;
}

double agreed_seconds(double seconds, const distributed::Communicator* ranks) {
  if (ranks == nullptr || ranks->size() < 2) return seconds;
  distributed::Writer mine;
  mine.put(seconds);
  const std::string agreed = ranks->broadcast(std::move(mine.bytes()), 0);
  return distributed::Reader(agreed).get<double>();
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
