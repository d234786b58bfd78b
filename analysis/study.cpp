#include "analysis/study.hpp"

#include <tbb/task_arena.h>

#include <algorithm>
#include <mutex>
#include <stdexcept>

#include "analysis/loss.hpp"
#include "analysis/memory_gate.hpp"
#include "analysis/parallel.hpp"
#include "analysis/sequential_time.hpp"
#include "models/bind.hpp"
#include "scaling/approximate_model.hpp"
#include "scaling/exact_model.hpp"
#include "solvers/solver.hpp"

namespace analysis {

std::vector<std::vector<std::pair<std::string, double>>> sweep_combinations(
    const std::vector<SweepVariable>& variables) {
  std::vector<std::vector<std::pair<std::string, double>>> combinations{{}};
  for (const SweepVariable& variable : variables) {
    std::vector<std::vector<std::pair<std::string, double>>> longer;
    for (const auto& combination : combinations) {
      for (double value : variable.values) {
        longer.push_back(combination);
        longer.back().emplace_back(variable.name, value);
      }
    }
    combinations = std::move(longer);
  }
  return combinations;
}

Outcome<std::vector<Case>> make_cases(const std::vector<MachineInput>& machines,
                                      const std::vector<SweepVariable>& sweeps, bool loss) {
  Outcome<std::vector<Case>> outcome;
  std::vector<Case> cases;
  for (std::size_t m = 0; m < machines.size(); ++m) {
    const MachineInput& input = machines[m];
    const auto machine = std::make_shared<const models::Machine>(input.machine);
    // The whole program, then each phase alone, then the barriers alone.
    std::vector<std::pair<std::string, std::shared_ptr<const models::Program>>> programs{{"", input.program}};
    if (loss) {
      for (const std::string& phase : pattern_phases(*input.program)) {
        programs.emplace_back(phase, std::make_shared<const models::Program>(with_only_phase(*input.program, phase)));
      }
      if (pattern_has_sync(*input.program)) {
        programs.emplace_back(kBarriersOnly,
                              std::make_shared<const models::Program>(with_only_phase(*input.program, kBarriersOnly)));
      }
    }
    for (const auto& combination : sweep_combinations(sweeps)) {
      std::map<std::string, double> values = input.values;
      for (const auto& [name, value] : combination) values[name] = value;
      models::Binding binding = models::bind(*input.program, input.machine, values);
      if (!binding.ok()) {
        outcome.failure = Failure::of_binding(m, binding.errors.front());
        return outcome;
      }
      for (const auto& [phase, program] : programs) {
        Case one;
        one.program = program;
        one.machine = machine;
        one.environment = binding.environment;
        one.label = {m, input.machine.name, input.machine_file, combination, phase};
        cases.push_back(std::move(one));
      }
    }
  }
  outcome.value = std::move(cases);
  return outcome;
}

StudyResult::StudyResult(std::vector<CaseLabel> cases, std::vector<int> processors,
                         std::vector<solvers::Method> methods, std::vector<Row> rows,
                         std::vector<std::optional<solvers::Result>> one_processor_times, double seconds)
    : cases_(std::move(cases)),
      processors_(std::move(processors)),
      methods_(std::move(methods)),
      rows_(std::move(rows)),
      one_processor_times_(std::move(one_processor_times)),
      seconds_(seconds) {
  one_processor_times_.resize(cases_.size());
  if (rows_.size() != cases_.size() * processors_.size() * methods_.size()) {
    throw std::logic_error("StudyResult: the rows do not cover every (case, p, method)");
  }
}

const Row& StudyResult::at(std::size_t case_index, int p, solvers::Method method) const {
  const auto p_at = std::lower_bound(processors_.begin(), processors_.end(), p);
  const auto method_at = std::find(methods_.begin(), methods_.end(), method);
  if (case_index >= cases_.size() || p_at == processors_.end() || *p_at != p || method_at == methods_.end()) {
    throw std::out_of_range("StudyResult::at: no such case, processor count or method");
  }
  const auto i = static_cast<std::size_t>(p_at - processors_.begin());
  const auto j = static_cast<std::size_t>(method_at - methods_.begin());
  return rows_[(case_index * processors_.size() + i) * methods_.size() + j];
}

namespace {

// The exact model's task graphs as the solvers take them.
std::vector<solvers::WeightedGraph> weighted(const scaling::ExactModel& exact) {
  std::vector<solvers::WeightedGraph> mixture;
  for (const scaling::Scenario& scenario : exact.scenarios) mixture.push_back({scenario.probability, &scenario.graph});
  return mixture;
}

solvers::Result exact_model_too_large(solvers::Method method, std::int64_t tasks, std::int64_t limit) {
  solvers::Result result;
  result.method = method;
  solvers::Unsolved& why = result.unsolved.emplace();
  why.reason = solvers::Unsolved::Reason::ExactModelTooLarge;
  why.limit = solvers::Unsolved::Limit::Tasks;
  why.size = static_cast<double>(tasks);
  why.limit_value = static_cast<double>(limit);
  why.explanation = "the exact model has about " + std::to_string(tasks) + " tasks, more than the limit of " +
                    std::to_string(limit);
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

// Every requested method for one case and processor count, and for p = 1 the exact one-processor
// time; the exact model is built once and shared by the methods that need it and T(1).
struct Solved {
  std::vector<solvers::Result> results;
  std::optional<solvers::Result> one_processor_time;
};

// The memory of one (case, p): the exact model while it is built, then the model and the
// largest plan of the methods (they run one after the other), reserved from the run's gate
// before it is held. A method whose plan does not fit beside the model gets its refusal.
Solved solve_case(const Case& one, int p, const Request& request, MemoryGate& gate) {
  // The approximate model comes first: it is cheap, it reports invalid values, and its
  // expanded size is the exact model's task count.
  const graph::SpTree tree = scaling::approximate_model(*one.program, *one.machine, one.environment, p);
  const bool exact_needed = p == 1 || std::any_of(request.methods.begin(), request.methods.end(), [](auto method) {
                              return solvers::info(method).needs_exact_model;
                            });
  const std::int64_t tasks = tree.expanded_node_count();
  const double budget = static_cast<double>(request.memory_budget_bytes);
  const double build_bytes = solvers::exact_model_build_bytes(static_cast<double>(tasks));
  const bool exact_wanted = exact_needed && tasks <= request.max_exact_tasks;
  const bool exact_fits = build_bytes <= budget;
  std::optional<scaling::ExactModel> exact;
  MemoryGate::Reservation reservation;
  auto build = [&] {
    exact = scaling::exact_model(*one.program, *one.machine, one.environment, p, request.exact_model);
  };
  if (exact_wanted && exact_fits) {
    reservation = gate.acquire(build_bytes);
    build();
  }
  double model_bytes = 0.0;
  if (exact) {
    for (const scaling::Scenario& scenario : exact->scenarios) {
      model_bytes += solvers::task_graph_bytes(static_cast<double>(scenario.graph.node_count()),
                                               static_cast<double>(scenario.graph.arc_count()));
    }
  }
  std::vector<solvers::WeightedGraph> mixture = exact ? weighted(*exact) : std::vector<solvers::WeightedGraph>{};

  // Each solve may use what the model leaves of the budget.
  solvers::SolverOptions options = request.solver_options;
  options.memory_budget_bytes = static_cast<std::uint64_t>(
      std::max(budget - model_bytes, static_cast<double>(solvers::kSmallestMemoryBudget)));
  std::vector<std::unique_ptr<solvers::Solver>> solvers;
  std::vector<solvers::MemoryPlan> plans;
  double largest_plan = 0.0;
  for (solvers::Method method : request.methods) {
    solvers.push_back(solvers::make_solver(method, options));
    plans.emplace_back();
    if (solvers.back()->info().needs_exact_model && !exact) continue;
    plans.back() = solvers.back()->plan_memory({&tree, mixture});
    if (!plans.back().refusal) largest_plan = std::max(largest_plan, plans.back().bytes);
  }
  const double need = model_bytes + largest_plan;
  if (!exact) {
    reservation = gate.acquire(need);
  } else if (!reservation.try_resize(need)) {
    // Waiting while holding memory could wait for a solve that waits for this one: give the
    // model back, wait with nothing held, build it again.
    mixture.clear();
    exact.reset();
    reservation.release();
    reservation = gate.acquire(need);
    build();
    mixture = weighted(*exact);
  }

  Solved solved;
  if (p == 1 && exact) solved.one_processor_time = one_processor_time(*exact);
  for (std::size_t k = 0; k < solvers.size(); ++k) {
    const solvers::SolverInfo& info = solvers[k]->info();
    if (info.needs_exact_model && !exact) {
      solved.results.push_back(exact_wanted ? exact_model_over_budget(info.method, tasks, build_bytes, budget)
                                            : exact_model_too_large(info.method, tasks, request.max_exact_tasks));
    } else if (plans[k].refusal) {
      solvers::Result refused;
      refused.method = info.method;
      refused.unsolved = plans[k].refusal;
      solved.results.push_back(std::move(refused));
    } else {
      solved.results.push_back(solvers[k]->solve({&tree, mixture}));
    }
  }
  return solved;
}

// Speedups and efficiency of a row against T(1): the exact one-processor time where it is
// known, else the same method's figure for p = 1.
void add_speedups(Row& row, const solvers::Result& base) {
  const solvers::Result& result = row.result;
  if (!base.solved() || !result.solved() || !(base.mean > 0.0) || !(result.mean > 0.0)) return;
  row.speedup = base.mean / result.mean;
  row.efficiency = *row.speedup / row.p;
  if (result.lower > 0.0) {
    row.speedup_lower = base.lower / result.upper;
    row.speedup_upper = base.upper / result.lower;
  }
}

}  // namespace

Outcome<StudyResult> run_study(const std::vector<Case>& cases, const Request& request, const Progress& progress) {
  std::string why;
  if (!request.IsValid(&why)) throw std::invalid_argument(why);
  const auto start = std::chrono::steady_clock::now();
  MemoryGate gate(static_cast<double>(request.memory_budget_bytes));

  std::vector<int> counts = request.processors;
  const bool base_requested = counts.front() == 1;
  if (!base_requested) counts.insert(counts.begin(), 1);
  const std::size_t methods = request.methods.size();
  // results[(p index * cases + case) * methods + method]: item k = p index * cases + case, so
  // the driver starts with the largest p, which takes longest.
  std::vector<solvers::Result> results(counts.size() * cases.size() * methods);
  // T(1) of every case, exact where it can be, for every method's speedups (item k < cases).
  std::vector<std::optional<solvers::Result>> bases(cases.size());
  std::mutex progress_lock;
  std::size_t done = 0;
  const std::size_t total = results.size();
  const auto item = [&](std::size_t k) -> std::optional<Failure> {
    const Case& one = cases[k % cases.size()];
    // Isolated: while this item's solvers wait for their own parallel work, this thread must not
    // pick up another item, which could wait at the gate for the memory this one holds.
    Solved solved =
        tbb::this_task_arena::isolate([&] { return solve_case(one, counts[k / cases.size()], request, gate); });
    std::move(solved.results.begin(), solved.results.end(), results.begin() + static_cast<std::ptrdiff_t>(k * methods));
    if (k < cases.size()) bases[k] = std::move(solved.one_processor_time);
    if (progress) {
      std::lock_guard<std::mutex> guard(progress_lock);
      done += methods;
      progress(done, total);
    }
    return std::nullopt;
  };
  const auto machine_of = [&](std::size_t k) { return cases[k % cases.size()].label.machine_index; };
  Outcome<StudyResult> outcome;
  outcome.failure = run_items(counts.size() * cases.size(), request.threads, item, machine_of);
  if (outcome.failure) return outcome;

  std::vector<Row> rows;
  std::vector<CaseLabel> labels;
  for (std::size_t c = 0; c < cases.size(); ++c) {
    labels.push_back(cases[c].label);
    for (std::size_t i = base_requested ? 0 : 1; i < counts.size(); ++i) {
      for (std::size_t j = 0; j < methods; ++j) {
        Row row;
        row.case_index = c;
        row.p = counts[i];
        row.result = results[(i * cases.size() + c) * methods + j];
        add_speedups(row, bases[c] ? *bases[c] : results[c * methods + j]);
        rows.push_back(std::move(row));
      }
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  outcome.value = StudyResult(std::move(labels), request.processors, request.methods, std::move(rows),
                              std::move(bases), seconds);
  return outcome;
}

}  // namespace analysis
