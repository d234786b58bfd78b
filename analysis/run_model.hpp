// One measured run's setting as a model (docs/calibration.md): the input with the run's column
// values, or fitted parameters, applied — a program variable to the input's values, a machine
// constant to the machine as --set applies it — and the approximate model of that setting
// solved on the run's processor count. Shared by calibration, prediction and validation, so
// that all three see one model of a run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/failure.hpp"
#include "analysis/study.hpp"
#include "distributions/distribution.hpp"
#include "models/runs.hpp"
#include "solvers/result.hpp"
#include "solvers/series_parallel_solver.hpp"
#include "solvers/solver.hpp"

namespace analysis {

// The input with names[i] = values[i]: a variable of the program overrides the input's value,
// any other name is a constant of the machine (with_constants). A Failure (with the reason)
// when the machine refuses a constant.
Outcome<MachineInput> with_values(const MachineInput& input, const std::vector<std::string>& names,
                                  const std::vector<double>& values);

// The approximate model's tree solved by the series-parallel reduction through the factory (and
// its check that every figure is finite: an unsolved Result otherwise), with these options and
// no memory budget of its own (the tree holds a few nodes per phase).
solvers::Result solve_approximate_tree(const graph::SpTree& tree, const solvers::SeriesParallelOptions& options);

// The approximate model of `input` on p processors, bound and solved by the series-parallel
// reduction. A Failure when the program cannot be bound or the model not built or solved.
Outcome<solvers::Result> solve_approximate(const MachineInput& input, std::int64_t p,
                                           const solvers::SeriesParallelOptions& options);

// The distinct settings of measured runs (p and the column values: repetitions share one), in the
// order of their first run: each setting's first run, and each run's setting. Calibration solves
// each once per evaluation; the cost estimates count and time them.
struct RunSettings {
  std::vector<std::size_t> first_run;  // per setting
  std::vector<std::size_t> of_run;     // per run: the index of its setting
};
RunSettings settings_of(const models::Runs& runs);

// E[log(X / mean)^2] of a runtime law X, over its (j + 1/2)/200 quantiles: how far the log of
// one run falls from that of the model's mean by the model's own randomness alone (0 for a
// deterministic law).
double log_spread(const distributions::Distribution& law, double mean);

}  // namespace analysis
