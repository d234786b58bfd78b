#include "analysis/prediction_solve.hpp"

#include <algorithm>

namespace analysis {

std::vector<OwnSolver> prediction_solvers(const Request& request, const solvers::SolverOptions& options,
                                          const solvers::ScaledModels& models, bool exact_base) {
  std::vector<OwnSolver> own;
  const double seconds = request.prediction.seconds_per_model;
  if (models.exact.empty() || exact_base || !(seconds > 0.0)) return own;
  for (solvers::Method method : solvers::all_methods()) {
    if (std::find(request.methods.begin(), request.methods.end(), method) != request.methods.end()) continue;
    std::unique_ptr<solvers::Solver> tuned = solvers::make_solver(method, options)->within_seconds(models, seconds);
    if (!tuned) continue;
    solvers::MemoryPlan plan = tuned->plan_memory(models);
    if (plan.refusal) continue;
    own.push_back({std::move(tuned), std::move(plan)});
  }
  std::stable_sort(own.begin(), own.end(), [](const OwnSolver& a, const OwnSolver& b) {
    return a.solver->info().prediction_rank > b.solver->info().prediction_rank;
  });
  return own;
}

std::optional<solvers::Result> solve_for_prediction(const std::vector<OwnSolver>& own,
                                                    const std::vector<solvers::Result>& results,
                                                    const std::vector<bool>& solved_here,
                                                    const solvers::ScaledModels& models) {
  int best = 0;
  for (std::size_t j = 0; j < results.size(); ++j) {
    if (solved_here[j] && results[j].solved()) best = std::max(best, solvers::info(results[j].method).prediction_rank);
  }
  for (const OwnSolver& one : own) {
    if (one.solver->info().prediction_rank <= best) break;
    solvers::Result result = one.solver->solve(models);
    if (result.solved()) return result;
  }
  return std::nullopt;
}

}  // namespace analysis
