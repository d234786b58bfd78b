#include "distributions/normal_tail.hpp"
#include "distributions/boost_math_errors.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <boost/math/special_functions/erf.hpp>

namespace distributions::detail {

namespace {

// Mills ratio Q(z)/phi(z) by its continued fraction (good for z >= 5).
double mills_ratio(double z) {
  double fraction = z;
  for (int k = 60; k >= 1; --k) fraction = z + k / fraction;
  return 1.0 / fraction;
}

}  // namespace

double log_phi(double z) { return -0.5 * z * z - 0.5 * std::log(2.0 * std::numbers::pi); }
double log_upper_tail(double z) {
  if (z < 5.0) return std::log(0.5 * boost::math::erfc(z / std::numbers::sqrt2, kTypedErrors));
  return log_phi(z) + std::log(mills_ratio(z));
}

FarTail far_tail(double alpha) {
  double t = 0.0;
  for (int k = 80; k >= 3; --k) t = k / (alpha + t);
  const double c2 = 2.0 / (alpha + t);
  const double delta = 1.0 / (alpha + c2);
  return {delta, delta * (c2 - delta)};
}

NormalParts normal_parts(const TruncatedNormal& d) {
  const double alpha = -d.mu / d.sigma;
  return {alpha, log_upper_tail(alpha)};
}
double truncated_normal_survival(const TruncatedNormal& d, double x) {
  if (x <= 0.0) return 1.0;
  const auto parts = normal_parts(d);
  const double z = (x - d.mu) / d.sigma;
  return std::min(1.0, std::exp(log_upper_tail(z) - parts.log_q_alpha));
}

}  // namespace distributions::detail
