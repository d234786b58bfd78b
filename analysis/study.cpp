#include "analysis/study.hpp"

#include <tbb/task_arena.h>

#include <algorithm>
#include <cmath>
#include <mutex>
#include <stdexcept>

#include "distributed/communicator.hpp"
#include "analysis/memory_gate.hpp"
#include "analysis/parallel.hpp"
#include "analysis/prediction_solve.hpp"
#include "analysis/scaled_speedup.hpp"
#include "analysis/sequential_time.hpp"
#include "distributions/fingerprint.hpp"
#include "graph/fingerprint.hpp"
#include "scaling/approximate_model.hpp"
#include "scaling/exact_model.hpp"
#include "analysis/processor_time.hpp"
#include "solvers/result_bytes.hpp"
#include "solvers/solver.hpp"

namespace analysis {

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

bool exact_model_needed(int p, const Request& request) {
  // The prediction's own solve is on the exact model too.
  return p == 1 || request.breakdown || request.prediction.seconds_per_model > 0.0 ||
         std::any_of(request.methods.begin(), request.methods.end(),
                     [](solvers::Method method) { return solvers::info(method).needs_exact_model; });
}

// Why a (case, p) has no exact model although a method or T(1) needs it.
struct NoExactModel {
  bool over_task_limit = false;  // *tasks above max_exact_tasks (pools included)
  bool over_budget = false;      // its build would not fit the memory budget
  std::string beyond_nodes;      // the builder's node limit
};

// The exact model where a method (or T(1)) needs it, it is within the task limit and its build
// fits the budget: reserved from `gate` (when given) while it is built, the reservation handed
// back in *reservation. *tasks is the approximate tree's task count on entry and grows by the
// tasks of dynamically scheduled pools.
std::optional<scaling::ExactModel> exact_model_for(const Case& one, int p, const Request& request, MemoryGate& gate,
                                                   MemoryGate::Reservation* reservation, std::int64_t* tasks,
                                                   NoExactModel* why) {
  if (!exact_model_needed(p, request)) return std::nullopt;
  if (*tasks > request.max_exact_tasks) {
    why->over_task_limit = true;
    return std::nullopt;
  }
  if (solvers::exact_model_build_bytes(static_cast<double>(*tasks)) > gate.capacity()) {
    why->over_budget = true;
    return std::nullopt;
  }
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
  // A dynamically scheduled pool is one node of the exact model and one leaf of the
  // approximate one, but Monte Carlo simulates each of its tasks: they count towards the limit
  // (a pool of 1e12 tasks would take days per sample).
  double pooled = 0.0;  // in a double: a sum of counts up to 9e15 each
  for (const scaling::Scenario& scenario : exact->scenarios) {
    double in_scenario = static_cast<double>(*tasks);
    for (graph::NodeId v = 0; v < scenario.graph.node_count(); ++v) {
      const graph::TaskNode& node = scenario.graph.node(v);
      if (node.kind == graph::NodeKind::DynamicPool) in_scenario += static_cast<double>(node.pool_tasks);
    }
    pooled = std::max(pooled, in_scenario);
  }
  if (pooled > static_cast<double>(request.max_exact_tasks)) {
    *tasks = static_cast<std::int64_t>(std::min(pooled, 9e18));
    why->over_task_limit = true;
    return std::nullopt;
  }
  return exact;
}

// Every requested method for one case and processor count, and for p = 1 the exact one-processor
// time; the exact model is built once and shared by the methods that need it and T(1).
struct Solved {
  std::vector<solvers::Result> results;
  std::optional<solvers::Result> one_processor_time;
  std::optional<ProcessorTime> processor_time;  // with Request::breakdown, where the exact model was built
  std::optional<solvers::Result> prediction;    // the prediction's own solve, where one ran and solved
};

// The memory of one (case, p): the exact model while it is built, then the model and the
// largest plan of the methods (they run one after the other), reserved from the run's gate
// before it is held. A method whose plan does not fit beside the model gets its refusal.
// `report` takes the fraction of this (case, p) done: the methods in turn, each its share.
// What a solve_case call computes: which of the request's methods (the others get a default
// Result, filled in by another call), whether T(1) and the breakdown, and the ranks Monte Carlo
// and the state space share (null: this process alone).
struct CaseWork {
  std::vector<bool> methods;
  bool bases = true;
  const distributed::Communicator* collective = nullptr;
  bool prediction = true;  // the prediction's own solve (a collective method: with `collective`)
};

// Monte Carlo and the state space: the methods whose one solve the ranks of a job share
// (docs/scale-out.md); the others are shared out by (case, p).
bool collective_method(solvers::Method method) {
  return method == solvers::Method::MonteCarlo || method == solvers::Method::StateSpace;
}

Solved solve_case(const Case& one, int p, const Request& request, MemoryGate& gate,
                  const std::function<void(double)>& report, const CaseWork& work) {
  // The approximate model comes first: it is cheap, it reports invalid values, and its
  // expanded size is the exact model's task count.
  const graph::SpTree tree = scaling::approximate_model(*one.program, *one.machine, one.environment, p);
  const std::int64_t approximate_tasks = tree.expanded_node_count();
  std::int64_t tasks = approximate_tasks;
  const double budget = gate.capacity();
  MemoryGate::Reservation reservation;
  NoExactModel no_exact;
  std::optional<scaling::ExactModel> exact = exact_model_for(one, p, request, gate, &reservation, &tasks, &no_exact);
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
  options.memory_budget_bytes =
      static_cast<std::uint64_t>(std::max(budget - model_bytes, static_cast<double>(solvers::kSmallestMemoryBudget)));
  options.monte_carlo.communicator = work.collective;
  options.state_space.communicator = work.collective;
  std::vector<std::unique_ptr<solvers::Solver>> solvers;
  std::vector<solvers::MemoryPlan> plans;
  double largest_plan = 0.0;
  for (solvers::Method method : request.methods) {
    solvers.push_back(solvers::make_solver(method, options));
    plans.emplace_back();
    if (!work.methods[solvers.size() - 1]) continue;
    if (solvers.back()->info().needs_exact_model && !exact) continue;
    plans.back() = solvers.back()->plan_memory({&tree, mixture, {}});
    if (!plans.back().refusal) largest_plan = std::max(largest_plan, plans.back().bytes);
  }
  // T(1), where the one-processor model is a chain. One that is not finite (a sum past the
  // largest double) is no base: each method then divides by its own p = 1 figure, which passed
  // the same check.
  std::optional<solvers::Result> base = p == 1 && exact ? one_processor_time(*exact) : std::nullopt;
  if (base && !solvers::finite_or_unsolved(*base).solved()) base.reset();
  // A --loss phase alone has no prediction: only the whole program's is reported.
  const std::vector<OwnSolver> own = work.prediction && exact && one.label.phase.empty()
                                         ? prediction_solvers(request, options, {&tree, mixture, {}}, base.has_value())
                                         : std::vector<OwnSolver>{};
  for (const OwnSolver& one : own) largest_plan = std::max(largest_plan, one.plan.bytes);
  const double need = model_bytes + largest_plan;
  if (!exact) {
    reservation.release();
    reservation = gate.acquire(need);
  } else if (!reservation.try_resize(need)) {
    // Waiting while holding memory could wait for a solve that waits for this one: give the
    // model back, wait with nothing held, build it again.
    mixture.clear();
    exact.reset();
    reservation.release();
    reservation = gate.acquire(need);
    exact = scaling::exact_model(*one.program, *one.machine, one.environment, p, request.exact_model);
    mixture = weighted(*exact);
  }

  Solved solved;
  if (work.bases) solved.one_processor_time = std::move(base);
  if (request.breakdown && exact && work.bases) solved.processor_time = processor_time(*exact);
  for (std::size_t j = 0; j < solvers.size(); ++j) {
    const solvers::SolverInfo& info = solvers[j]->info();
    if (!work.methods[j]) {
      solved.results.emplace_back();
    } else if (info.needs_exact_model && !exact) {
      if (!no_exact.beyond_nodes.empty()) {
        solvers::Result result;
        result.method = info.method;
        result.unsolved.emplace().explanation = no_exact.beyond_nodes;  // Reason::NotSupported
        solved.results.push_back(std::move(result));
      } else if (no_exact.over_budget) {
        solved.results.push_back(exact_model_over_budget(
            info.method, tasks, solvers::exact_model_build_bytes(static_cast<double>(tasks)), budget));
      } else {
        solved.results.push_back(exact_model_too_large(info.method, tasks, request.max_exact_tasks));
      }
    } else if (plans[j].refusal) {
      solvers::Result refused;
      refused.method = info.method;
      refused.unsolved = plans[j].refusal;
      solved.results.push_back(std::move(refused));
    } else {
      solvers::ScaledModels models{&tree, mixture, {}};
      if (report) {
        const double share = 1.0 / static_cast<double>(solvers.size());
        models.report_progress = [&report, j, share](double fraction) {
          report((static_cast<double>(j) + std::clamp(fraction, 0.0, 1.0)) * share);
        };
      }
      solved.results.push_back(solvers[j]->solve(models));
    }
  }
  if (!own.empty()) solved.prediction = solve_for_prediction(own, solved.results, work.methods, {&tree, mixture, {}});
  return solved;
}

// For every item k = p index * cases + case, the item whose model it shares: itself, or the
// item of the same case with the smallest p that scales the program to the same models (both
// the approximate and, where a method needs it, the exact one). Processors beyond a program's
// units of work stay idle, so every larger p gives the model of the last p that uses them all:
// solving it once makes `--pmax 65536` cost what the distinct models cost. The approximate
// models are compared first (cheap); only the items that share one build their exact models
// to compare them too. p = 1 is never shared (it also gives T(1)).
std::optional<Failure> find_shared_models(const std::vector<Case>& cases, const std::vector<int>& counts,
                                          const Request& request, MemoryGate& gate,
                                          std::vector<std::size_t>& representative) {
  const std::size_t items = counts.size() * cases.size();
  const auto machine_of = [&](std::size_t k) { return cases[k % cases.size()].label.machine_index; };
  std::vector<distributions::Fingerprint> prints(items);
  const distributed::SingleProcess alone;
  const distributed::Communicator& ranks = request.communicator ? *request.communicator : alone;
  const auto pack = [&](std::size_t k) {
    distributed::Writer out;
    out.put(prints[k]);
    return std::move(out.bytes());
  };
  const auto unpack = [&](std::size_t k, std::string_view bytes) {
    prints[k] = distributed::Reader(bytes).get<distributions::Fingerprint>();
  };
  auto failure = run_shared_items(
      items, request.threads, ranks,
      [&](std::size_t k) -> std::optional<Failure> {
        const Case& one = cases[k % cases.size()];
        const int p = counts[k / cases.size()];
        graph::add_to(prints[k], scaling::approximate_model(*one.program, *one.machine, one.environment, p));
        prints[k].add(static_cast<std::uint64_t>(p == 1 ? 1 : 0));
        return std::nullopt;
      },
      machine_of, pack, unpack);
  if (failure) return failure;
  // Items in ascending p within each case, grouped by approximate model.
  std::map<std::pair<std::size_t, distributions::Fingerprint>, std::vector<std::size_t>> groups;
  for (std::size_t k = 0; k < items; ++k) groups[{k % cases.size(), prints[k]}].push_back(k);
  std::vector<std::size_t> to_refine;
  for (const auto& [key, members] : groups) {
    if (members.size() > 1 && exact_model_needed(2, request))
      to_refine.insert(to_refine.end(), members.begin(), members.end());
  }
  failure = run_shared_items(
      to_refine.size(), request.threads, ranks,
      [&](std::size_t i) -> std::optional<Failure> {
        const std::size_t k = to_refine[i];
        const Case& one = cases[k % cases.size()];
        const int p = counts[k / cases.size()];
        const graph::SpTree tree = scaling::approximate_model(*one.program, *one.machine, one.environment, p);
        std::int64_t tasks = tree.expanded_node_count();
        MemoryGate::Reservation reservation;
        NoExactModel no_exact;
        // Isolated: a thread waiting at the gate must not pick up another item that holds memory.
        const std::optional<scaling::ExactModel> exact = tbb::this_task_arena::isolate(
            [&] { return exact_model_for(one, p, request, gate, &reservation, &tasks, &no_exact); });
        prints[k].add(static_cast<std::uint64_t>(exact ? exact->scenarios.size() : 0));
        if (exact) {
          for (const scaling::Scenario& scenario : exact->scenarios) {
            prints[k].add(scenario.probability);
            graph::add_to(prints[k], scenario.graph);
          }
        }
        return std::nullopt;
      },
      [&](std::size_t i) { return machine_of(to_refine[i]); }, [&](std::size_t i) { return pack(to_refine[i]); },
      [&](std::size_t i, std::string_view bytes) { unpack(to_refine[i], bytes); });
  if (failure) return failure;
  representative.assign(items, 0);
  std::map<std::pair<std::size_t, distributions::Fingerprint>, std::size_t> first;
  for (std::size_t k = 0; k < items; ++k)
    representative[k] = first.try_emplace({k % cases.size(), prints[k]}, k).first->second;
  return std::nullopt;
}

// The study's progress: per model solved 1, per model under way the fraction its solvers
// reported; passed on at most every 100 ms, and after each model finished.
class ProgressTally {
 public:
  ProgressTally(std::size_t models, const Progress& progress) : fractions_(models, 0.0), progress_(progress) {}

