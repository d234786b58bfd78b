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
#include "distributions/fingerprint.hpp"
#include "distributions/queries.hpp"
#include "graph/fingerprint.hpp"
#include "scaling/approximate_model.hpp"
#include "solvers/reference_costs.hpp"
#include "solvers/solver.hpp"

namespace analysis {

namespace {

// Time the estimate may spend building approximate models; a run whose models take longer is
// long, and the estimate extrapolates the rest (count_unbuilt).
constexpr double kBuildSeconds = 1.0;

struct Item {
  distributions::Fingerprint print;
  solvers::ModelSizes sizes;
};

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

// The approximate model of every (case, p) that could be built within kBuildSeconds (the study
// builds the same models, so building them is a floor of its time): item k = p index * cases +
// case, as find_shared_models in study.cpp, largest p first; nothing when a model cannot be
// built.
struct Built {
  std::vector<Item> items;
  std::vector<bool> built;      // per item: false when the time for the estimate ran out first
  std::vector<double> seconds;  // per item built: the time its building took
  bool complete = true;
};

// The tree's sizes; an inner node is random when a leaf below it is (children precede parents).
solvers::ModelSizes sizes_of(const graph::SpTree& tree) {
  solvers::ModelSizes sizes;
  sizes.tasks = static_cast<double>(tree.expanded_node_count());
  std::vector<char> random(tree.nodes().size(), 0);
  for (std::size_t n = 0; n < tree.nodes().size(); ++n) {
    const graph::SpNode& node = tree.nodes()[n];
    sizes.tree_nodes += 1.0;
    if (node.kind == graph::SpKind::Leaf) {
      const auto closed = distributions::closed_form(node.task.runtime);
      random[n] = !closed || closed->kind != distributions::ClosedFormParameters::Kind::Deterministic;
      continue;
    }
    random[n] = std::any_of(node.children.begin(), node.children.end(), [&](std::size_t c) { return random[c] != 0; });
    if (random[n]) sizes.random_inner_tree_nodes += 1.0;
  }
  return sizes;
}

std::optional<Built> approximate_items(const std::vector<Case>& cases, const std::vector<int>& counts,
                                       const Request& request) {
  Built result;
  result.items.resize(counts.size() * cases.size());
  std::vector<char> built(result.items.size(), 0);
  std::vector<double> seconds(result.items.size(), 0.0);
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  // The longest a model took so far: one is not started when one more as long would end past the
  // time (the next p take longer, an all-to-all's seconds each at thousands of processors).
  std::atomic<double> slowest{0.0};
  const auto build = [&](std::size_t k) -> std::optional<Failure> {
    const auto begin = std::chrono::steady_clock::now();
    if (elapsed() + slowest.load() > kBuildSeconds) return std::nullopt;
    const Case& one = cases[k % cases.size()];
    const int p = counts[k / cases.size()];
    const graph::SpTree tree = scaling::approximate_model(*one.program, *one.machine, one.environment, p);
    Item& item = result.items[k];
    graph::add_to(item.print, tree);
    item.print.add(static_cast<std::uint64_t>(p == 1 ? 1 : 0));
    item.sizes = sizes_of(tree);
    built[k] = 1;
    seconds[k] = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    for (double seen = slowest.load(); seconds[k] > seen && !slowest.compare_exchange_weak(seen, seconds[k]);) {}
    return std::nullopt;
  };
  // Smallest p first, in batches growing with the models built (an eighth more each time), so
  // that the models in flight when the time runs out are those of the next p: the threads of one
  // batch would otherwise split the whole range and start its middle, p in the thousands.
  for (std::size_t done = 0; done < result.items.size() && elapsed() <= kBuildSeconds;) {
    const std::size_t batch = std::min(result.items.size() - done, std::max<std::size_t>(16, done / 8));
    const auto failure = run_items(
        batch, request.threads, [&](std::size_t k) { return build(done + k); },
        [&](std::size_t k) { return cases[(done + k) % cases.size()].label.machine_index; });
    if (failure) return std::nullopt;
    done += batch;
  }
  result.seconds.assign(seconds.begin(), seconds.end());
  result.built.assign(built.begin(), built.end());
  result.complete = std::all_of(built.begin(), built.end(), [](char b) { return b != 0; });
  return result;
}

// The models the estimate had no time to build: their building, extrapolated from the largest
// ones built as seconds = a p^b (b in [1, 3]: a layout walked per processor is linear in p, an
// all-to-all's messages quadratic), into `parts`. Solving them is not counted: the estimate is
// then a floor.
void count_unbuilt(const Built& built, std::size_t cases, const std::vector<int>& counts, Parts& parts) {
  int largest = 1;
  for (std::size_t k = 0; k < built.items.size(); ++k) {
    if (built.built[k]) largest = std::max(largest, counts[k / cases]);
  }
  // Least squares of log seconds on log p over the built models of p >= largest / 8.
  double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t k = 0; k < built.items.size(); ++k) {
    const int p = counts[k / cases];
    if (!built.built[k] || !(built.seconds[k] > 0.0) || p * 8 < largest) continue;
    const double x = std::log(static_cast<double>(p)), y = std::log(built.seconds[k]);
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
  for (std::size_t k = 0; k < built.items.size(); ++k) {
    const int p = counts[k / cases];
    if (!built.built[k]) parts.add("models", p, std::exp(log_a + b * std::log(static_cast<double>(p))));
  }
}

// The solvers of the estimate: the methods asked for, and those the prediction may solve
// itself (not asked for, ranked above every one asked for, able to fit a budget), best first.
struct Solvers {
  std::vector<std::unique_ptr<solvers::Solver>> asked;
  std::vector<std::unique_ptr<solvers::Solver>> own;
  bool exact_needed = false;
};

Solvers solvers_of(const Request& request) {
  solvers::SolverOptions options = request.solver_options;
  options.memory_budget_bytes = request.memory_budget_bytes;
  Solvers made;
  made.exact_needed = request.prediction.seconds_per_model > 0.0;
  int best_rank = 0;
  for (solvers::Method method : request.methods) {
    made.asked.push_back(solvers::make_solver(method, options));
    made.exact_needed = made.exact_needed || solvers::info(method).needs_exact_model;
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

// The built approximate models grouped by case and fingerprint (the run solves one per group).
using Groups = std::map<std::pair<std::size_t, distributions::Fingerprint>, std::vector<std::size_t>>;
Groups group_models(const Built& made, std::size_t cases) {
  Groups groups;
  for (std::size_t k = 0; k < made.items.size(); ++k) {
    if (made.built[k]) groups[{k % cases, made.items[k].print}].push_back(k);
  }
  return groups;
}

// One representative per group, ascending p, then case.
std::vector<std::size_t> representatives_of(const Groups& groups) {
  std::vector<std::size_t> representatives;
  for (const auto& [key, members] : groups) representatives.push_back(members.front());
  std::sort(representatives.begin(), representatives.end());
  return representatives;
}

// Building the models: every approximate model, twice for the one of a group the run solves
// (find_shared_models in study.cpp builds each to compare them, solve_case again to solve it),
// and the exact models the run compares (those of processor counts sharing an approximate model).
void count_models(const Built& made, const Groups& groups, const std::vector<int>& counts, bool exact_needed,
                  const Request& request, const UnitCosts& costs, const cost_detail::Pilots& estimates, Parts& parts) {
  const std::size_t cases = made.items.size() / counts.size();
  for (const auto& [key, members] : groups) {
    for (std::size_t k : members) {
      const int p = counts[k / cases];
      const double tasks = made.items[k].sizes.tasks;
      const bool exact_built =
          members.size() > 1 && exact_needed && tasks <= static_cast<double>(request.max_exact_tasks);
      // With costs.time_pilots, the approximate model as long as it took to build here.
      const double approximate =
          (k == members.front() ? 2.0 : 1.0) *
          (costs.time_pilots ? made.seconds[k] : costs.tree_node * made.items[k].sizes.tree_nodes);
      parts.add("models", p, approximate + (exact_built ? estimates.exact_seconds(key.first, costs, tasks, p) : 0.0));
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
  const bool exact = (made.exact_needed || model.p == 1) && model.exact_allowed;
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

std::optional<CostEstimate> estimate_cost(const std::vector<Case>& cases, const Request& request,
                                          const UnitCosts& costs) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<int> counts = request.processors;
  if (counts.empty() || counts.front() != 1) counts.insert(counts.begin(), 1);
  const auto built = approximate_items(cases, counts, request);
  if (!built) return std::nullopt;
  const Solvers made = solvers_of(request);
  CostEstimate estimate;
  Parts parts;
  const Groups groups = group_models(*built, cases.size());
  const std::vector<std::size_t> representatives = representatives_of(groups);
  if (!built->complete) count_unbuilt(*built, cases.size(), counts, parts);
  estimate.complete = built->complete;
  estimate.models = representatives.size();
  // The models to estimate, ascending p within each case; their pilots spread over the sweep.
  std::vector<cost_detail::PilotModel> models;
  for (std::size_t k : representatives) {
    const solvers::ModelSizes& sizes = built->items[k].sizes;
    models.push_back({.case_index = k % cases.size(),
                      .p = counts[k / cases.size()],
                      .sizes = sizes,
                      .exact_allowed = sizes.tasks <= static_cast<double>(request.max_exact_tasks),
                      .build_seconds = built->seconds[k]});
  }
  cost_detail::Pilots pilots(cases.size(), made.asked);
  pilots.run(cases, models, cost_detail::pilot_order(models), request, costs);
  for (const cost_detail::PilotModel& model : models)
    add_model(model, cases, made, request, costs, pilots, parts, estimate);
  count_models(*built, groups, counts, made.exact_needed, request, costs, pilots, parts);
  parts.finish(estimate);
  estimate.seconds = agreed_seconds(estimate.seconds, request.communicator);
  estimate.estimate_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
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
