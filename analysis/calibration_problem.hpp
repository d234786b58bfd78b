// The least-squares problem of a calibration (docs/calibration.md, "Calibration"): the model's
// times at the runs' settings for given parameter logarithms, the residuals folded per setting,
// and one Ceres fit of them. Internal to analysis/calibration.cpp.
#pragma once

#include <ceres/ceres.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/calibration.hpp"
#include "analysis/run_model.hpp"
#include "models/runs.hpp"

namespace analysis::detail {

// The approximate model's mean for every run, given the parameters' logarithms. Runs of one
// setting (the same p and column values: repetitions) share one solve, so that an evaluation
// costs the distinct settings, not the rows.
class Predictor {
 public:
  Predictor(const MachineInput& input, const models::Runs& runs, const CalibrationOptions& options);

  // False (with failure()) when a run cannot be bound or solved. With `spreads`, also each run's
  // own log spread (log_spread of its runtime law) into it. A probe (record false) leaves no
  // failure behind: a step of the search into values the model refuses is only a step rejected.
  bool predict(const double* logs, double* times, double* spreads = nullptr, bool record = true);
  // predict() per distinct setting (RunSettings order) rather than per run.
  bool predict_settings(const double* logs, double* setting_times, double* setting_spreads, bool record);

  std::size_t settings() const { return distinct_.first_run.size(); }
  const RunSettings& distinct() const { return distinct_; }
  const std::string& last_failure() const { return last_failure_; }  // of the last prediction, probe or not
  const std::optional<Failure>& failure() const { return failure_; }

 private:
  bool fail(const models::Run& run, const std::string& why);

  const models::Runs& runs_;
  const CalibrationOptions& options_;
  RunSettings distinct_;
  std::vector<MachineInput> settings_;  // per distinct setting: the input with its column values
  std::optional<Failure> failure_;
  bool record_ = true;
  std::string last_failure_;
};

// Per parameter, the logarithms a fit keeps within (CalibrationOptions::ranges).
struct LogBounds {
  std::vector<double> lower, upper;
  std::vector<bool> ranged;  // a --fit range: Ceres's bounds; else a step beyond is refused
};

// The sum over the runs of one setting s (one model time T_s, one deviation) of the squared
// relative residuals, sum_r (T_s / t_r - 1)^2 = (sqrt(A_s) T_s - B_s / sqrt(A_s))^2 + (m_s -
// B_s^2 / A_s), with A_s = sum 1/t_r^2 and B_s = sum 1/t_r: one residual per setting, which has
// the same minimum, Jacobian product J^T J and covariance as a residual per run, and costs the
// settings rather than the rows.
struct SettingSums {
  SettingSums(const models::Runs& runs, const RunSettings& distinct);
  // The sum of the dropped terms, each divided by the setting's variance (`deviations` per run).
  double constant(const RunSettings& distinct, const std::vector<double>& deviations) const;
  std::vector<double> a, b, m;
};

// One Ceres fit of the logs from where they are.
struct Fit {
  std::unique_ptr<ceres::Problem> problem;
  ceres::Solver::Summary summary;
};

// The fit of `logs` (moved to its end) with each setting's folded residual divided by the
// deviation of its runs. `coarse`: forward differences and a looser tolerance, for a start that
// only looks for a better basin; it stops on entering `known_basin` (the best fit's logs so far)
// where one is given. The problem reads predictor, sums, deviations and bounds: they must
// outlive the Fit.
Fit solve(Predictor& predictor, const SettingSums& sums, const std::vector<double>& deviations,
          const CalibrationOptions& options, const LogBounds& bounds, std::vector<double>& logs, bool coarse = false,
          const std::vector<double>* known_basin = nullptr);

// The calibration's range (its runs' settings) and the rate at which the model's error grows
// beyond it: per axis with two or more values and per direction, a refit (one start, from `fit`'s
// values) without the settings in the outer quarter of the axis's span, which are then
// predicted (docs/calibration.md, "Beyond the calibrated range"); without
// options.estimate_range, the settings alone.
CalibratedRange estimate_range(const MachineInput& input, const models::Runs& runs, const CalibrationOptions& options,
                               const CalibrationResult& fit);

}  // namespace analysis::detail
