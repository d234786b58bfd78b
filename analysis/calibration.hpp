// Calibration (docs/calibration.md, "Calibration"): program variables or machine constants
// estimated from measured runs by weighted nonlinear least squares on the approximate model's
// mean, with Ceres Solver, and their standard errors and correlations from the Jacobian at the
// fit (the usual s^2 (J^T J)^-1 of nonlinear regression).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/failure.hpp"
#include "analysis/study.hpp"
#include "models/runs.hpp"
#include "solvers/series_parallel_solver.hpp"

namespace analysis {

struct CalibrationOptions {
  // The names to fit, each a variable of the program or a constant of the machine; their values
  // in the input (defaults, --set) are the starting point and must be > 0 (the fit works on
  // their logarithms, so a fitted value stays > 0).
  std::vector<std::string> parameters;
  int max_iterations = 200;
  solvers::SeriesParallelOptions series_parallel;
  bool IsValid(std::string* why) const;
};

struct FittedParameter {
  std::string name;
  double value = 0.0;
  double standard_error = 0.0;  // of the value, by the delta method from the log's
};

struct CalibrationResult {
  std::vector<FittedParameter> parameters;
  std::vector<std::vector<double>> correlation;  // of the parameters' estimates
  std::size_t runs = 0;
  std::size_t degrees_of_freedom = 0;  // runs - parameters
  // s = sqrt(sum of squared relative residuals / degrees of freedom): the typical relative error
  // of one run against the fitted model.
  double residual_standard_error = 0.0;
  // 1 - SSE / SST on the times (the share of the runs' variation the model explains).
  double r_squared = 0.0;
  int iterations = 0;
  std::string termination;  // Ceres's summary of why it stopped
};

// Fits options.parameters to `runs` for the case `input` (program, machine, values): each run's
// residual is (T(p; values of the run, parameters) - time) / time, with T the approximate
// model's mean. Refused (Failure) when a name is not declared, a starting value is not > 0,
// there are fewer runs than parameters + 1, or a run cannot be bound.
Outcome<CalibrationResult> calibrate(const MachineInput& input, const models::Runs& runs,
                                     const CalibrationOptions& options);

}  // namespace analysis
