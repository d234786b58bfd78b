#include "analysis/study_plan.hpp"

#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <tuple>

#include "analysis/memory_gate.hpp"
#include "analysis/parallel.hpp"
#include "analysis/solve_case.hpp"
#include "distributed/communicator.hpp"
#include "distributions/queries.hpp"
#include "graph/fingerprint.hpp"
#include "scaling/approximate_model.hpp"
#include "scaling/exact_model.hpp"

namespace analysis {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

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

// Item k's approximate model built into the plan.
void build_item(const std::vector<Case>& cases, StudyPlan& plan, std::size_t k) {
  const auto begin = Clock::now();
  const Case& one = cases[plan.case_of(k)];
  const int p = plan.p_of(k);
  const graph::SpTree tree = scaling::approximate_model(*one.program, *one.machine, one.environment, p);
  PlannedItem& item = plan.items[k];
  graph::add_to(item.print, tree);
  item.print.add(static_cast<std::uint64_t>(p == 1 ? 1 : 0));
  item.sizes = sizes_of(tree);
  item.seconds = seconds_since(begin);
  item.built = true;
}

// Every item, shared out over the ranks (each rank gets every item's fingerprint and sizes).
std::optional<Failure> build_shared(const std::vector<Case>& cases, const Request& request,
                                    const distributed::Communicator& ranks, StudyPlan& plan) {
  return run_shared_items(
      plan.size(), request.threads, ranks,
      [&](std::size_t k) -> std::optional<Failure> {
        build_item(cases, plan, k);
        return std::nullopt;
      },
      [&](std::size_t k) { return cases[plan.case_of(k)].label.machine_index; },
      [&](std::size_t k) {
        distributed::Writer out;
        const PlannedItem& item = plan.items[k];
        out.put(item.print);
        out.put(item.sizes.tree_nodes);
        out.put(item.sizes.random_inner_tree_nodes);
        out.put(item.sizes.tasks);
        return std::move(out.bytes());
      },
      [&](std::size_t k, std::string_view bytes) {
        distributed::Reader in(bytes);
        PlannedItem& item = plan.items[k];
        item.print = in.get<distributions::Fingerprint>();
        item.sizes.tree_nodes = in.get<double>();
        item.sizes.random_inner_tree_nodes = in.get<double>();
        item.sizes.tasks = in.get<double>();
        item.built = true;
      });
}

// As many items as fit in `seconds` on this process, smallest p first, in batches growing with
// the items built (an eighth more each time), so that the models in flight when the time runs
// out are those of the next p: the threads of one batch would otherwise split the whole range
// and start its middle, p in the thousands. One is not started when one more as long as the
// longest so far would end past the time.
std::optional<Failure> build_within(const std::vector<Case>& cases, const Request& request, double seconds,
                                    Clock::time_point start, StudyPlan& plan) {
  std::atomic<double> slowest{0.0};
  for (std::size_t done = 0; done < plan.size() && seconds_since(start) <= seconds;) {
    const std::size_t batch = std::min(plan.size() - done, std::max<std::size_t>(16, done / 8));
    const auto failure = run_items(
        batch, request.threads,
        [&](std::size_t i) -> std::optional<Failure> {
          if (seconds_since(start) + slowest.load() > seconds) return std::nullopt;
          build_item(cases, plan, done + i);
          const double took = plan.items[done + i].seconds;
          for (double seen = slowest.load(); took > seen && !slowest.compare_exchange_weak(seen, took);) {}
          return std::nullopt;
        },
        [&](std::size_t i) { return cases[plan.case_of(done + i)].label.machine_index; });
    if (failure) return failure;
    done += batch;
  }
  return std::nullopt;
}

// The exact model's fingerprint added to item k's.
void add_exact_print(const std::vector<Case>& cases, const Request& request, MemoryGate& gate, StudyPlan& plan,
                     std::size_t k) {
  const Case& one = cases[plan.case_of(k)];
  const int p = plan.p_of(k);
  auto tasks = static_cast<std::int64_t>(plan.items[k].sizes.tasks);
  MemoryGate::Reservation reservation;
  NoExactModel no_exact;
  // Isolated: a thread waiting at the gate must not pick up another item that holds memory.
  const std::optional<scaling::ExactModel> exact = tbb::this_task_arena::isolate(
      [&] { return exact_model_for(one, p, request, gate, &reservation, &tasks, &no_exact); });
  distributions::Fingerprint& print = plan.items[k].exact_print;
  print.add(static_cast<std::uint64_t>(exact ? exact->scenarios.size() : 0));
  if (!exact) return;
  for (const scaling::Scenario& scenario : exact->scenarios) {
    print.add(scenario.probability);
    graph::add_to(print, scenario.graph);
  }
}

// The items to compare by their exact models too: those of a case whose approximate model another
// p shares, when a method (or the prediction) needs the exact model and it is not refused by its
// size (p = 1's print is apart; a refused model has nothing to compare).
std::vector<std::size_t> items_to_refine(const StudyPlan& plan) {
  std::map<std::pair<std::size_t, distributions::Fingerprint>, std::vector<std::size_t>> groups;
  for (std::size_t k = 0; k < plan.size(); ++k) groups[{plan.case_of(k), plan.items[k].print}].push_back(k);
  std::vector<std::size_t> to_refine;
  for (const auto& [key, members] : groups) {
    if (members.size() > 1 && plan.items[members.front()].builds_exact())
      to_refine.insert(to_refine.end(), members.begin(), members.end());
  }
  return to_refine;
}

// The exact prints of `to_refine`: shared out over the ranks, or on this process within the
// time left (false when it ran out).
Outcome<bool> refine(const std::vector<Case>& cases, const Request& request, const PlanLimits& limits,
                     Clock::time_point start, const distributed::Communicator& ranks,
                     const std::vector<std::size_t>& to_refine, StudyPlan& plan) {
  if (limits.seconds) {
    // Not started when the reference machine's unit costs (solvers/reference_costs.hpp) say the
    // exact models would take longer than the time left: one large model cannot be stopped.
    const solvers::UnitCosts costs = solvers::reference_costs();
    double predicted = 0.0;
    for (const std::size_t k : to_refine) {
      predicted += costs.exact_model + costs.exact_task * plan.items[k].sizes.tasks +
                   costs.exact_processor * static_cast<double>(plan.p_of(k));
    }
    if (seconds_since(start) + predicted > *limits.seconds) return {false, std::nullopt};
  }
  MemoryGate gate(static_cast<double>(request.memory_budget_bytes));
  std::atomic<bool> whole{true};
  const auto item = [&](std::size_t i) -> std::optional<Failure> {
    if (limits.seconds && seconds_since(start) > *limits.seconds) {
      whole = false;
      return std::nullopt;
    }
    add_exact_print(cases, request, gate, plan, to_refine[i]);
    return std::nullopt;
  };
  const auto machine_of = [&](std::size_t i) { return cases[plan.case_of(to_refine[i])].label.machine_index; };
  std::optional<Failure> failure;
  if (limits.seconds) {
    failure = run_items(to_refine.size(), request.threads, item, machine_of);
  } else {
    failure = run_shared_items(
        to_refine.size(), request.threads, ranks, item, machine_of,
        [&](std::size_t i) {
          distributed::Writer out;
          out.put(plan.items[to_refine[i]].exact_print);
          return std::move(out.bytes());
        },
        [&](std::size_t i, std::string_view bytes) {
          plan.items[to_refine[i]].exact_print = distributed::Reader(bytes).get<distributions::Fingerprint>();
        });
  }
  if (failure) return {std::nullopt, failure};
  return {whole.load(), std::nullopt};
}

// Whether each item built needs its exact model, and why a needed one will not be built.
void decide_exact_models(const Request& request, StudyPlan& plan) {
  for (std::size_t k = 0; k < plan.size(); ++k) {
    PlannedItem& item = plan.items[k];
    if (!item.built) continue;
    item.needs_exact = exact_model_needed(plan.p_of(k), request);
    item.no_exact = exact_model_refusal(item.sizes.tasks, request, static_cast<double>(request.memory_budget_bytes));
  }
}

// Each item's representative and the items to solve, in their order.
void share_models(StudyPlan& plan) {
  plan.representative.assign(plan.size(), 0);
  std::map<std::tuple<std::size_t, distributions::Fingerprint, distributions::Fingerprint>, std::size_t> first;
  for (std::size_t k = 0; k < plan.size(); ++k) {
    const PlannedItem& item = plan.items[k];
    plan.representative[k] = first.try_emplace({plan.case_of(k), item.print, item.exact_print}, k).first->second;
    if (plan.representative[k] == k) plan.to_solve.push_back(k);
  }
  // The items run from the last of to_solve: p = 1, the base of every speedup, first, so that a
  // study stopped early still has it; the rest largest p first.
  std::stable_partition(plan.to_solve.begin(), plan.to_solve.end(),
                        [&](std::size_t k) { return plan.p_index_of(k) != 0; });
}

}  // namespace

