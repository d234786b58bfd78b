// The prediction's own solve (docs/cli.md, "The prediction"): a method not asked for that ranks
// above every method asked for, run on a (case, p) when its cost fits the prediction's budget.
// Internal to run_study.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "analysis/request.hpp"
#include "solvers/solver.hpp"

namespace analysis {

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
                                          const solvers::ScaledModels& models, bool exact_base);

// The prediction's own solve: the first of `own` that ranks above every method this call solved
// and solves. The methods solved elsewhere (another call of a job's ranks) rank below every
// method that can solve for the prediction (those whose solve is collective), so the choice is
// the same on any number of ranks.
std::optional<solvers::Result> solve_for_prediction(const std::vector<OwnSolver>& own,
                                                    const std::vector<solvers::Result>& results,
                                                    const std::vector<bool>& solved_here,
                                                    const solvers::ScaledModels& models);

}  // namespace analysis
