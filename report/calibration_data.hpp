// The --calibrate and --validate report as data (docs/calibration.md, "The report"): JSON, one
// document, and CSV, one row per prediction and validated run. Internal to report/calibration.cpp.
#pragma once

#include <string>

#include "report/calibration.hpp"

namespace report {

std::string calibration_json(const CalibrationReport& report, const TimeUnit& unit);
std::string calibration_csv(const CalibrationReport& report, const TimeUnit& unit);

}  // namespace report
