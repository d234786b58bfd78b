// What the commands that solve the approximate model many times will cost before they run
// (docs/cli.md, "Time you can see"): --calibrate, --validate and prediction intervals solve it
// at each distinct setting (p and the runs file's column values), an --isoefficiency or
// --isospeed search at each size it tries; the estimate counts those solves and times a few.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/failure.hpp"
#include "analysis/isoefficiency.hpp"
#include "analysis/study.hpp"
#include "models/runs.hpp"
#include "solvers/series_parallel_solver.hpp"

namespace analysis {

// Ceres iterations a fit takes in its two stages together, as counted on the calibration examples
// (9 on examples/calibration; docs/performance.md, "Calibration"): the estimate's typical case.
inline constexpr double kTypicalFitIterations = 10.0;

struct SolvesCost {
  std::size_t settings = 0;  // distinct (p, column values) of the runs, or processor counts
  double solves = 0.0;       // approximate-model solves the step makes
  double seconds = 0.0;      // estimated wall time on one core
  // Estimated peak bytes of the solves' results held at once: an interval holds the runtime law of
  // every draw of one setting (a grid of points, each with its two lattices' values and prefix
  // sums), a fit one figure per run.
  double bytes = 0.0;
};

// The fit of `parameters` names to `runs` from `starts` starts (docs/calibration.md, "Starts"):
// per Ceres iteration every distinct setting solved 1 + 2k times (central differences), over
// kTypicalFitIterations, plus the weighings, the covariance's Jacobian and the last evaluation;
// each further start a coarse fit of 1 + k solves per iteration (forward differences); and the
// range's refits, two per axis with two or more values, each a fit and 1 + 2k solves per setting
// left out.
Outcome<SolvesCost> estimate_fit(const MachineInput& input, const models::Runs& runs, std::size_t parameters,
                                 int starts, const solvers::SeriesParallelOptions& options);

// Prediction intervals at each distinct setting of `runs` (validation): one central solve and
// `draws` parameter draws each (draws = 0 without a fit's covariance).
Outcome<SolvesCost> estimate_intervals(const MachineInput& input, const models::Runs& runs, int draws,
                                       const solvers::SeriesParallelOptions& options);

// Prediction intervals at processor counts `processors` of `input` alone (--p, --pmax).
Outcome<SolvesCost> estimate_intervals(const MachineInput& input, const std::vector<int>& processors, int draws,
                                       const solvers::SeriesParallelOptions& options);

// The evaluations an --isoefficiency search makes per (machine, p) at most: over a program
// variable, doubling from min_size up to max_size and bisecting back over the integers
// (2 log2(max/min) + 2); over a machine constant, bisecting its range on a log scale to the
// relative precision.
double search_evaluations(const IsoefficiencyOptions& options, bool machine_constant, double constant_range);

// A search over `processors` on every machine, `evaluations` per (machine, p), each solving the
// approximate model at p and at p = 1 (approximate_efficiency): one evaluation at the machines'
// values (a program `variable` without one at `start`) is timed at up to 16 (machine, p) spread
// over them.
Outcome<SolvesCost> estimate_search(const std::vector<MachineInput>& machines, const std::vector<int>& processors,
                                    const std::string& variable, double start, double evaluations,
                                    const solvers::SeriesParallelOptions& options);

}  // namespace analysis
