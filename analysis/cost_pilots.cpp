#include "analysis/cost_pilots.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <deque>

#include "analysis/sequential_time.hpp"
#include "analysis/solve_case.hpp"
#include "scaling/approximate_model.hpp"
#include "scaling/exact_model.hpp"

namespace analysis::cost_detail {

namespace {

// Time the pilots may take in all; beyond it a model counts from its sizes in the proportion
// its case's pilots around it showed.
constexpr double kPilotSeconds = 0.5;
// The exact model of a model with more tasks is not built for a pilot (building it alone would
// take a good part of that time).
constexpr double kPilotTasks = 50'000;
// The reduction is its own pilot (it has no cheaper one): a case's reductions are timed for this
// long, so that the estimate costs a fraction of the run.
constexpr double kReductionPilotSeconds = 0.05;
// Minimum tasks of the exact models whose building times give a case's rate (below, the fixed
// part dominates).
constexpr double kRateTasks = 1000.0;

double seconds_since(std::chrono::steady_clock::time_point begin) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
}

// The reduction of the approximate model, timed by the solver, twice: the first solve of a grid
// size in the process plans its FFTs and touches fresh memory (up to three times the second on
// small grids). The study meets new grid sizes at its first processor counts and mostly reuses
// them after (neighbouring p have grids of nearly one size), so a case's model counts the second
// time and half of the first's surplus, that half shared among its models beyond 16: measured
// on the examples' sweeps of 16 and on neighbor.pdl's of 1,024 (docs/performance.md).
solvers::SolveCost from_approximate_model(const solvers::Solver& solver, const Case& one, const PilotModel& model,
                                          const solvers::UnitCosts& costs, std::size_t case_models) {
  const graph::SpTree tree = scaling::approximate_model(*one.program, *one.machine, one.environment, model.p);
  solvers::ScaledModels models;
  models.approximate = &tree;
  solvers::SolveCost cost = solver.cost_of_models(models, model.sizes, costs);
  const double first = cost.seconds;
  const double second = solver.cost_of_models(models, model.sizes, costs).seconds;
  const double surplus_share = 0.5 * std::min(1.0, 16.0 / static_cast<double>(std::max<std::size_t>(case_models, 1)));
  cost.seconds = std::min(first, second) + surplus_share * std::max(0.0, first - second);
  return cost;
}

}  // namespace

std::vector<std::size_t> pilot_order(const std::vector<PilotModel>& models) {
  // Per case, the models' indices ascending by p, and a queue of gaps (first, last) to split.
  std::map<std::size_t, std::vector<std::size_t>> by_case;
  for (std::size_t k = 0; k < models.size(); ++k) by_case[models[k].case_index].push_back(k);
  std::vector<std::size_t> order;
  std::vector<std::deque<std::pair<std::size_t, std::size_t>>> gaps;
  std::vector<const std::vector<std::size_t>*> lists;
  for (const auto& [c, list] : by_case) {
    order.push_back(list.front());
    lists.push_back(&list);
    gaps.emplace_back();
    if (list.size() > 1) gaps.back().emplace_back(0, list.size() - 1);
  }
  for (const auto* list : lists) {
    if (list->size() > 1) order.push_back(list->back());
  }
  for (bool more = true; more;) {
    more = false;
    for (std::size_t c = 0; c < lists.size(); ++c) {
      if (gaps[c].empty()) continue;
      more = true;
      const auto [first, last] = gaps[c].front();
      gaps[c].pop_front();
      if (last - first < 2) continue;
      const std::vector<std::size_t>& list = *lists[c];
      const double middle = std::sqrt(static_cast<double>(models[list[first]].p) * models[list[last]].p);
      const auto nearest = std::lower_bound(list.begin() + static_cast<std::ptrdiff_t>(first + 1),
                                            list.begin() + static_cast<std::ptrdiff_t>(last), middle,
                                            [&](std::size_t k, double value) { return models[k].p < value; });
      const auto split =
          static_cast<std::size_t>(std::min(nearest - list.begin(), static_cast<std::ptrdiff_t>(last - 1)));
      order.push_back(list[split]);
      gaps[c].emplace_back(first, split);
      gaps[c].emplace_back(split, last);
    }
  }
  return order;
}

Pilots::Pilots(std::size_t cases, std::span<const std::unique_ptr<solvers::Solver>> solvers)
    : solvers_(solvers),
      pilots_(cases * solvers.size()),
      refused_(cases * solvers.size()),
      reduction_seconds_(cases * solvers.size(), 0.0),
      case_models_(cases, 0),
      builds_(cases),
      chain_at_one_(cases) {}

