// What --calibrate, --validate and prediction intervals will cost before they run (docs/cli.md,
// "Time limit"): every one of them solves the approximate model of each distinct setting (p and
// the runs file's column values) some number of times, so the estimate counts those solves and
// times a few of them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "analysis/failure.hpp"
#include "analysis/study.hpp"
#include "models/runs.hpp"
#include "solvers/series_parallel_solver.hpp"

namespace analysis {

// Ceres iterations a fit takes in its two stages together, as counted on the calibration examples
// (9 on examples/calibration; docs/performance.md, "Calibration"): the estimate's typical case.
inline constexpr double kTypicalFitIterations = 10.0;

struct RunsCost {
  std::size_t settings = 0;  // distinct (p, column values) of the runs, or processor counts
  double solves = 0.0;       // approximate-model solves the step makes
  double seconds = 0.0;      // estimated wall time on one core
  // Estimated peak bytes of the solves' results held at once: an interval holds the runtime law of
  // every draw of one setting (a grid of points, each with its two lattices' values and prefix
  // sums), a fit one figure per run.
  double bytes = 0.0;
};

// The distinct settings of `runs`, in the order of their first run.
std::vector<std::size_t> first_run_of_each_setting(const models::Runs& runs);

// The fit of `parameters` names to `runs`: per Ceres iteration every distinct setting solved
// 1 + 2k times (central differences), over kTypicalFitIterations, plus the weighings, the
// covariance's Jacobian and the last evaluation.
Outcome<RunsCost> estimate_fit(const MachineInput& input, const models::Runs& runs, std::size_t parameters,
                               const solvers::SeriesParallelOptions& options);

// Prediction intervals at each distinct setting of `runs` (validation): one central solve and
// `draws` parameter draws each (draws = 0 without a fit's covariance).
Outcome<RunsCost> estimate_intervals(const MachineInput& input, const models::Runs& runs, int draws,
                                     const solvers::SeriesParallelOptions& options);

// Prediction intervals at processor counts `processors` of `input` alone (--p, --pmax).
Outcome<RunsCost> estimate_intervals(const MachineInput& input, const std::vector<int>& processors, int draws,
                                     const solvers::SeriesParallelOptions& options);

}  // namespace analysis
