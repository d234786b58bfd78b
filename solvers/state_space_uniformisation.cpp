#include "solvers/state_space_uniformisation.hpp"

#include <algorithm>
#include <cmath>

namespace solvers::state_space_detail {

// Doubles per state of the uniformisation pass: jumps up to Lambda * t_max with a Poisson
// margin, where t_max = mean + 12 standard deviations.
std::size_t jumps_for(double uniform_rate, double t_max) {
  const double expected = uniform_rate * t_max;
  return static_cast<std::size_t>(std::ceil(expected + 10.0 * std::sqrt(expected) + 32.0));
}

// CDF of the absorption time from the uniformised jump counts: P(T <= t) =
// sum_n v(n) P(Poisson(Lambda t) >= n); masses of the grid cells placed at their midpoints.
distributions::Distribution distribution_from_jumps(const std::vector<double>& v, double rate, double top, int points,
                                                    double* beyond) {
  const auto n = v.size();
  std::vector<double> log_factorial(n + 1, 0.0);
  for (std::size_t k = 1; k <= n; ++k) log_factorial[k] = log_factorial[k - 1] + std::log(static_cast<double>(k));
  auto cdf = [&](double t) {
    if (t <= 0.0) return 0.0;
    const double lambda = rate * t;
    // P(Poisson >= k) for k = 0.. by the running sum of the pmf from below.
    double below = 0.0, total = 0.0;
    for (std::size_t k = 0; k < n; ++k) {
      total += v[k] * std::max(0.0, 1.0 - below);
      below += std::exp(-lambda + static_cast<double>(k) * std::log(lambda) - log_factorial[k]);
    }
    return total;
  };
  std::vector<double> values, weights;
  double previous = 0.0;
  const double step = top / points;
  for (int g = 1; g <= points; ++g) {
    const double f = cdf(step * g);
    values.push_back(step * (g - 0.5));
    weights.push_back(std::max(0.0, f - previous));
    previous = std::max(previous, f);
  }
  *beyond = std::max(0.0, 1.0 - previous);
  if (*beyond > 0.0) {
    values.push_back(top);
    weights.push_back(*beyond);
  }
  return distributions::from_histogram(values, weights);
}

}  // namespace solvers::state_space_detail
