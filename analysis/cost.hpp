// What a study will cost before it runs: its wall time predicted from the models' sizes and
// per-unit costs measured once on a reference machine (docs/performance.md, "Cost
// estimate"), so that a run of hours is refused before it starts rather than killed after.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "analysis/request.hpp"
#include "analysis/study.hpp"

namespace analysis {

// Seconds per unit of work on one free core of the reference machine (docs/performance.md
// states it and how each figure was measured): CPU seconds, user and system. A run on two
// free cores takes down to half the estimate; one sharing its cores with other work, more.
struct UnitCosts {
  // Building and fingerprinting the approximate model of one (case, p), per node of its tree.
  double tree_node = 0.0;
  // Building and fingerprinting the exact model of one (case, p): per model, per task and per
  // processor (the run compares the exact models of processor counts whose approximate models
  // are equal, and builds the exact model of each model it solves).
  double exact_model = 0.0;
  double exact_task = 0.0;
  double exact_processor = 0.0;
  // The series-parallel reduction, per inner node of the tree and grid point.
  double reduction_node_point = 0.0;
  // The bounds (every default bounding method) of one model: bounds_model, plus
  // bounds_small_task per task up to bounds_small_most in all (their work limits cap the
  // costly methods), plus bounds_task per task.
  double bounds_model = 0.0;
  double bounds_small_task = 0.0;
  double bounds_small_most = 0.0;
  double bounds_task = 0.0;
  // Monte Carlo, per task drawn in one sample.
  double task_sample = 0.0;
  // The state space's sweep, per state.
  double state = 0.0;
  // The state space's estimate of its size, which refuses the model when too large: at most.
  double state_estimate = 0.0;
};

// The costs measured on the reference machine (docs/performance.md).
UnitCosts reference_costs();

// In precision mode Monte Carlo's sample count depends on the makespan's spread, unknown
// before it runs: the estimate assumes a coefficient of variation of this much (and at least
// min_samples, at most max_samples).
inline constexpr double kAssumedMakespanCv = 0.05;

// One part of the estimate: a method (or the models' construction) over a range of processor
// counts, e.g. "bounds on p = 32768-65535".
struct CostPart {
  std::string method;  // "approx", "bounds", "mc", "exact", "prediction" (its own solve) or "models"
  int p_low = 0;
  int p_high = 0;
  double seconds = 0.0;
};

struct CostEstimate {
  double seconds = 0.0;
  // The (case, p) models solved: identical ones are solved once (find_shared_models in
  // study.cpp); counted here by their approximate models, see estimate_cost.
  std::size_t models = 0;
  // Per method and power-of-two range of p (p in [2^k, 2^(k+1))), largest first.
  std::vector<CostPart> parts;
  // True when some state space was counted at its limit (max_states) because estimating its
  // size would have taken too long here: the figure is then an upper bound for that part.
  bool states_at_limit = false;
  // Wall time of the estimate itself.
  double estimate_seconds = 0.0;
};

// The predicted wall time of run_study(cases, request) with `costs`. Processor counts whose
// approximate models are equal (same tree) are counted as one model, as the study solves
// identical models once; the study also compares their exact models, which is counted (the
// exact model's build per task). The state space's size is estimated (as its solver does) for
// the smaller models, within about a quarter of a second in all; the others are counted at
// max_states. Runs in well under a second for 65,536 processor counts of a small program.
// Nothing when a model cannot be built (the study then reports why).
std::optional<CostEstimate> estimate_cost(const std::vector<Case>& cases, const Request& request,
                                          const UnitCosts& costs = reference_costs());

// "about 14 min", "about 40 s", "about 3 h".
std::string duration_text(double seconds);

// "bounds on p = 32768-65535: about 14 min".
std::string describe(const CostPart& part);

}  // namespace analysis
