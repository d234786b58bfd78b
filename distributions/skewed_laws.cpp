#include "distributions/skewed_laws.hpp"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include <boost/math/distributions/lognormal.hpp>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/pareto.hpp>
#include <boost/math/distributions/weibull.hpp>
#include <boost/math/special_functions/gamma.hpp>

#include "distributions/boost_math_errors.hpp"
#include "distributions/internal.hpp"

namespace distributions::detail {

namespace {

using Policy = std::remove_cv_t<decltype(kTypedErrors)>;

boost::math::lognormal_distribution<double, Policy> boost_law(const LogNormal& d) { return {d.mu, d.sigma}; }
boost::math::weibull_distribution<double, Policy> boost_law(const Weibull& d) { return {d.shape, d.scale}; }
boost::math::pareto_distribution<double, Policy> boost_law(const Pareto& d) { return {d.scale, d.alpha}; }

// Φ(z), the standard normal cdf.
double normal_cdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

template <class Law>
double quantile_of(const Law& d, double q) {
  const auto law = boost_law(d);
  return q > 0.5 ? boost::math::quantile(boost::math::complement(law, 1.0 - q)) : boost::math::quantile(law, q);
}

}  // namespace

double law_mean(const LogNormal& d) { return std::exp(d.mu + 0.5 * d.sigma * d.sigma); }
double law_mean(const Weibull& d) { return d.scale * boost::math::tgamma(1.0 + 1.0 / d.shape, kTypedErrors); }
double law_mean(const Pareto& d) { return d.alpha * d.scale / (d.alpha - 1.0); }

double law_variance(const LogNormal& d) {
  const double s2 = d.sigma * d.sigma;
  return std::expm1(s2) * std::exp(2.0 * d.mu + s2);
}
double law_variance(const Weibull& d) {
  const double g1 = boost::math::tgamma(1.0 + 1.0 / d.shape, kTypedErrors);
  const double g2 = boost::math::tgamma(1.0 + 2.0 / d.shape, kTypedErrors);
  return d.scale * d.scale * std::max(0.0, g2 - g1 * g1);
}
double law_variance(const Pareto& d) {
  return d.scale * d.scale * d.alpha / ((d.alpha - 1.0) * (d.alpha - 1.0) * (d.alpha - 2.0));
}

double law_survival(const LogNormal& d, double x) {
  if (x <= 0.0) return 1.0;
  return boost::math::cdf(boost::math::complement(boost_law(d), x));
}
double law_survival(const Weibull& d, double x) {
  if (x <= 0.0) return 1.0;
  return std::exp(-std::pow(x / d.scale, d.shape));
}
double law_survival(const Pareto& d, double x) {
  if (x <= d.scale) return 1.0;
  return std::pow(d.scale / x, d.alpha);
}

double law_quantile(const LogNormal& d, double q) { return quantile_of(d, q); }
double law_quantile(const Weibull& d, double q) { return quantile_of(d, q); }
double law_quantile(const Pareto& d, double q) { return quantile_of(d, q); }

// E[(X - t)+] = E[X] Φ(d1) - t Φ(d2), d1 = (μ + σ² - ln t) / σ, d2 = d1 - σ (the call price of
// Black and Scholes).
double law_upper_transport(const LogNormal& d, double t) {
  if (t <= 0.0) return law_mean(d) - t;
  const double d1 = (d.mu + d.sigma * d.sigma - std::log(t)) / d.sigma;
  return std::max(0.0, law_mean(d) * normal_cdf(d1) - t * normal_cdf(d1 - d.sigma));
}
// ∫_t^∞ exp(-(x/λ)^k) dx = λ Γ(1 + 1/k) Q(1/k, (t/λ)^k).
double law_upper_transport(const Weibull& d, double t) {
  if (t <= 0.0) return law_mean(d) - t;
  return law_mean(d) * boost::math::gamma_q(1.0 / d.shape, std::pow(t / d.scale, d.shape), kTypedErrors);
}
// ∫_t^∞ (x_m / x)^α dx = t S(t) / (α - 1) above x_m.
double law_upper_transport(const Pareto& d, double t) {
  if (t <= d.scale) return law_mean(d) - t;
  return t * law_survival(d, t) / (d.alpha - 1.0);
}

std::string law_describe(const LogNormal& d) {
  return "LogNormal(mu=" + format_number(d.mu) + ", sigma=" + format_number(d.sigma) + ")";
}
std::string law_describe(const Weibull& d) {
  return "Weibull(shape=" + format_number(d.shape) + ", scale=" + format_number(d.scale) + ")";
}
std::string law_describe(const Pareto& d) {
  return "Pareto(alpha=" + format_number(d.alpha) + ", scale=" + format_number(d.scale) + ")";
}

}  // namespace distributions::detail
