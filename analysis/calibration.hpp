// Calibration (docs/calibration.md, "Calibration"): program variables or machine constants
// estimated from measured runs by weighted nonlinear least squares on the approximate model's
// mean, with Ceres Solver, and their standard errors and correlations from the Jacobian at the
// fit (the usual s^2 (J^T J)^-1 of nonlinear regression).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analysis/calibration_range.hpp"
#include "analysis/failure.hpp"
#include "analysis/study.hpp"
#include "models/runs.hpp"
#include "solvers/series_parallel_solver.hpp"

namespace analysis {

// The values a fitted parameter may take (--fit name=lower..upper): 0 < lower < upper.
struct ParameterRange {
  double lower = 0.0;
  double upper = 0.0;
};

struct CalibrationOptions {
  // The names to fit, each a variable of the program or a constant of the machine; their values
  // in the input (defaults, --set) are the first start and must be > 0 (the fit works on their
  // logarithms, so a fitted value stays > 0).
  std::vector<std::string> parameters;
  // Per name, the range its fit keeps to (Ceres's bounds on the logarithm). A name without one
  // keeps within a factor kFreeRange of its start (and within [1e-100, 1e100]); ending beyond
  // a factor kDivergedBeyond above every start, or a factor 1,000 below every start where it
  // no longer matters, is divergence, refused with what would pin it.
  std::map<std::string, ParameterRange> ranges;
  // The fits of stage 1 (docs/calibration.md, "Starts"): the input's values, then starts - 1
  // others spread on a log scale; the best is kept and the others' spread reported.
  int starts = 5;
  int max_iterations = 200;
  // Refit without the outer settings of each axis to measure how fast the model's error grows
  // beyond the calibrated range (CalibrationResult::range); the refits themselves do not.
  bool estimate_range = true;
  solvers::SeriesParallelOptions series_parallel;
  bool IsValid(std::string* why) const;
};

struct FittedParameter {
  std::string name;
  double value = 0.0;
  // Of the value, by the delta method from the log's; empty when the runs are as many as the
  // parameters (an exact fit leaves no residual to estimate the noise from).
  std::optional<double> standard_error;
  double start = 0.0;        // the value the fit started from (the input's)
  bool is_constant = false;  // a constant of the machine (else a variable of the program)
  // The --fit range it kept to, and which end the fit stopped at (-1 lower, +1 upper, 0 inside):
  // at an end the runs would take it further, and its standard error assumes it free.
  std::optional<ParameterRange> range;
  int at_end = 0;
};

inline constexpr double kFreeRange = 1e15;
inline constexpr double kDivergedBeyond = 1e12;

// One start of stage 1 and where its fit ended.
struct StartOutcome {
  std::vector<double> start;   // per parameter
  std::vector<double> values;  // at the end of its fit; empty when it failed
  double cost = 0.0;           // half the sum of squared relative residuals (Ceres's), at the end
  std::string failure;         // why it gave no fit (a run that could not be solved there)
  bool best = false;           // the start whose fit the calibration kept
  bool same_fit = false;       // ended at the best fit: every value within 1% of it
};

struct CalibrationResult {
  std::vector<FittedParameter> parameters;
  // Of the parameters' estimates, and the covariance of their logarithms (what the prediction
  // intervals draw from); both empty when degrees_of_freedom is 0.
  std::vector<std::vector<double>> correlation;
  std::vector<std::vector<double>> log_covariance;
  std::size_t runs = 0;
  std::size_t degrees_of_freedom = 0;  // runs - parameters
  // s = sqrt(sum of squared relative residuals / degrees of freedom): the typical relative error
  // of one run against the fitted model; empty when degrees_of_freedom is 0.
  std::optional<double> residual_standard_error;
  std::vector<double> fitted;  // the model's mean at each run, with the fitted values
  // The standard deviation of log(time) between runs that the model's own randomness does not
  // explain (docs/calibration.md, "Weights"): Paule and Mandel's estimate; 0 when the model's
  // runtime laws account for the runs' spread, and also 0 without degrees of freedom.
  double unexplained = 0.0;
  // With repetitions (two or more runs of one p and column values): the run-to-run spread of
  // log(time) beyond the model's own randomness that the repetitions alone show, by restricted
  // maximum likelihood (docs/calibration.md, "Repetitions"), and over how many settings. The
  // part of `unexplained` above it is the model's misfit rather than noise.
  std::optional<double> repetition_spread;
  std::size_t repeated_settings = 0;
  // 1 - SSE / SST on the times (the share of the runs' variation the model explains).
  double r_squared = 0.0;
  // The settings fitted on and how fast the model's error grew beyond them (without
  // estimate_range: the settings only, no rate).
  CalibratedRange range;
  std::vector<StartOutcome> starts;  // stage 1's, in the order tried (the input's first)
  int iterations = 0;                // of both stages, all starts (docs/calibration.md, "Weights")
  std::string termination;           // Ceres's summary of why it stopped
};

// Fits options.parameters to `runs` for the case `input` (program, machine, values): each run's
// residual is (T(p; values of the run, parameters) - time) / time, with T the approximate
// model's mean. Refused (Failure) when a name is not declared, a starting value is not > 0,
// there are fewer runs than parameters, or a run cannot be bound. As many runs as parameters
// give an exact fit (Sun and Zhu's two runs for two parameters) without standard errors.
Outcome<CalibrationResult> calibrate(const MachineInput& input, const models::Runs& runs,
                                     const CalibrationOptions& options);

}  // namespace analysis
