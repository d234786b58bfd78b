#include "analysis/solve_case.hpp"

#include <algorithm>
#include <memory>

#include "analysis/sequential_time.hpp"
#include "scaling/approximate_model.hpp"
#include "solvers/solver.hpp"

namespace analysis {

namespace {

solvers::Result exact_model_too_large(solvers::Method method, std::int64_t tasks, std::int64_t limit) {
  solvers::Result result;
  result.method = method;
  solvers::Unsolved& why = result.unsolved.emplace();
  why.reason = solvers::Unsolved::Reason::ExactModelTooLarge;
  why.limit = solvers::Unsolved::Limit::Tasks;
  why.size = static_cast<double>(tasks);
  why.limit_value = static_cast<double>(limit);
  why.explanation =
      "the exact model has about " + std::to_string(tasks) + " tasks, more than the limit of " + std::to_string(limit);
  return result;
}

solvers::Result exact_model_over_budget(solvers::Method method, std::int64_t tasks, double bytes, double budget) {
  solvers::Result result;
  result.method = method;
  solvers::Unsolved& why = result.unsolved.emplace();
  why.reason = solvers::Unsolved::Reason::OverMemoryBudget;
  why.limit = solvers::Unsolved::Limit::Memory;
  why.size = static_cast<double>(tasks);
  why.bytes = bytes;
  why.limit_value = budget;
  why.explanation = "the exact model of about " + std::to_string(tasks) + " tasks";
  return result;
}

// The prediction's own solve (docs/cli.md, "The prediction"): a method not asked for that ranks
// above every method asked for, run on a (case, p) when its cost fits the prediction's budget.
// A method not asked for that may answer for the prediction, tuned to the prediction's budget,
// with its memory plan.
struct OwnSolver {
  std::unique_ptr<solvers::Solver> solver;
  solvers::MemoryPlan plan;
};

// The methods the prediction may solve itself on this model (PredictionOptions::
// seconds_per_model): every method not asked for whose solve the budget pays for and whose
// plan fits, highest prediction rank first. None at p = 1 when T(1) is exact (a chain), which
// is then the prediction.
std::vector<OwnSolver> prediction_solvers(const Request& request, const solvers::SolverOptions& options,
                                          const solvers::ScaledModels& models, bool exact_base) {
  std::vector<OwnSolver> own;
  const double seconds = request.prediction.seconds_per_model;
  if (models.exact.empty() || exact_base || !(seconds > 0.0)) return own;
  for (solvers::Method method : solvers::all_methods()) {
    if (std::find(request.methods.begin(), request.methods.end(), method) != request.methods.end()) continue;
    std::unique_ptr<solvers::Solver> tuned = solvers::make_solver(method, options)->within_seconds(models, seconds);
    if (!tuned) continue;
    solvers::MemoryPlan plan = tuned->plan_memory(models);
    if (plan.refusal) continue;
    own.push_back({std::move(tuned), std::move(plan)});
  }
  std::stable_sort(own.begin(), own.end(), [](const OwnSolver& a, const OwnSolver& b) {
    return a.solver->info().prediction_rank > b.solver->info().prediction_rank;
  });
  return own;
}

// One (case, p)'s models and solvers as planned before it is solved. The mixture points into
// `exact`: a plan is built in place and never moved.
struct CasePlan {
  explicit CasePlan(graph::SpTree approximate) : tree(std::move(approximate)), tasks(tree.expanded_node_count()) {}
  CasePlan(const CasePlan&) = delete;
  CasePlan& operator=(const CasePlan&) = delete;

  // The approximate model comes first: it is cheap, it reports invalid values, and its
  // expanded size is the exact model's task count.
  const graph::SpTree tree;
  std::int64_t tasks;
  double budget = 0.0;  // the run's memory budget
  MemoryGate::Reservation reservation;
  NoExactModel no_exact;
  std::optional<scaling::ExactModel> exact;
  double model_bytes = 0.0;
  std::vector<solvers::WeightedGraph> mixture;
  std::vector<std::unique_ptr<solvers::Solver>> solvers;
  std::vector<solvers::MemoryPlan> plans;
  std::optional<solvers::Result> base;  // T(1)
  // p = 1 only as the base of the speedups, and T(1) is its chain's sum: no method runs.
  bool base_only = false;
  std::vector<OwnSolver> own;  // the prediction's own solvers
  double largest_plan = 0.0;

