#include "analysis/calibration_statistics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace analysis::detail {

namespace {

// The u^2 >= 0 where `excess`, a function that falls as u^2 grows, crosses zero: 0 when it is
// not positive at 0, else by doubling out from 10^-12 (up to 10^6) and bisection to a relative
// 10^-12. Both variance estimates below are such zeros.
template <typename Excess>
double zero_from_above(const Excess& excess) {
  if (excess(0.0) <= 0.0) return 0.0;
  double high = 1e-12;
  while (excess(high) > 0.0 && high < 1e6) high *= 4.0;
  double low = 0.0;
  for (int step = 0; step < 200 && high - low > 1e-12 * high; ++step) {
    const double middle = 0.5 * (low + high);
    (excess(middle) > 0.0 ? low : high) = middle;
  }
  return 0.5 * (low + high);
}

// The restricted maximum likelihood u^2 >= 0 of log times y_gi = mu_g + e_gi with e_gi normal of
// variance v_g + u^2, over the groups g of repetitions: the zero of
//   sum over g of [S_g / (v_g + u^2)^2 - (m_g - 1) / (v_g + u^2)],
// S_g the squared deviations from the group's mean and m_g its runs; 0 when the derivative is
// not positive at 0. The derivative's sign changes once on the cases that matter (all v_g equal
// gives the pooled S / (m - 1) - v).
double repetition_variance(const std::vector<double>& squares, const std::vector<double>& degrees,
                           const std::vector<double>& v) {
  return zero_from_above([&](double u2) {
    double sum = 0.0;
    for (std::size_t g = 0; g < squares.size(); ++g) {
      const double variance = std::max(v[g] + u2, 1e-300);
      sum += squares[g] / (variance * variance) - degrees[g] / variance;
    }
    return sum;
  });
}

}  // namespace

// Paule and Mandel's u^2 >= 0: sum of e_r^2 / (v_r + u^2) = degrees of freedom, or 0 when the
// runs' spread v alone accounts for the residuals e (the sum is at most the degrees of freedom
// at u = 0). The sum decreases in u^2.
double unexplained_variance(const std::vector<double>& e, const std::vector<double>& v, double degrees_of_freedom) {
  return zero_from_above([&](double u2) {
    double sum = 0.0;
    for (std::size_t r = 0; r < e.size(); ++r) {
      const double variance = v[r] + u2;
      if (variance > 0.0) {
        sum += e[r] * e[r] / variance;
      } else if (e[r] != 0.0) {
        return std::numeric_limits<double>::infinity();
      }
    }
    return sum - degrees_of_freedom;
  });
}

// R^2 on the times themselves.
double r_squared(const models::Runs& runs, const std::vector<double>& fitted) {
  double mean = 0.0;
  for (const models::Run& run : runs.runs) mean += run.time;
  mean /= static_cast<double>(runs.runs.size());
  double residual = 0.0, total = 0.0;
  for (std::size_t r = 0; r < runs.runs.size(); ++r) {
    residual += (fitted[r] - runs.runs[r].time) * (fitted[r] - runs.runs[r].time);
    total += (runs.runs[r].time - mean) * (runs.runs[r].time - mean);
  }
  return total > 0.0 ? 1.0 - residual / total : 1.0;
}

// The repetition spread and the settings it comes from, when there are repetitions and degrees of
// freedom; `spreads` are the runs' own log spreads.
void add_repetitions(const models::Runs& runs, const std::vector<double>& spreads, std::size_t k,
                     CalibrationResult& result) {
  const std::size_t n = runs.runs.size();
  // Repetitions: the runs grouped by setting (p and column values), in order of appearance.
  std::vector<double> squares, degrees, group_spreads;
  std::vector<bool> grouped(n, false);
  for (std::size_t r = 0; r < n && n > k; ++r) {
    if (grouped[r]) continue;
    std::vector<double> logs_of_group;
    for (std::size_t q = r; q < n; ++q) {
      if (runs.runs[q].p == runs.runs[r].p && runs.runs[q].values == runs.runs[r].values) {
        grouped[q] = true;
        logs_of_group.push_back(std::log(runs.runs[q].time));
      }
    }
    if (logs_of_group.size() < 2) continue;
    double mean_log = 0.0;
    for (const double y : logs_of_group) mean_log += y;
    mean_log /= static_cast<double>(logs_of_group.size());
    double sum = 0.0;
    for (const double y : logs_of_group) sum += (y - mean_log) * (y - mean_log);
    squares.push_back(sum);
    degrees.push_back(static_cast<double>(logs_of_group.size() - 1));
    group_spreads.push_back(spreads[r]);
  }
  if (!squares.empty()) {
    result.repeated_settings = squares.size();
    result.repetition_spread = std::sqrt(repetition_variance(squares, degrees, group_spreads));
  }
}

}  // namespace analysis::detail
