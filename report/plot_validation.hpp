// --validation-plot FILE.svg: every validated run as a point, measured time across and
// predicted mean up, with its prediction interval as a vertical bar; the diagonal where
// prediction equals measurement and dashed lines at ±20% (Clement's error bands).
#pragma once

#include <string>

#include "report/calibration.hpp"

namespace report {

// A self-contained SVG 1.1 document; one colour and marker per processor count in the legend
// (or, when every run has one p, per combination of the column values that vary: a size sweep),
// styles repeating after 48 groups; both axes log2 when the times span more than a factor of 8,
// else linear.
std::string render_validation_plot(const CalibrationReport& report);

}  // namespace report
