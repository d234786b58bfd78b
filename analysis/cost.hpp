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
#include "solvers/reference_costs.hpp"

namespace analysis {

// Seconds per unit of work on the reference machine (solvers/reference_costs.hpp): each
// solver estimates its own solve with them (solvers::Solver::cost), the study adds the models.
using solvers::reference_costs;
using solvers::UnitCosts;

// One part of the estimate: a method (or the models' construction) over a range of processor
// counts, e.g. "bounds on p = 32768-65535".
struct CostPart {
  // "approx", "bounds", "mc", "exact", "prediction" (its own solve), "models" or "sensitivity"
  std::string method;
  int p_low = 0;
  int p_high = 0;
  double seconds = 0.0;
};

struct CostEstimate {
  double seconds = 0.0;
  // The (case, p) models solved: identical ones are solved once (the plan's to_solve,
  // analysis/study_plan.hpp); in a plan the time limited, counted by their approximate models.
  std::size_t models = 0;
  // Per method and power-of-two range of p (p in [2^k, 2^(k+1))), largest first.
  std::vector<CostPart> parts;
  // True when some state space was counted at its limit (max_states) because estimating its
  // size would have taken too long here: the figure is then an upper bound for that part.
  bool states_at_limit = false;
  // False when the approximate models took more than a second to build here: the models not
  // built count by the time the built ones took per processor, and are not solved, so `seconds`
  // is a floor.
  bool complete = true;
  // Wall time of the estimate itself.
  double estimate_seconds = 0.0;
};

// The predicted wall time of run_study(cases, request) with `costs`. Processor counts whose
// approximate models are equal (same tree) are counted as one model, as the study solves
// identical models once; the study also compares their exact models, which is counted. The
// methods whose estimate needs the built models (the state space's size, Monte Carlo's pilot,
// the reduction itself) are piloted on processor counts spread over each program's sweep
// within half a second (analysis/cost_pilots.hpp), the others interpolated between them. Runs
// in well under a second for 65,536 processor counts of a small program, and in about a
// second and a half at most (see CostEstimate::complete).
// Nothing when a model cannot be built (the study then reports why).
std::optional<CostEstimate> estimate_cost(const std::vector<Case>& cases, const Request& request,
                                          const UnitCosts& costs = reference_costs());

// Time the estimate may spend planning (building the approximate models and comparing the exact
// ones; PlanLimits); a run whose plan takes longer is long, and the estimate extrapolates the
// rest from the models built.
inline constexpr double kEstimatePlanSeconds = 1.0;

// The same from a plan the caller made (plan_study, analysis/study_plan.hpp), which run_study then
// reads: a complete plan's models are those the run solves, so `models` is plan.to_solve's size.
// The overload above plans within about a second (PlanLimits), on this process alone.
struct StudyPlan;
std::optional<CostEstimate> estimate_cost(const StudyPlan& plan, const std::vector<Case>& cases, const Request& request,
                                          const UnitCosts& costs = reference_costs());

// Rank 0's `seconds` on every rank of `ranks` (collective; the value itself without ranks or
// alone). An estimate that times its pilots differs from rank to rank: every rank decides on
// rank 0's figure, so that they all refuse or all run, and none is left waiting for one that
// refused alone.
double agreed_seconds(double seconds, const distributed::Communicator* ranks);

// "about 14 min", "about 40 s", "about 3 h".
std::string duration_text(double seconds);

// "bounds on p = 32768-65535: about 14 min".
std::string describe(const CostPart& part);

}  // namespace analysis
