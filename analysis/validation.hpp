// Validation (docs/calibration.md, "Validation"): every measured run against the model's
// prediction for its setting, with its prediction interval, and the summary in Clement's form
// (mean error, share of runs within 10, 20 and 40%) with the intervals' coverage and, when
// bounds were computed, Mendes and Reed's RatioLB and RatioUB.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "analysis/failure.hpp"
#include "analysis/prediction_interval.hpp"
#include "analysis/study.hpp"
#include "models/runs.hpp"

namespace analysis {

struct ValidatedRun {
  models::Run run;
  PredictionInterval prediction;
  // Clement's error, (predicted - measured) / measured, with the mean as the prediction.
  double error = 0.0;
  bool inside = false;  // the measured time is within [prediction.low, prediction.high]
  // The exact model's bounds on the mean, when the bounds method was asked for and solved it.
  std::optional<double> lower_bound, upper_bound;
};

struct ValidationSummary {
  std::size_t runs = 0;
  double mean_absolute_error = 0.0;  // mean of |error|
  double mean_signed_error = 0.0;    // mean of error: > 0 when the model over-predicts
  double largest_absolute_error = 0.0;
  // Shares of the runs (in [0, 1]) whose |error| is at most 10%, 20% and 40%.
  double within_10 = 0.0, within_20 = 0.0, within_40 = 0.0;
  std::size_t inside = 0;  // runs inside their prediction interval
  double coverage = 0.0;   // inside / runs
  // The runs beyond the calibrated range (PredictionInterval::placement) and those of them inside.
  std::size_t extrapolated = 0, extrapolated_inside = 0;
  // Over the runs with bounds: the means of lower bound / measured and upper bound / measured.
  std::size_t bounded = 0;
  std::optional<double> mean_ratio_lower, mean_ratio_upper;
};

// The prediction and interval of every run of `runs` (the input with the run's column values
// and the fitted values of `uncertainty`); runs of one setting (p and values) share one
// prediction, whose draws use setting_stream(p, values).
Outcome<std::vector<ValidatedRun>> validate_runs(const MachineInput& input, const models::Runs& runs,
                                                 const ParameterUncertainty& uncertainty,
                                                 const PredictionIntervalOptions& options);

ValidationSummary summarize(const std::vector<ValidatedRun>& runs);

}  // namespace analysis
