// The statistics of a calibration's fit (docs/calibration.md, "Weights", "Goodness of fit",
// "Repetitions"): the unexplained spread, the repetitions' spread and R^2. Internal to
// analysis/calibration.cpp.
#pragma once

#include <cstddef>
#include <vector>

#include "analysis/calibration.hpp"
#include "models/runs.hpp"

namespace analysis::detail {

// Paule and Mandel's u^2 >= 0: sum of e_r^2 / (v_r + u^2) = degrees of freedom, or 0 when the
// runs' spread v alone accounts for the residuals e.
double unexplained_variance(const std::vector<double>& e, const std::vector<double>& v, double degrees_of_freedom);

// R^2 on the times themselves.
double r_squared(const models::Runs& runs, const std::vector<double>& fitted);

// The repetition spread and the settings it comes from, when there are repetitions and degrees of
// freedom; `spreads` are the runs' own log spreads.
void add_repetitions(const models::Runs& runs, const std::vector<double>& spreads, std::size_t k,
                     CalibrationResult& result);

}  // namespace analysis::detail