Outcome<StudyPlan> plan_study(const std::vector<Case>& cases, const Request& request, const PlanLimits& limits) {
  const auto start = Clock::now();
  Outcome<StudyPlan> outcome;
  StudyPlan& plan = outcome.value.emplace();
  plan.counts = request.processors;
  if (plan.counts.empty() || plan.counts.front() != 1) plan.counts.insert(plan.counts.begin(), 1);
  plan.cases = cases.size();
  plan.items.resize(plan.grid().size());
  const distributed::SingleProcess alone;
  const distributed::Communicator& ranks = request.communicator ? *request.communicator : alone;
  std::optional<Failure> failure = limits.seconds ? build_within(cases, request, *limits.seconds, start, plan)
                                                  : build_shared(cases, request, ranks, plan);
  decide_exact_models(request, plan);
  const bool built = std::all_of(plan.items.begin(), plan.items.end(), [](const PlannedItem& i) { return i.built; });
  if (!failure && built) {
    const Outcome<bool> refined = refine(cases, request, limits, start, ranks, items_to_refine(plan), plan);
    failure = refined.failure;
    plan.complete = refined.ok() && *refined.value;
  }
  if (failure) return {std::nullopt, failure};
  if (plan.complete) share_models(plan);
  for (const solvers::Method method : request.methods) {
    plan.together.push_back(!ranks.alone() && solvers::info(method).shared_by_ranks);
  }
  return outcome;
}

}  // namespace analysis