void Pilots::run(const std::vector<Case>& cases, const std::vector<PilotModel>& models,
                 const std::vector<std::size_t>& order, const Request& request, const solvers::UnitCosts& costs) {
  // The study builds p = 1's exact model whatever the methods (its one-processor chain): timed
  // here too, the unit cost per task being a rough guide (2-3 times over an all-to-all's).
  for (const PilotModel& model : models) ++case_models_[model.case_index];
  for (const PilotModel& model : models) {
    if (costs.time_pilots && model.p == 1 && model.exact && model.sizes.tasks <= kPilotTasks) {
      (void)build_exact(cases[model.case_index], model, request);
    }
  }
  // A method whose figure from the sizes is only its limit (the state space: its states grow
  // far faster than the tasks) is piloted up from the smallest p instead, where its refusals
  // start, as a refusal holds for the larger p; the others in `order`.
  std::vector<bool> ascending(solvers_.size());
  for (std::size_t m = 0; m < solvers_.size(); ++m) ascending[m] = solvers_[m]->cost({}, costs).at_limit;
  for (std::size_t i = 0; i < models.size() && spent_ < kPilotSeconds; ++i) {
    for (std::size_t m = 0; m < solvers_.size(); ++m) {
      const solvers::Solver& solver = *solvers_[m];
      if (!solver.info().cost_needs_models || spent_ >= kPilotSeconds) continue;
      const PilotModel& model = models[ascending[m] ? i : order[i]];
      pilot(solver, m, cases[model.case_index], model, request, costs);
    }
  }
  for (auto& pilots : pilots_) {
    std::sort(pilots.begin(), pilots.end(), [](const Pilot& a, const Pilot& b) { return a.p < b.p; });
  }
}

void Pilots::pilot(const solvers::Solver& solver, std::size_t m, const Case& one, const PilotModel& model,
                   const Request& request, const solvers::UnitCosts& costs) {
  const std::size_t at = slot(model.case_index, m);
  const bool exact = solver.info().needs_exact_model;
  // p = 1's approximate model is the one-processor chain: timed, but scaling no other, nor
  // counting toward their time.
  const bool chain = !exact && model.p == 1;
  if (exact && (!model.exact || model.sizes.tasks > kPilotTasks)) return;
  if (refused_[at] && refused_[at]->first <= model.p) return;
  // A reduction's pilot within its case's time, its model's building included (an all-to-all's
  // approximate model at thousands of processors takes longer to build than to reduce).
  if (!exact && !chain && reduction_seconds_[at] + model.build_seconds >= kReductionPilotSeconds) return;
  const auto begin = std::chrono::steady_clock::now();
  const solvers::SolveCost cost =
      exact ? from_exact_model(solver, one, model, request, costs)
            : from_approximate_model(solver, one, model, costs, case_models_[model.case_index]);
  const double seconds = seconds_since(begin);
  spent_ += seconds;
  if (!exact && !chain) reduction_seconds_[at] += seconds;
  if (cost.refused) {
    if (!refused_[at] || model.p < refused_[at]->first) refused_[at] = std::make_pair(model.p, cost);
    return;
  }
  Pilot pilot{.p = model.p, .cost = cost, .scales_others = !chain};
  const double from_sizes = solver.cost(model.sizes, costs).seconds;
  if (from_sizes > 0.0) pilot.ratio = cost.seconds / from_sizes;
  if (cost.proportional_to_tasks && model.sizes.tasks > 0.0) pilot.per_task = cost.seconds / model.sizes.tasks;
  pilots_[at].push_back(pilot);
}

std::optional<scaling::ExactModel> Pilots::build_exact(const Case& one, const PilotModel& model,
                                                       const Request& request) {
  const auto begin = std::chrono::steady_clock::now();
  // By the run's own route (exact_model_for): refused where the run refuses it (beyond the
  // builder's node limit, over the task limit once its pools count, over the memory budget).
  MemoryGate gate(static_cast<double>(request.memory_budget_bytes));
  MemoryGate::Reservation reservation;
  auto tasks = static_cast<std::int64_t>(model.sizes.tasks);
  NoExactModel refused;
  std::optional<scaling::ExactModel> exact;
  try {
    exact = exact_model_for(one, model.p, request, gate, &reservation, &tasks, &refused);
  } catch (const scaling::ScalingError&) {
    return std::nullopt;  // a value the model refuses: the study reports it, nothing is solved
  }
  if (!exact) return std::nullopt;
  const double built = seconds_since(begin);
  spent_ += built;
  built_[{model.case_index, model.p}] = built;
  if (model.sizes.tasks >= kRateTasks) builds_[model.case_index].add(model.sizes.tasks, built);
  if (model.p == 1) {
    const std::optional<solvers::Result> base = one_processor_time(*exact);
    chain_at_one_[model.case_index] = base && solvers::finite_or_unsolved(*base).solved();
  }
  return exact;
}

