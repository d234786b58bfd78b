// The study's plan (docs/architecture.md, "Plan, estimate, run"): its items, one per (case, p)
// over the processor counts it solves, which model each shares and the order the models are
// solved in. Built once; the cost estimate (analysis/cost.hpp) and the run (run_study) both
// read it, so that the estimate counts the models the run solves.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "analysis/failure.hpp"
#include "analysis/parallel.hpp"
#include "analysis/request.hpp"
#include "analysis/solve_case.hpp"
#include "analysis/study.hpp"
#include "distributions/fingerprint.hpp"
#include "solvers/reference_costs.hpp"

namespace analysis {

// One (case, p) of the plan: its approximate model's fingerprint and sizes, as far as built.
struct PlannedItem {
  bool built = false;  // false when a limited plan ran out of time first
  // Of the approximate model, p = 1 marked apart (it also gives T(1)); and, where a method
  // needs the exact model and another p shares this approximate one, of the exact model.
  distributions::Fingerprint print;
  distributions::Fingerprint exact_print;
  solvers::ModelSizes sizes;  // of the approximate model
  double seconds = 0.0;       // building its approximate model took
  // Whether its exact model is needed (by a method, T(1) at p = 1, the breakdown or the
  // prediction's own solve: exact_model_needed), and why a needed one will not be built, as far
  // as its size tells (exact_model_refusal): the run builds it where needed and not refused, and
  // the estimate and its pilots count and build exactly those.
  bool needs_exact = false;
  NoExactModel no_exact;

  bool builds_exact() const { return needs_exact && !no_exact.any(); }
};

struct StudyPlan {
  std::vector<int> counts;  // the processor counts solved: 1 first, then the request's
  std::size_t cases = 0;
  // Item k = p index * cases + case: the driver starts from the highest index, the largest p.
  std::vector<PlannedItem> items;
  // Complete plans: per item, the item whose model it shares (itself, or the item of the same
  // case with the smallest p whose models are the same); and the items solved, in the order they
  // run (from the last: p = 1 first, then the largest p).
  std::vector<std::size_t> representative;
  std::vector<std::size_t> to_solve;
  // False when PlanLimits::seconds ran out before every item was built and compared: the
  // items built are grouped by their approximate models alone and nothing is to be solved.
  bool complete = false;
  // By method of the request: solved by every rank of a job together, after the items are shared
  // out (solvers::SolverInfo::shared_by_ranks); all false for a process alone.
  std::vector<bool> together;

  std::size_t size() const { return items.size(); }
  ItemGrid grid() const { return {counts.size(), cases}; }
  std::size_t item(std::size_t p_index, std::size_t c) const { return grid().item(p_index, c); }
  std::size_t case_of(std::size_t k) const { return grid().inner_of(k); }
  std::size_t p_index_of(std::size_t k) const { return grid().outer_of(k); }
  int p_of(std::size_t k) const { return counts[p_index_of(k)]; }
};

struct PlanLimits {
  // Build for at most about this long, on this process alone (smallest p first, the exact
  // comparisons last); none: the whole plan, shared out over the request's ranks.
  std::optional<double> seconds;
};

// The plan of run_study(cases, request): every item's approximate model, the exact models of the
// items that share an approximate one where a method or the prediction needs them, and from them
// which items share a model. A failure when a model cannot be built.
Outcome<StudyPlan> plan_study(const std::vector<Case>& cases, const Request& request, const PlanLimits& limits = {});

}  // namespace analysis
