// Tail transports of the closed forms, E[(X - t)+] and E[(t - X)+]: what cutting a
// distribution's tails off a grid [t_low, t_high] costs the bracket (docs/distributions.md).
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <boost/math/special_functions/gamma.hpp>

#include "distributions/internal.hpp"
#include "distributions/boost_math_errors.hpp"
#include "distributions/matrix.hpp"
#include "distributions/normal_tail.hpp"
#include "distributions/phase_type.hpp"
#include "distributions/skewed_laws.hpp"

namespace distributions::detail {

namespace {

double erlang_upper_transport(double k, double rate, double t) {
  if (t <= 0.0) return k / rate - t;
  const double a = k / rate * boost::math::gamma_q(k + 1.0, rate * t, kTypedErrors);
  const double b = t * boost::math::gamma_q(k, rate * t, kTypedErrors);
  return std::max(0.0, a - b) + 1e-13 * (a + b);  // margin for the subtraction's rounding
}
double erlang_lower_transport(double k, double rate, double t) {
  if (t <= 0.0) return 0.0;
  const double a = t * boost::math::gamma_p(k, rate * t, kTypedErrors);
  const double b = k / rate * boost::math::gamma_p(k + 1.0, rate * t, kTypedErrors);
  return std::max(0.0, a - b) + 1e-13 * (a + b);
}

// Chernoff bound of E[(X - t)+] for a sum of exponential stages:
// E[(X-t)+] = int_t^inf P(X > s) ds <= M(theta) e^{-theta t} / theta, theta < min rate.
double stages_upper_transport_bound(const std::vector<double>& rates, double t) {
  const double min_rate = *std::min_element(rates.begin(), rates.end());
  double best = kInf;
  for (int i = 1; i < 200; ++i) {
    const double theta = min_rate * i / 200.0;
    double log_m = 0.0;
    for (double r : rates) log_m += std::log(r / (r - theta));
    best = std::min(best, std::exp(log_m - theta * t) / theta);
  }
  return best;
}

// (-T)^{-1} 1 of a phase type with subgenerator T: the mean time to absorption from each phase.
std::vector<double> times_to_absorption(const PhaseType& ph) {
  const std::size_t n = ph.size;
  Matrix minus_t(n);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) minus_t(i, j) = -ph.subgenerator[i * n + j];
  }
  return solve(minus_t, std::vector<double>(n, 1.0));
}

// `node` holds `d`.
double hypoexponential_upper_transport(const Hypoexponential& d, const Node& node, double t) {
  if (t <= 0.0) return closed_mean(node) - t;
  if (d.max_of_exponentials_rate > 0.0) {
    // 1 - (1 - e^{-rx})^p <= p e^{-rx}.
    const double p = static_cast<double>(d.rates.size());
    return p * std::exp(-d.max_of_exponentials_rate * t) / d.max_of_exponentials_rate;
  }
  if (all_rates_equal(d.rates)) {
    return erlang_upper_transport(static_cast<double>(d.rates.size()), d.rates.front(), t);
  }
  if (d.rates.size() <= 64) {
    // E[(X - t)+] = alpha e^{Tt} (-T)^{-1} 1.
    const PhaseType ph = hypoexponential_as_phase_type(d);
    const std::size_t n = ph.size;
    const std::vector<double> m1 = times_to_absorption(ph);
    const Matrix e = phase_type_exponential(ph, t);
    double total = 0.0;
    for (std::size_t j = 0; j < n; ++j) total += e(0, j) * m1[j];
    return total * (1.0 + 1e-12);
  }
  return stages_upper_transport_bound(d.rates, t);
}

double phase_type_upper_transport(const PhaseType& d, double t) {
  if (t <= 0.0) return phase_type_moments(d).first - t;
  const std::size_t n = d.size;
  const std::vector<double> m1 = times_to_absorption(d);
  const Matrix e = phase_type_exponential(d, t);
  double total = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) total += d.alpha[i] * e(i, j) * m1[j];
  }
  return total * (1.0 + 1e-12);
}

}  // namespace

double closed_upper_tail_transport(const Node& node, double t) {
  return std::visit(
      Overloaded{
          [t](const Deterministic& d) { return std::max(0.0, d.value - t); },
          [t](const Exponential& d) { return t <= 0.0 ? 1.0 / d.rate - t : std::exp(-d.rate * t) / d.rate; },
          [t](const Erlang& d) { return erlang_upper_transport(static_cast<double>(d.phases), d.rate, t); },
          [t, &node](const Hypoexponential& d) { return hypoexponential_upper_transport(d, node, t); },
          [t](const Hyperexponential& d) {
            double total = 0.0;
            for (std::size_t i = 0; i < d.rates.size(); ++i) {
              total += d.probabilities[i] * (t <= 0.0 ? 1.0 / d.rates[i] - t : std::exp(-d.rates[i] * t) / d.rates[i]);
            }
            return total;
          },
          [t](const Uniform& d) {
            if (t >= d.high) return 0.0;
            if (t <= d.low) return 0.5 * (d.low + d.high) - t;
            return (d.high - t) * (d.high - t) / (2.0 * (d.high - d.low));
          },
          [t](const TruncatedNormal& d) {
            if (t <= 0.0) return closed_mean(Node{d}) - t;
            const auto parts = normal_parts(d);
            const double z = (t - d.mu) / d.sigma;
            const double a = std::exp(log_phi(z) - parts.log_q_alpha);
            const double b = z * std::exp(log_upper_tail(z) - parts.log_q_alpha);
            return d.sigma * (std::max(0.0, a - b) + 1e-12 * (std::abs(a) + std::abs(b)));
          },
          [t]<SkewedLaw Law>(const Law& d) { return law_upper_transport(d, t); },
          [t](const PhaseType& d) { return phase_type_upper_transport(d, t); },
          [t](const Mixture& d) {
            double total = 0.0;
            for (std::size_t i = 0; i < d.weights.size(); ++i) {
              total += d.weights[i] * closed_upper_tail_transport(d.components[i].node(), t);
            }
            return total;
          },
          [t](const Shifted& d) { return closed_upper_tail_transport(d.base.node(), t - d.offset); },
          [](const Numerical&) -> double { throw std::logic_error("transport of a grid"); },
      },
      node.value);
}

double closed_lower_tail_transport(const Node& node, double t) {
  const double low_end = closed_support_min(node);
  if (t <= low_end) return 0.0;
  if (const auto* d = std::get_if<Erlang>(&node.value)) {
    return erlang_lower_transport(static_cast<double>(d->phases), d->rate, t);
  }
  if (const auto* d = std::get_if<Shifted>(&node.value)) {
    return closed_lower_tail_transport(d->base.node(), t - d->offset);
  }
  if (const auto* d = std::get_if<Mixture>(&node.value)) {
    double total = 0.0;
    for (std::size_t i = 0; i < d->weights.size(); ++i) {
      total += d->weights[i] * closed_lower_tail_transport(d->components[i].node(), t);
    }
    return total;
  }
  // E[(t - X)+] = int_{low}^{t} F(x) dx <= (t - low) F(t): F is non-decreasing.
  return (t - low_end) * closed_cdf(node, t) * (1.0 + 1e-12);
}

}  // namespace distributions::detail
