// Prediction intervals (docs/calibration.md, "Prediction intervals"): where one more run of a
// setting will fall, combining what the model knows of the run's own randomness (the task
// runtimes' distribution, the approximate model's runtime law) with the uncertainty of the
// fitted parameters (a parametric bootstrap from the fit's covariance) and the run-to-run
// spread the fit saw but the model does not explain. Each part is reported with the whole.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/calibration.hpp"
#include "analysis/calibration_range.hpp"
#include "analysis/failure.hpp"
#include "analysis/study.hpp"
#include "solvers/series_parallel_solver.hpp"

namespace analysis {

struct PredictionIntervalOptions {
  double level = 0.95;        // the central probability of every interval, in (0, 1)
  int parameter_draws = 200;  // draws of the parameters from their estimated law, in [10, 100000]
  // Points of the standard normal (its (k + 1/2)/n quantiles) over which the unexplained spread is
  // averaged in the combined law, in [1, 1000].
  int spread_points = 32;
  std::uint64_t seed = 1;  // fixes the draws
  solvers::SeriesParallelOptions series_parallel;
  bool IsValid(std::string* why) const;
};

// What a fit knows of its parameters.
struct ParameterUncertainty {
  std::vector<std::string> names;                   // the fitted names
  std::vector<double> values;                       // their fitted values
  std::vector<std::vector<double>> log_covariance;  // of their logarithms; empty: taken as known
  // The spread of log(time) the model's own randomness does not explain (CalibrationResult).
  double unexplained = 0.0;
  // The settings fitted on and how fast the model's error grows beyond them; empty without a fit.
  std::optional<CalibratedRange> range;
};

// What `fit` knows: its values, the covariance of their logs (none without degrees of freedom:
// the values are then taken as known) and its unexplained spread.
ParameterUncertainty uncertainty_of(const CalibrationResult& fit);

struct PredictionInterval {
  double mean = 0.0;  // the approximate model's mean at the fitted values
  // Task randomness alone: the central interval of the runtime law at the fitted values.
  double task_low = 0.0, task_high = 0.0;
  // Parameter uncertainty alone: the mean over the parameter draws, its standard deviation and
  // central interval (all equal to `mean` and 0 without a covariance).
  double parameter_standard_error = 0.0;
  double parameter_low = 0.0, parameter_high = 0.0;
  double unexplained = 0.0;  // as ParameterUncertainty::unexplained
  // Where the setting lies relative to the calibration, and the model's error expected there
  // (docs/calibration.md, "Beyond the calibrated range"); empty without a fit.
  std::optional<Placement> placement;
  // Everything: the central interval of the mixture over the draws of each draw's runtime law
  // times exp(w z - u^2/2), w^2 = u^2 + discrepancy^2: the unexplained spread (mean 1) and the
  // model's error at the setting's distance (median 1).
  double low = 0.0, high = 0.0;
};

// The interval of one more run of `setting` (the input with the run's values; the fitted values
// are applied here) on p processors. `stream` separates the draws of different predictions: the
// same (seed, stream) gives the same interval.
//
// The stream of a setting: FNV-1a over the bytes of p and of the values of its run's columns,
// so that one setting gets one interval wherever it is predicted (--p and --validate).
std::uint64_t setting_stream(std::int64_t p, const std::vector<double>& values);

Outcome<PredictionInterval> predict_interval(const MachineInput& setting, std::int64_t p,
                                             const ParameterUncertainty& uncertainty,
                                             const PredictionIntervalOptions& options, std::uint64_t stream);

}  // namespace analysis
