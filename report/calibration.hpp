// The report of --calibrate and --validate (docs/calibration.md, "The report"): the fit, the
// predictions with their intervals, and the validation, as a table or JSON.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/calibration.hpp"
#include "analysis/prediction_interval.hpp"
#include "analysis/validation.hpp"
#include "report/report.hpp"
#include "models/runs.hpp"

namespace report {

struct CalibrationPart {
  std::string runs_file;
  analysis::CalibrationResult fit;
  models::Runs runs;
};

struct PredictedPoint {
  int p = 1;
  analysis::PredictionInterval interval;
};

struct ValidationPart {
  std::string runs_file;
  models::Runs runs;
  std::vector<analysis::ValidatedRun> validated;
  analysis::ValidationSummary summary;
};

struct CalibrationReport {
  std::string program_name, program_file, machine_name;
  double level = 0.95;  // of every interval
  // --time-unit; empty: the table picks one (the largest in which the median time shown is at
  // least 1), CSV and JSON use µs, the program's unit.
  std::optional<TimeUnit> time_unit;
  std::optional<CalibrationPart> calibration;
  std::vector<PredictedPoint> predictions;  // at the input's values, over --p
  std::optional<ValidationPart> validation;
};

std::string render_calibration(const CalibrationReport& report, Format format);

// The unit of the table and the validation chart: --time-unit's, else the largest of s, ms, µs
// in which the median of the times shown (measured and predicted) is at least 1 (ns below).
TimeUnit report_time_unit(const CalibrationReport& report);

// "tc and ts", "tc, tw and ts": the fitted names for a sentence.
std::string fit_names(const analysis::CalibrationResult& fit);

// The fitted values as lines `--set NAME=VALUE` (17 significant digits, read back to the same
// double) after `#` comments saying where they come from, for --set-file.
std::string render_set_lines(const analysis::CalibrationResult& fit, const std::string& runs_file);

}  // namespace report
