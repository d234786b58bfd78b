// One (case, p) of a study solved: its models built where the methods need them and the memory
// allows, each method's result, T(1), the processor time and the prediction's own solve
// (analysis/study.cpp runs these over the items of a study and the ranks of a job).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "analysis/memory_gate.hpp"
#include "analysis/processor_time.hpp"
#include "analysis/request.hpp"
#include "analysis/study.hpp"
#include "distributed/communicator.hpp"
#include "scaling/exact_model.hpp"
#include "solvers/result.hpp"

namespace analysis {

// The exact model's task graphs as the solvers take them, pointing into `exact`.
std::vector<solvers::WeightedGraph> weighted(const scaling::ExactModel& exact);

// True when the exact model of p processors is needed: by a method, for T(1) (p = 1), for the
// breakdown or for the prediction's own solve.
bool exact_model_needed(int p, const Request& request);

// Why a (case, p) has no exact model although a method or T(1) needs it.
struct NoExactModel {
  bool over_task_limit = false;  // *tasks above max_exact_tasks (pools included)
  bool over_budget = false;      // its build would not fit the memory budget
  std::string beyond_nodes;      // the builder's node limit

  bool any() const { return over_task_limit || over_budget || !beyond_nodes.empty(); }
};

// Why the exact model of `tasks` tasks (its approximate tree's count) will not be built, as far
// as its size tells before building: over the task limit, or its build over `budget` bytes. The
// builder's node limit and the tasks of dynamic pools show only when it is built
// (exact_model_for). The plan (StudyPlan) and the run both decide by it.
// `tasks` is a double: an approximate tree's count may pass 2^63 (a variable of 1e12 in a pipeline).
NoExactModel exact_model_refusal(double tasks, const Request& request, double budget);

// The exact model where a method (or T(1)) needs it, it is within the task limit and its build
// fits the budget: reserved from `gate` (when given) while it is built, the reservation handed
// back in *reservation. *tasks is the approximate tree's task count on entry and grows by the
// tasks of dynamically scheduled pools.
// The tasks of the exact model of `tasks` tasks counted as the task limit counts them: the
// largest scenario's, each dynamic pool's tasks included.
double tasks_with_pools(const scaling::ExactModel& exact, std::int64_t tasks);

std::optional<scaling::ExactModel> exact_model_for(const Case& one, int p, const Request& request, MemoryGate& gate,
                                                   MemoryGate::Reservation* reservation, std::int64_t* tasks,
                                                   NoExactModel* why);
// Every figure of one (case, p) the study keeps: each requested method's result, for p = 1 the
// exact one-processor time; what solve_case computes and the ranks of a job exchange.
struct ItemFigures {
  std::vector<solvers::Result> results;               // one per method of the request
  std::optional<solvers::Result> one_processor_time;  // T(1), where the one-processor model is a chain
  std::optional<ProcessorTime> processor_time;        // with Request::breakdown, where the exact model was built
  std::optional<solvers::Result> prediction;          // the prediction's own solve, where one ran and solved
};

// What a solve_case call computes: which of the request's methods (the others get a default
// Result, filled in by another call), whether T(1) and the breakdown, and the ranks Monte Carlo
// and the state space share (null: this process alone). At p = 1 not among the request's
// processors whose one-processor model is a chain, no method runs: T(1) is all it is for.
struct CaseWork {
  std::vector<bool> methods;
  bool bases = true;
  const distributed::Communicator* collective = nullptr;
  bool prediction = true;  // the prediction's own solve (a collective method: with `collective`)
};

// One (case, p) solved as `work` says. The memory: the exact model while it is built, then the
// model and the largest plan of the methods (they run one after the other), reserved from the
// run's gate before it is held; a method whose plan does not fit beside the model gets its
// refusal. `report` takes the fraction of this (case, p) done: the methods in turn, each its
// share.
ItemFigures solve_case(const Case& one, int p, const Request& request, MemoryGate& gate,
                       const std::function<void(double)>& report, const CaseWork& work);

}  // namespace analysis