  solvers::ScaledModels models() const { return {&tree, mixture, {}}; }
};

void build_exact_model(CasePlan& plan, const Case& one, int p, const Request& request, MemoryGate& gate) {
  plan.budget = gate.capacity();
  plan.exact = exact_model_for(one, p, request, gate, &plan.reservation, &plan.tasks, &plan.no_exact);
  if (!plan.exact) return;
  for (const scaling::Scenario& scenario : plan.exact->scenarios) {
    plan.model_bytes += solvers::task_graph_bytes(static_cast<double>(scenario.graph.node_count()),
                                                  static_cast<double>(scenario.graph.arc_count()));
  }
  plan.mixture = weighted(*plan.exact);
}

// The methods' solvers and plans, T(1) and the prediction's own solvers.
void plan_solvers(CasePlan& plan, const Case& one, int p, const Request& request, const CaseWork& work) {
  // Each solve may use what the model leaves of the budget.
  solvers::SolverOptions options = request.solver_options;
  options.memory_budget_bytes = static_cast<std::uint64_t>(
      std::max(plan.budget - plan.model_bytes, static_cast<double>(solvers::kSmallestMemoryBudget)));
  options.monte_carlo.communicator = work.collective;
  options.state_space.communicator = work.collective;
  // T(1), where the one-processor model is a chain. One that is not finite (a sum past the
  // largest double) is no base: each method then divides by its own p = 1 figure, which passed
  // the same check.
  if (p == 1 && plan.exact) plan.base = one_processor_time(*plan.exact);
  if (plan.base && !solvers::finite_or_unsolved(*plan.base).solved()) plan.base.reset();
  plan.base_only = p == 1 && plan.base && !request.reports(1);
  for (solvers::Method method : request.methods) {
    plan.solvers.push_back(solvers::make_solver(method, options));
    plan.plans.emplace_back();
    if (!work.methods[plan.solvers.size() - 1] || plan.base_only) continue;
    if (plan.solvers.back()->info().needs_exact_model && !plan.exact) continue;
    plan.plans.back() = plan.solvers.back()->plan_memory(plan.models());
    if (!plan.plans.back().refusal) plan.largest_plan = std::max(plan.largest_plan, plan.plans.back().bytes);
  }
  // A --loss phase alone has no prediction: only the whole program's is reported.
  if (work.prediction && plan.exact && one.label.phase.empty()) {
    plan.own = prediction_solvers(request, options, plan.models(), plan.base.has_value());
  }
  for (const OwnSolver& solver : plan.own) plan.largest_plan = std::max(plan.largest_plan, solver.plan.bytes);
}

// The memory of the model and the largest plan, reserved before the solves run.
void reserve(CasePlan& plan, const Case& one, int p, const Request& request, MemoryGate& gate) {
  const double need = plan.model_bytes + plan.largest_plan;
  if (!plan.exact) {
    plan.reservation.release();
    plan.reservation = gate.acquire(need);
  } else if (!plan.reservation.try_resize(need)) {
    // Waiting while holding memory could wait for a solve that waits for this one: give the
    // model back, wait with nothing held, build it again.
    plan.mixture.clear();
    plan.exact.reset();
    plan.reservation.release();
    plan.reservation = gate.acquire(need);
    plan.exact = scaling::exact_model(*one.program, *one.machine, one.environment, p, request.exact_model);
    plan.mixture = weighted(*plan.exact);
  }
}

// Why method j has no figure without the exact model.
solvers::Result without_exact_model(const CasePlan& plan, solvers::Method method, const Request& request) {
  if (!plan.no_exact.beyond_nodes.empty()) {
    solvers::Result result;
    result.method = method;
    result.unsolved.emplace().explanation = plan.no_exact.beyond_nodes;  // Reason::NotSupported
    return result;
  }
  if (plan.no_exact.over_budget) {
    return exact_model_over_budget(method, plan.tasks,
                                   solvers::exact_model_build_bytes(static_cast<double>(plan.tasks)), plan.budget);
  }
  return exact_model_too_large(method, plan.tasks, request.max_exact_tasks);
}

solvers::Result solve_method(const CasePlan& plan, std::size_t j, const Request& request,
                             const std::function<void(double)>& report) {
  const solvers::SolverInfo& info = plan.solvers[j]->info();
  if (info.needs_exact_model && !plan.exact) return without_exact_model(plan, info.method, request);
  if (plan.plans[j].refusal) {
    solvers::Result refused;
    refused.method = info.method;
    refused.unsolved = plan.plans[j].refusal;
    return refused;
  }
  solvers::ScaledModels models = plan.models();
  if (report) {
    const double share = 1.0 / static_cast<double>(plan.solvers.size());
    models.report_progress = [&report, j, share](double fraction) {
      report((static_cast<double>(j) + std::clamp(fraction, 0.0, 1.0)) * share);
    };
  }
  return plan.solvers[j]->solve(models);
}

// The prediction's own solve: the first of `own` that ranks above every method this call solved
// and solves. The methods solved elsewhere (another call of a job's ranks) rank below every
// method that can solve for the prediction (those whose solve is collective), so the choice is
// the same on any number of ranks.
std::optional<solvers::Result> solve_for_prediction(const std::vector<OwnSolver>& own,
                                                    const std::vector<solvers::Result>& results,
                                                    const std::vector<bool>& solved_here,
                                                    const solvers::ScaledModels& models) {
  int best = 0;
  for (std::size_t j = 0; j < results.size(); ++j) {
    if (solved_here[j] && results[j].solved()) best = std::max(best, solvers::info(results[j].method).prediction_rank);
  }
  for (const OwnSolver& one : own) {
    if (one.solver->info().prediction_rank <= best) break;
    solvers::Result result = one.solver->solve(models);
    if (result.solved()) return result;
  }
  return std::nullopt;
}

}  // namespace

std::vector<solvers::WeightedGraph> weighted(const scaling::ExactModel& exact) {
  std::vector<solvers::WeightedGraph> mixture;
  for (const scaling::Scenario& scenario : exact.scenarios) mixture.push_back({scenario.probability, &scenario.graph});
  return mixture;
}

bool exact_model_needed(int p, const Request& request) {
  // The prediction's own solve is on the exact model too.
  return p == 1 || request.breakdown || request.prediction.seconds_per_model > 0.0 ||
         std::any_of(request.methods.begin(), request.methods.end(),
                     [](solvers::Method method) { return solvers::info(method).needs_exact_model; });
}

// A dynamically scheduled pool is one node of the exact model and one leaf of the approximate
// one, but Monte Carlo simulates each of its tasks: they count towards the limit (a pool of 1e12
// tasks would take days per sample).
double tasks_with_pools(const scaling::ExactModel& exact, std::int64_t tasks) {
  double pooled = 0.0;  // in a double: a sum of counts up to 9e15 each
  for (const scaling::Scenario& scenario : exact.scenarios) {
    double in_scenario = static_cast<double>(tasks);
    for (graph::NodeId v = 0; v < scenario.graph.node_count(); ++v) {
      const graph::TaskNode& node = scenario.graph.node(v);
      if (node.kind == graph::NodeKind::DynamicPool) in_scenario += static_cast<double>(node.pool_tasks);
    }
    pooled = std::max(pooled, in_scenario);
  }
  return pooled;
}

NoExactModel exact_model_refusal(double tasks, const Request& request, double budget) {
  NoExactModel why;
  if (!(tasks <= static_cast<double>(request.max_exact_tasks))) {
    why.over_task_limit = true;
  } else if (solvers::exact_model_build_bytes(tasks) > budget) {
    why.over_budget = true;
  }
  return why;
}

std::optional<scaling::ExactModel> exact_model_for(const Case& one, int p, const Request& request, MemoryGate& gate,
                                                   MemoryGate::Reservation* reservation, std::int64_t* tasks,
                                                   NoExactModel* why) {
  if (!exact_model_needed(p, request)) return std::nullopt;
  *why = exact_model_refusal(static_cast<double>(*tasks), request, gate.capacity());
  if (why->any()) return std::nullopt;
  *reservation = gate.acquire(solvers::exact_model_build_bytes(static_cast<double>(*tasks)));
  std::optional<scaling::ExactModel> exact;
  try {
    exact = scaling::exact_model(*one.program, *one.machine, one.environment, p, request.exact_model);
  } catch (const scaling::ExactModelTooLarge& too_large) {
    // Its messages, barriers and joins may outnumber its tasks: a limit of the model, not an
    // error of the input.
    why->beyond_nodes = too_large.what();
    return std::nullopt;
  }
  const double pooled = tasks_with_pools(*exact, *tasks);
  if (pooled > static_cast<double>(request.max_exact_tasks)) {
    *tasks = static_cast<std::int64_t>(std::min(pooled, 9e18));
    why->over_task_limit = true;
    return std::nullopt;
  }
  return exact;
}

ItemFigures solve_case(const Case& one, int p, const Request& request, MemoryGate& gate,
                       const std::function<void(double)>& report, const CaseWork& work) {
  CasePlan plan(scaling::approximate_model(*one.program, *one.machine, one.environment, p));
  build_exact_model(plan, one, p, request, gate);
  plan_solvers(plan, one, p, request, work);
  reserve(plan, one, p, request, gate);
  ItemFigures solved;
  if (work.bases) solved.one_processor_time = std::move(plan.base);
  if (request.breakdown && plan.exact && work.bases) solved.processor_time = processor_time(*plan.exact);
  for (std::size_t j = 0; j < plan.solvers.size(); ++j) {
    const bool runs = work.methods[j] && !plan.base_only;
    solved.results.push_back(runs ? solve_method(plan, j, request, report) : solvers::Result{});
  }
  if (!plan.own.empty()) {
    solved.prediction = solve_for_prediction(plan.own, solved.results, work.methods, plan.models());
  }
  return solved;
}

}  // namespace analysis
