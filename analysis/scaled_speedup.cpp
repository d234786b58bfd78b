#include "analysis/scaled_speedup.hpp"

#include "analysis/run_model.hpp"
#include "analysis/sequential_time.hpp"
#include "scaling/approximate_model.hpp"
#include "scaling/exact_model.hpp"
#include "solvers/series_parallel_solver.hpp"

namespace analysis {

std::optional<solvers::Result> scaled_sequential_time(const models::Program& program, const models::Machine& machine,
                                                      const models::Environment& environment, int p,
                                                      const Request& request) {
  models::Environment at_p = environment;
  at_p.problem_processors = p;
  const graph::SpTree tree = scaling::approximate_model(program, machine, at_p, 1);
  if (tree.expanded_node_count() <= request.max_exact_tasks) {
    try {
      const scaling::ExactModel exact = scaling::exact_model(program, machine, at_p, 1, request.exact_model);
      if (auto base = one_processor_time(exact); base && solvers::finite_or_unsolved(*base).solved()) return base;
    } catch (const scaling::ExactModelTooLarge&) {
      // Beyond the builder's node limit: the approximate model's sum below.
    }
  }
  solvers::SeriesParallelOptions options = request.solver_options.series_parallel;
  options.keep_distribution = false;
  solvers::Result result = solve_approximate_tree(tree, options);
  if (!result.solved()) return std::nullopt;
  return result;
}

}  // namespace analysis
