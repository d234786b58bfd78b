// Quantiles of Monte Carlo samples: order statistics with distribution-free confidence
// intervals from the binomial law of how many samples fall below the true quantile.
#include <boost/math/distributions/binomial.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

#include "solvers/monte_carlo.hpp"

namespace solvers {

namespace {

// The smallest k in [0, n] with P(B <= k) >= target, B ~ Binomial(n, q); n + 1 when none (the
// cdf reaches 1 at n, so only a target above 1 gives none).
std::int64_t smallest_rank_with_cdf_at_least(std::int64_t n, double q, double target) {
  const boost::math::binomial_distribution<double> binomial(static_cast<double>(n), q);
  std::int64_t low = -1;  // cdf(low) < target (cdf(-1) = 0)
  std::int64_t high = n;  // cdf(n) = 1 >= target
  if (target > 1.0) return n + 1;
  while (high - low > 1) {
    const std::int64_t mid = low + (high - low) / 2;
    if (boost::math::cdf(binomial, static_cast<double>(mid)) >= target)
      high = mid;
    else
      low = mid;
  }
  return high;
}

// The largest k in [0, n] with P(B <= k) <= target; -1 when even P(B <= 0) is above it.
std::int64_t largest_rank_with_cdf_at_most(std::int64_t n, double q, double target) {
  const boost::math::binomial_distribution<double> binomial(static_cast<double>(n), q);
  std::int64_t low = -1;      // cdf(low) <= target
  std::int64_t high = n + 1;  // cdf(high) > target (cdf(n) = 1)
  while (high - low > 1) {
    const std::int64_t mid = low + (high - low) / 2;
    if (mid <= n && boost::math::cdf(binomial, static_cast<double>(mid)) <= target)
      low = mid;
    else
      high = mid;
  }
  return low;
}

}  // namespace

std::vector<Quantile> order_statistic_quantiles(std::span<const double> sorted, const std::vector<double>& levels) {
  std::vector<Quantile> out;
  if (sorted.empty()) return out;
  const auto n = static_cast<std::int64_t>(sorted.size());
  // x_(i), 1-based as in the statistics texts.
  auto order = [&](std::int64_t i) { return sorted[static_cast<std::size_t>(i - 1)]; };
  for (double level : levels) {
    Quantile q;
    q.level = level;
    q.samples = n;
    // ceil(n q), where n q a hair above an integer by rounding (0.07 * 100) counts as that integer.
    const double at = level * static_cast<double>(n);
    const auto rank = static_cast<std::int64_t>(std::ceil(at - 1e-9 * at));
    q.estimate = order(std::clamp<std::int64_t>(rank, 1, n));
    // Each tail of the binomial gets 2.5%: the interval covers with probability >= 95%.
    const std::int64_t r = largest_rank_with_cdf_at_most(n, level, 0.025) + 1;
    const std::int64_t s = smallest_rank_with_cdf_at_least(n, level, 0.975) + 1;
    q.lower = r >= 1 ? order(r) : 0.0;
    q.upper = s <= n ? order(s) : std::numeric_limits<double>::infinity();
    out.push_back(q);
  }
  return out;
}

}  // namespace solvers