solvers::SolveCost Pilots::from_exact_model(const solvers::Solver& solver, const Case& one, const PilotModel& model,
                                            const Request& request, const solvers::UnitCosts& costs) {
  const std::optional<scaling::ExactModel> exact = build_exact(one, model, request);
  if (!exact) return {.refused = true};
  const std::vector<solvers::WeightedGraph> mixture = weighted(*exact);
  solvers::ScaledModels models;
  models.exact = mixture;
  return solver.cost_of_models(models, model.sizes, costs);
}

solvers::SolveCost Pilots::cost(std::size_t m, const PilotModel& model, const solvers::UnitCosts& costs) const {
  const std::size_t at = slot(model.case_index, m);
  const std::vector<Pilot>& pilots = pilots_[at];  // ascending p
  const auto own =
      std::lower_bound(pilots.begin(), pilots.end(), model.p, [](const Pilot& pilot, int p) { return pilot.p < p; });
  if (own != pilots.end() && own->p == model.p) return own->cost;
  // More processors run more tasks at once, which only adds work: a refusal holds above.
  if (refused_[at] && refused_[at]->first <= model.p) return refused_[at]->second;
  return between(*solvers_[m], pilots, model, costs);
}

// From the sizes, in the proportion of the nearest pilots that scale others below and above p:
// interpolated in log p between both, else the one there is. Without one above, a figure at the
// method's limit stays there (a state space grows faster than the sizes) unless the pilot below
// found none at all (a deterministic model).
solvers::SolveCost Pilots::between(const solvers::Solver& solver, const std::vector<Pilot>& pilots,
                                   const PilotModel& model, const solvers::UnitCosts& costs) const {
  const Pilot* below = nullptr;
  const Pilot* above = nullptr;
  const auto split =
      std::lower_bound(pilots.begin(), pilots.end(), model.p, [](const Pilot& pilot, int p) { return pilot.p < p; });
  for (auto k = split; k != pilots.end() && above == nullptr; ++k) {
    if (k->scales_others && k->p > model.p) above = &*k;
  }
  for (auto k = split; k != pilots.begin() && below == nullptr;) {
    --k;
    if (k->scales_others) below = &*k;
  }
  const Pilot* nearest = above != nullptr ? above : below;
  if (nearest != nullptr && nearest->per_task >= 0.0) return {.seconds = nearest->per_task * model.sizes.tasks};
  solvers::SolveCost cost = solver.cost(model.sizes, costs);
  if (above != nullptr && above->ratio >= 0.0) {
    double ratio = above->ratio;
    if (below != nullptr && below->ratio > 0.0 && above->ratio > 0.0) {
      const double at =
          std::log(static_cast<double>(model.p) / below->p) / std::log(static_cast<double>(above->p) / below->p);
      ratio = std::exp(std::log(below->ratio) + at * std::log(above->ratio / below->ratio));
    }
    return {.seconds = cost.seconds * ratio};
  }
  if (below != nullptr && below->ratio >= 0.0) {
    cost.seconds *= cost.at_limit ? (below->ratio == 0.0 ? 0.0 : 1.0) : below->ratio;
  }
  return cost;
}

void Pilots::Builds::add(double tasks, double seconds) {
  if (!(seconds > 0.0) || tasks == last_tasks || tasks == first_tasks) return;
  if (tasks > last_tasks) {
    first_tasks = last_tasks;
    first_seconds = last_seconds;
    last_tasks = tasks;
    last_seconds = seconds;
  } else if (tasks > first_tasks) {
    first_tasks = tasks;
    first_seconds = seconds;
  }
}

// With costs.time_pilots: as long as it took here when a pilot built it, else as the case's two
// largest built models of 1,000 tasks or more took (a program's tasks differ in what building
// them costs: an independent phase's are cheap, an all-to-all's messages dearer as p grows), a
// power law tasks^b through them (b in [1, 2]). Without, or before any was built, at the unit
// costs per model, task and processor.
double Pilots::exact_seconds(std::size_t c, const solvers::UnitCosts& costs, double tasks, int p) const {
  const double from_units =
      costs.exact_model + costs.exact_task * tasks + costs.exact_processor * static_cast<double>(p);
  if (!costs.time_pilots) return from_units;
  if (const auto here = built_.find({c, p}); here != built_.end()) return here->second;
  const Builds& timed = builds_[c];
  if (timed.last_tasks == 0.0) return from_units;
  double b = 1.0;
  if (timed.first_tasks > 0.0 && timed.last_tasks > 1.2 * timed.first_tasks && tasks > timed.last_tasks) {
    b = std::clamp(std::log(timed.last_seconds / timed.first_seconds) / std::log(timed.last_tasks / timed.first_tasks),
                   1.0, 2.0);
  }
  return costs.exact_model + timed.last_seconds * std::pow(tasks / timed.last_tasks, b);
}

}  // namespace analysis::cost_detail