  void under_way(std::size_t model, double fraction) {
    std::lock_guard<std::mutex> guard(lock_);
    done_ += fraction - fractions_[model];
    fractions_[model] = fraction;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    progress_(done_, fractions_.size());
  }

  void finished(std::size_t model) {
    if (!progress_) return;
    std::lock_guard<std::mutex> guard(lock_);
    done_ += 1.0 - fractions_[model];
    fractions_[model] = 1.0;
    last_ = std::chrono::steady_clock::now();
    progress_(done_, fractions_.size());
  }

 private:
  std::mutex lock_;
  std::vector<double> fractions_;
  double done_ = 0.0;
  std::chrono::steady_clock::time_point last_{};
  const Progress& progress_;
};

// Speedups and efficiency of a row against T(1): the exact one-processor time where it is
// known, else the same method's figure for p = 1.
void add_speedups(Row& row, const solvers::Result& base) {
  const solvers::Result& result = row.result;
  if (!base.solved() || !result.solved() || !(base.mean > 0.0) || !(result.mean > 0.0)) return;
  // Ratios of figures near the ends of the doubles' range may overflow: a speedup that is not
  // finite is not shown (the figures themselves are, finite_or_unsolved saw to it).
  const double speedup = base.mean / result.mean;
  if (!std::isfinite(speedup)) return;
  row.speedup = speedup;
  row.efficiency = speedup / row.p;
  if (result.lower > 0.0) {
    const double lower = base.lower / result.upper;
    const double upper = base.upper / result.lower;
    if (std::isfinite(lower) && std::isfinite(upper) && lower <= upper) {
      row.speedup_lower = lower;
      row.speedup_upper = upper;
    }
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
  Outcome<StudyResult> outcome;
  std::vector<std::size_t> representative;
  outcome.failure = find_shared_models(cases, counts, request, gate, representative);
  if (outcome.failure) return outcome;
  std::vector<std::size_t> to_solve;
  for (std::size_t k = 0; k < representative.size(); ++k) {
    if (representative[k] == k) to_solve.push_back(k);
  }
  // results[(p index * cases + case) * methods + method]: item k = p index * cases + case, so
  // the driver starts with the largest p, which takes longest.
  std::vector<solvers::Result> results(counts.size() * cases.size() * methods);
  // T(1) of every case, exact where it can be, for every method's speedups (item k < cases).
  std::vector<std::optional<solvers::Result>> bases(cases.size());
  std::vector<std::optional<ProcessorTime>> busy(counts.size() * cases.size());   // by item
  std::vector<std::optional<solvers::Result>> own(counts.size() * cases.size());  // the prediction's, by item
  ProgressTally tally(to_solve.size(), progress);
  // Alone, every method of an item at once. In a job of several ranks, first the methods shared
  // out by item, then each item's Monte Carlo and state space solved by all ranks together.
  const distributed::SingleProcess alone;
  const distributed::Communicator& ranks = request.communicator ? *request.communicator : alone;
  CaseWork shared_out{std::vector<bool>(methods, true), true, nullptr, ranks.alone()};
  CaseWork together{std::vector<bool>(methods, false), false, &ranks, !ranks.alone()};
  if (!ranks.alone()) {
    for (std::size_t j = 0; j < methods; ++j) {
      together.methods[j] = collective_method(request.methods[j]);
      shared_out.methods[j] = !together.methods[j];
    }
  }
  const auto item = [&](std::size_t i) -> std::optional<Failure> {
    const std::size_t k = to_solve[i];
    const Case& one = cases[k % cases.size()];
    const std::function<void(double)> report =
        progress ? std::function<void(double)>([&tally, i](double f) { tally.under_way(i, f); })
                 : std::function<void(double)>();
    // Isolated: while this item's solvers wait for their own parallel work, this thread must not
    // pick up another item, which could wait at the gate for the memory this one holds.
    Solved solved = tbb::this_task_arena::isolate(
        [&] { return solve_case(one, counts[k / cases.size()], request, gate, report, shared_out); });
    for (std::size_t j = 0; j < methods; ++j) {
      if (shared_out.methods[j]) results[k * methods + j] = std::move(solved.results[j]);
    }
    if (k < cases.size()) bases[k] = std::move(solved.one_processor_time);
    busy[k] = solved.processor_time;
    if (shared_out.prediction) own[k] = std::move(solved.prediction);
    tally.finished(i);
    return std::nullopt;
  };
  const auto machine_of = [&](std::size_t i) { return cases[to_solve[i] % cases.size()].label.machine_index; };
  const auto pack = [&](std::size_t i) {
    const std::size_t k = to_solve[i];
    distributed::Writer out;
    for (std::size_t j = 0; j < methods; ++j) {
      if (shared_out.methods[j]) solvers::put_result(out, results[k * methods + j]);
    }
    out.put<bool>(k < cases.size() && bases[k].has_value());
    if (k < cases.size() && bases[k]) solvers::put_result(out, *bases[k]);
    out.put<bool>(busy[k].has_value());
    if (busy[k]) out.put(*busy[k]);
    return std::move(out.bytes());
  };
  const auto unpack = [&](std::size_t i, std::string_view bytes) {
    const std::size_t k = to_solve[i];
    distributed::Reader in(bytes);
    for (std::size_t j = 0; j < methods; ++j) {
      if (shared_out.methods[j]) results[k * methods + j] = solvers::get_result(in);
    }
    if (in.get<bool>()) bases[k] = solvers::get_result(in);
    if (in.get<bool>()) busy[k] = in.get<ProcessorTime>();
  };
  outcome.failure = run_shared_items(to_solve.size(), request.threads, ranks, item, machine_of, pack, unpack);
  if (outcome.failure) return outcome;
  if (together.prediction ||
      std::find(together.methods.begin(), together.methods.end(), true) != together.methods.end()) {
    // In item order, every rank on each solve: the same figures on every rank.
    for (std::size_t i = 0; i < to_solve.size(); ++i) {
      const std::size_t k = to_solve[i];
      Solved solved = solve_case(cases[k % cases.size()], counts[k / cases.size()], request, gate, {}, together);
      for (std::size_t j = 0; j < methods; ++j) {
        if (together.methods[j]) results[k * methods + j] = std::move(solved.results[j]);
      }
      own[k] = std::move(solved.prediction);
    }
  }
  for (std::size_t k = 0; k < representative.size(); ++k) {
    if (representative[k] == k) continue;
    std::copy_n(results.begin() + static_cast<std::ptrdiff_t>(representative[k] * methods), methods,
                results.begin() + static_cast<std::ptrdiff_t>(k * methods));
    busy[k] = busy[representative[k]];
    own[k] = own[representative[k]];
  }

  // Weak scaling: each p's speedup is against T1(W(p)), the one-processor time of its own problem.
  std::vector<std::optional<solvers::Result>> scaled_bases(representative.size());
  outcome.failure = run_items(
      scaled_bases.size(), request.threads,
      [&](std::size_t k) -> std::optional<Failure> {
        const Case& one = cases[k % cases.size()];
        if (k < cases.size() || !is_weak_scaling(one.environment)) return std::nullopt;
        scaled_bases[k] =
            scaled_sequential_time(*one.program, *one.machine, one.environment, counts[k / cases.size()], request);
        return std::nullopt;
      },
      [&](std::size_t k) { return cases[k % cases.size()].label.machine_index; });
  if (outcome.failure) return outcome;

  std::vector<Row> rows;
  std::vector<CaseLabel> labels;
  std::vector<std::optional<ProcessorTime>> processor_times;      // by case, then reported p
  std::vector<std::optional<solvers::Result>> prediction_solves;  // by case, then reported p
  for (std::size_t c = 0; c < cases.size(); ++c) {
    labels.push_back(cases[c].label);
    for (std::size_t i = base_requested ? 0 : 1; i < counts.size(); ++i) {
      processor_times.push_back(busy[i * cases.size() + c]);
      prediction_solves.push_back(own[i * cases.size() + c]);
      for (std::size_t j = 0; j < methods; ++j) {
        Row row;
        row.case_index = c;
        row.p = counts[i];
        row.result = results[(i * cases.size() + c) * methods + j];
        const std::size_t shared = representative[i * cases.size() + c];
        if (shared != i * cases.size() + c) row.same_model_as = counts[shared / cases.size()];
        if (is_weak_scaling(cases[c].environment) && i > 0) {
          if (const auto& scaled = scaled_bases[i * cases.size() + c]) add_speedups(row, *scaled);
        } else {
          add_speedups(row, bases[c] ? *bases[c] : results[c * methods + j]);
        }
        rows.push_back(std::move(row));
      }
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  outcome.value =
      StudyResult(std::move(labels), request.processors, request.methods, std::move(rows), std::move(bases), seconds);
  if (request.breakdown) outcome.value->set_processor_times(std::move(processor_times));
  outcome.value->set_prediction_solves(std::move(prediction_solves));
  outcome.value->set_prediction_options(request.prediction);
  return outcome;
}

}  // namespace analysis
