// Exact moments, cdf, quantile and tail transports of the closed forms.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <numeric>
#include <sstream>

#include <boost/math/special_functions/erf.hpp>
#include <boost/math/special_functions/gamma.hpp>
#include <boost/math/tools/roots.hpp>

#include "distributions/internal.hpp"
#include "distributions/matrix.hpp"

namespace distributions::detail {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// ---- standard normal tail, stable far into the tail --------------------------------------
// Mills ratio Q(z)/phi(z) by its continued fraction (good for z >= 5).
double mills_ratio(double z) {
  double fraction = z;
  for (int k = 60; k >= 1; --k) fraction = z + k / fraction;
  return 1.0 / fraction;
}
double log_phi(double z) { return -0.5 * z * z - 0.5 * std::log(2.0 * std::numbers::pi); }
// log Q(z), Q the standard normal upper tail.
double log_upper_tail(double z) {
  if (z < 5.0) return std::log(0.5 * boost::math::erfc(z / std::numbers::sqrt2));
  return log_phi(z) + std::log(mills_ratio(z));
}

// For a truncation point alpha >= 5 standard deviations above the mean, the inverse Mills
// ratio lambda = alpha + delta with delta and the variance factor 1 + alpha lambda - lambda^2
// = delta (c2 - delta) taken from the continued fraction without cancellation.
struct FarTail {
  double delta;
  double variance_factor;
};
FarTail far_tail(double alpha) {
  double t = 0.0;
  for (int k = 80; k >= 3; --k) t = k / (alpha + t);
  const double c2 = 2.0 / (alpha + t);
  const double delta = 1.0 / (alpha + c2);
  return {delta, delta * (c2 - delta)};
}

struct NormalParts {
  double alpha;            // standardised truncation point -mu/sigma
  double log_q_alpha;      // log P(Z >= alpha)
};
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

// ---- phase-type survival via a non-negative matrix exponential -----------------------------
// exp(T y) = e^{-L y} exp(L y P) with P = I + T/L >= 0 (uniformisation). With L y <= 1/2 the
// Taylor series of exp(L y P) has non-negative terms (no cancellation); squaring non-negative
// matrices is also cancellation-free, so exp(T x) is accurate entrywise even when tiny.
Matrix phase_type_exponential(const PhaseType& d, double x) {
  const std::size_t n = d.size;
  double uniformisation_rate = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    uniformisation_rate = std::max(uniformisation_rate, -d.subgenerator[i * n + i]);
  }
  int squarings = 0;
  double y = x;
  while (uniformisation_rate * y > 0.5) {
    y *= 0.5;
    ++squarings;
  }
  Matrix p(n);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      p(i, j) = (i == j ? 1.0 : 0.0) + d.subgenerator[i * n + j] / uniformisation_rate;
      if (p(i, j) < 0.0) p(i, j) = 0.0;  // rounding of 1 - |t_ii|/L
    }
  }
  const double ly = uniformisation_rate * y;
  Matrix result = Matrix::identity(n);
  Matrix term = Matrix::identity(n);
  for (int k = 1; k < 40; ++k) {
    term = term * p;
    const double factor = ly / k;
    term.scale(factor);
    result.add(term);
    if (term.max_abs() < 1e-18 * result.max_abs()) break;
  }
  result.scale(std::exp(-ly));
  for (int s = 0; s < squarings; ++s) result = result * result;
  return result;
}

double phase_type_survival(const PhaseType& d, double x) {
  if (x < 0.0) return 1.0;
  const Matrix e = phase_type_exponential(d, x);
  double total = 0.0;
  for (std::size_t i = 0; i < d.size; ++i) {
    double row = 0.0;
    for (std::size_t j = 0; j < d.size; ++j) row += e(i, j);
    total += d.alpha[i] * row;
  }
  return std::clamp(total, 0.0, 1.0);
}

PhaseType hypoexponential_as_phase_type(const Hypoexponential& d) {
  const std::size_t n = d.rates.size();
  PhaseType ph{n, std::vector<double>(n, 0.0), std::vector<double>(n * n, 0.0), 0.0};
  ph.alpha[0] = 1.0;
  for (std::size_t i = 0; i < n; ++i) {
    ph.subgenerator[i * n + i] = -d.rates[i];
    if (i + 1 < n) ph.subgenerator[i * n + i + 1] = d.rates[i];
  }
  return ph;
}

// First two moments of a phase-type: m1 = (-T)^{-1} 1, m2 = (-T)^{-1} m1.
std::pair<double, double> phase_type_moments(const PhaseType& d) {
  const std::size_t n = d.size;
  Matrix minus_t(n);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) minus_t(i, j) = -d.subgenerator[i * n + j];
  }
  const std::vector<double> m1 = solve(minus_t, std::vector<double>(n, 1.0));
  const std::vector<double> m2 = solve(minus_t, m1);
  double first = 0.0;
  double second = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    first += d.alpha[i] * m1[i];
    second += 2.0 * d.alpha[i] * m2[i];
  }
  return {first, second};
}

bool all_rates_equal(const std::vector<double>& rates) {
  return std::all_of(rates.begin(), rates.end(), [&](double r) { return r == rates.front(); });
}

// Survival of a long chain of stages: uniformisation on the bidiagonal chain, O(stages) per
// Poisson term.
double long_hypoexponential_survival(const Hypoexponential& d, double x) {
  if (x <= 0.0) return 1.0;
  const std::size_t n = d.rates.size();
  const double rate = *std::max_element(d.rates.begin(), d.rates.end());
  const double lx = rate * x;
  const auto terms = static_cast<std::size_t>(lx + 12.0 * std::sqrt(lx) + 40.0);
  if (terms > 20'000'000) {
    throw std::invalid_argument("hypoexponential: cdf at x=" + format_number(x) +
                                " needs too many uniformisation terms");
  }
  // v_j = P^j 1, P = I + T/rate; survival = sum_j Poisson(j; lx) * v_j[0].
  std::vector<double> v(n, 1.0);
  std::vector<double> next(n);
  double total = 0.0;
  for (std::size_t j = 0; j <= terms; ++j) {
    const double jd = static_cast<double>(j);
    const double weight = std::exp(-lx + jd * std::log(lx) - std::lgamma(jd + 1.0));
    total += weight * v[0];
    for (std::size_t i = 0; i < n; ++i) {
      const double stay = 1.0 - d.rates[i] / rate;
      next[i] = stay * v[i] + (i + 1 < n ? d.rates[i] / rate * v[i + 1] : 0.0);
    }
    std::swap(v, next);
  }
  return std::clamp(total, 0.0, 1.0);
}

double hypoexponential_survival(const Hypoexponential& d, double x) {
  if (x <= 0.0) return 1.0;
  if (d.max_of_exponentials_rate > 0.0) {
    // 1 - (1 - e^{-r x})^p, computed as -expm1(p log1p(-e^{-r x})).
    const double p = static_cast<double>(d.rates.size());
    return -std::expm1(p * std::log1p(-std::exp(-d.max_of_exponentials_rate * x)));
  }
  if (all_rates_equal(d.rates)) {
    return boost::math::gamma_q(static_cast<double>(d.rates.size()), d.rates.front() * x);
  }
  if (d.rates.size() <= 64) return phase_type_survival(hypoexponential_as_phase_type(d), x);
  return long_hypoexponential_survival(d, x);
}

double erlang_upper_transport(double k, double rate, double t) {
  if (t <= 0.0) return k / rate - t;
  const double a = k / rate * boost::math::gamma_q(k + 1.0, rate * t);
  const double b = t * boost::math::gamma_q(k, rate * t);
  return std::max(0.0, a - b) + 1e-13 * (a + b);  // margin for the subtraction's rounding
}
double erlang_lower_transport(double k, double rate, double t) {
  if (t <= 0.0) return 0.0;
  const double a = t * boost::math::gamma_p(k, rate * t);
  const double b = k / rate * boost::math::gamma_p(k + 1.0, rate * t);
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

}  // namespace

double closed_mean(const Node& node) {
  return std::visit(
      Overloaded{
          [](const Deterministic& d) { return d.value; },
          [](const Exponential& d) { return 1.0 / d.rate; },
          [](const Erlang& d) { return static_cast<double>(d.phases) / d.rate; },
          [](const Hypoexponential& d) {
            double total = 0.0;
            for (double r : d.rates) total += 1.0 / r;
            return total;
          },
          [](const Hyperexponential& d) {
            double total = 0.0;
            for (std::size_t i = 0; i < d.rates.size(); ++i) total += d.probabilities[i] / d.rates[i];
            return total;
          },
          [](const Uniform& d) { return 0.5 * (d.low + d.high); },
          [](const TruncatedNormal& d) {
            const auto parts = normal_parts(d);
            if (parts.alpha >= 5.0) return d.sigma * far_tail(parts.alpha).delta;
            return d.mu + d.sigma * std::exp(log_phi(parts.alpha) - parts.log_q_alpha);
          },
          [](const PhaseType& d) { return phase_type_moments(d).first; },
          [](const Mixture& d) {
            double total = 0.0;
            for (std::size_t i = 0; i < d.weights.size(); ++i) {
              total += d.weights[i] * closed_mean(d.components[i].node());
            }
            return total;
          },
          [](const Shifted& d) { return d.offset + closed_mean(d.base.node()); },
          [](const Numerical&) -> double { throw std::logic_error("closed_mean of a grid"); },
      },
      node.value);
}

double closed_variance(const Node& node) {
  return std::visit(
      Overloaded{
          [](const Deterministic&) { return 0.0; },
          [](const Exponential& d) { return 1.0 / (d.rate * d.rate); },
          [](const Erlang& d) { return static_cast<double>(d.phases) / (d.rate * d.rate); },
          [](const Hypoexponential& d) {
            double total = 0.0;
            for (double r : d.rates) total += 1.0 / (r * r);
            return total;
          },
          [](const Hyperexponential& d) {
            double first = 0.0;
            double second = 0.0;
            for (std::size_t i = 0; i < d.rates.size(); ++i) {
              first += d.probabilities[i] / d.rates[i];
              second += 2.0 * d.probabilities[i] / (d.rates[i] * d.rates[i]);
            }
            return std::max(0.0, second - first * first);
          },
          [](const Uniform& d) { return (d.high - d.low) * (d.high - d.low) / 12.0; },
          [](const TruncatedNormal& d) {
            const auto parts = normal_parts(d);
            if (parts.alpha >= 5.0) return d.sigma * d.sigma * far_tail(parts.alpha).variance_factor;
            const double lambda = std::exp(log_phi(parts.alpha) - parts.log_q_alpha);
            const double factor = 1.0 + parts.alpha * lambda - lambda * lambda;
            return d.sigma * d.sigma * std::max(factor, 0.0);
          },
          [](const PhaseType& d) {
            const auto [first, second] = phase_type_moments(d);
            return std::max(0.0, second - first * first);
          },
          [](const Mixture& d) {
            // Law of total variance.
            double mean_total = 0.0;
            double second_total = 0.0;
            for (std::size_t i = 0; i < d.weights.size(); ++i) {
              const double m = closed_mean(d.components[i].node());
              second_total += d.weights[i] * (closed_variance(d.components[i].node()) + m * m);
              mean_total += d.weights[i] * m;
            }
            return std::max(0.0, second_total - mean_total * mean_total);
          },
          [](const Shifted& d) { return closed_variance(d.base.node()); },
          [](const Numerical&) -> double { throw std::logic_error("closed_variance of a grid"); },
      },
      node.value);
}

double closed_survival(const Node& node, double x) {
  if (std::isnan(x)) throw std::invalid_argument("cdf: x must not be NaN");
  if (x == kInf) return 0.0;
  if (x == -kInf) return 1.0;
  return std::visit(
      Overloaded{
          [x](const Deterministic& d) { return x < d.value ? 1.0 : 0.0; },
          [x](const Exponential& d) { return x <= 0.0 ? 1.0 : std::exp(-d.rate * x); },
          [x](const Erlang& d) {
            return x <= 0.0 ? 1.0
                            : boost::math::gamma_q(static_cast<double>(d.phases), d.rate * x);
          },
          [x](const Hypoexponential& d) { return hypoexponential_survival(d, x); },
          [x](const Hyperexponential& d) {
            if (x <= 0.0) return 1.0;
            double total = 0.0;
            for (std::size_t i = 0; i < d.rates.size(); ++i) {
              total += d.probabilities[i] * std::exp(-d.rates[i] * x);
            }
            return std::min(total, 1.0);
          },
          [x](const Uniform& d) {
            if (x <= d.low) return 1.0;
            if (x >= d.high) return 0.0;
            return (d.high - x) / (d.high - d.low);
          },
          [x](const TruncatedNormal& d) { return truncated_normal_survival(d, x); },
          [x](const PhaseType& d) {
            if (x < 0.0) return 1.0;
            return phase_type_survival(d, x);
          },
          [x](const Mixture& d) {
            double total = 0.0;
            for (std::size_t i = 0; i < d.weights.size(); ++i) {
              total += d.weights[i] * closed_survival(d.components[i].node(), x);
            }
            return std::clamp(total, 0.0, 1.0);
          },
          [x](const Shifted& d) { return closed_survival(d.base.node(), x - d.offset); },
          [](const Numerical&) -> double { throw std::logic_error("closed_survival of a grid"); },
      },
      node.value);
}

double closed_cdf(const Node& node, double x) {
  if (std::isnan(x)) throw std::invalid_argument("cdf: x must not be NaN");
  if (x == kInf) return 1.0;
  if (x == -kInf) return 0.0;
  // Where the cdf is tiny, 1 - survival loses everything; use the direct form there.
  return std::visit(
      Overloaded{
          [x](const Erlang& d) {
            return x <= 0.0 ? 0.0 : boost::math::gamma_p(static_cast<double>(d.phases), d.rate * x);
          },
          [x](const Exponential& d) { return x <= 0.0 ? 0.0 : -std::expm1(-d.rate * x); },
          [x, &node](const Hypoexponential& d) {
            if (x <= 0.0) return 0.0;
            if (d.max_of_exponentials_rate > 0.0) {
              const double p = static_cast<double>(d.rates.size());
              return std::exp(p * std::log(-std::expm1(-d.max_of_exponentials_rate * x)));
            }
            if (all_rates_equal(d.rates)) {
              return boost::math::gamma_p(static_cast<double>(d.rates.size()), d.rates.front() * x);
            }
            return 1.0 - closed_survival(node, x);
          },
          [x](const Mixture& d) {
            double total = 0.0;
            for (std::size_t i = 0; i < d.weights.size(); ++i) {
              total += d.weights[i] * closed_cdf(d.components[i].node(), x);
            }
            return std::clamp(total, 0.0, 1.0);
          },
          [x](const Shifted& d) { return closed_cdf(d.base.node(), x - d.offset); },
          [x, &node](const auto&) { return 1.0 - closed_survival(node, x); },
      },
      node.value);
}

double closed_support_min(const Node& node) {
  return std::visit(Overloaded{
                        [](const Deterministic& d) { return d.value; },
                        [](const Uniform& d) { return d.low; },
                        [](const Mixture& d) {
                          double lowest = kInf;
                          for (const auto& c : d.components) {
                            lowest = std::min(lowest, closed_support_min(c.node()));
                          }
                          return lowest;
                        },
                        [](const Shifted& d) { return d.offset + closed_support_min(d.base.node()); },
                        [](const auto&) { return 0.0; },
                    },
                    node.value);
}

double closed_support_max(const Node& node) {
  return std::visit(Overloaded{
                        [](const Deterministic& d) { return d.value; },
                        [](const Uniform& d) { return d.high; },
                        [](const Mixture& d) {
                          double highest = -kInf;
                          for (const auto& c : d.components) {
                            highest = std::max(highest, closed_support_max(c.node()));
                          }
                          return highest;
                        },
                        [](const Shifted& d) { return d.offset + closed_support_max(d.base.node()); },
                        [](const auto&) { return kInf; },
                    },
                    node.value);
}

double closed_quantile(const Node& node, double q) {
  if (!(q >= 0.0 && q <= 1.0)) fail("quantile", "q must lie in [0, 1]", q);
  const double low_end = closed_support_min(node);
  const double high_end = closed_support_max(node);
  if (q == 0.0) return low_end;
  if (q == 1.0) return high_end;
  // Direct inverses where they exist.
  if (const auto* d = std::get_if<Deterministic>(&node.value)) return d->value;
  if (const auto* d = std::get_if<Exponential>(&node.value)) return -std::log1p(-q) / d->rate;
  if (const auto* d = std::get_if<Erlang>(&node.value)) {
    const auto k = static_cast<double>(d->phases);
    return (q <= 0.5 ? boost::math::gamma_p_inv(k, q) : boost::math::gamma_q_inv(k, 1.0 - q)) / d->rate;
  }
  if (const auto* d = std::get_if<Uniform>(&node.value)) return d->low + q * (d->high - d->low);
  if (const auto* d = std::get_if<Shifted>(&node.value)) return d->offset + closed_quantile(d->base.node(), q);
  if (const auto* d = std::get_if<Hypoexponential>(&node.value)) {
    if (d->max_of_exponentials_rate > 0.0) {
      const double p = static_cast<double>(d->rates.size());
      return -std::log(-std::expm1(std::log(q) / p)) / d->max_of_exponentials_rate;
    }
    if (all_rates_equal(d->rates)) {
      const auto k = static_cast<double>(d->rates.size());
      return (q <= 0.5 ? boost::math::gamma_p_inv(k, q) : boost::math::gamma_q_inv(k, 1.0 - q)) /
             d->rates.front();
    }
  }
  // Otherwise: bracket and solve F(x) = q (on the survival side for upper quantiles, where
  // 1 - q is more accurate than q).
  const bool upper_side = q > 0.5;
  auto residual = [&](double x) {
    return upper_side ? (1.0 - q) - closed_survival(node, x) : closed_cdf(node, x) - q;
  };
  double low = low_end;
  double high = std::isfinite(high_end) ? high_end : 0.0;
  if (!std::isfinite(high_end)) {
    const double m = closed_mean(node);
    const double s = std::sqrt(closed_variance(node));
    high = std::max(m + s, low_end + 1e-300);
    while (residual(high) < 0.0) {
      low = high;
      high = high * 2.0 + s;
      if (!std::isfinite(high)) return kInf;
    }
  }
  if (residual(low) >= 0.0) return low;
  if (residual(high) <= 0.0) return high;
  boost::uintmax_t iterations = 200;
  const auto root = boost::math::tools::toms748_solve(
      residual, low, high, boost::math::tools::eps_tolerance<double>(50), iterations);
  return 0.5 * (root.first + root.second);
}

double closed_upper_tail_transport(const Node& node, double t) {
  return std::visit(
      Overloaded{
          [t](const Deterministic& d) { return std::max(0.0, d.value - t); },
          [t](const Exponential& d) {
            return t <= 0.0 ? 1.0 / d.rate - t : std::exp(-d.rate * t) / d.rate;
          },
          [t](const Erlang& d) {
            return erlang_upper_transport(static_cast<double>(d.phases), d.rate, t);
          },
          [t, &node](const Hypoexponential& d) {
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
              Matrix minus_t(n);
              for (std::size_t i = 0; i < n; ++i) {
                for (std::size_t j = 0; j < n; ++j) minus_t(i, j) = -ph.subgenerator[i * n + j];
              }
              const std::vector<double> m1 = solve(minus_t, std::vector<double>(n, 1.0));
              const Matrix e = phase_type_exponential(ph, t);
              double total = 0.0;
              for (std::size_t j = 0; j < n; ++j) total += e(0, j) * m1[j];
              return total * (1.0 + 1e-12);
            }
            return stages_upper_transport_bound(d.rates, t);
          },
          [t](const Hyperexponential& d) {
            double total = 0.0;
            for (std::size_t i = 0; i < d.rates.size(); ++i) {
              total += d.probabilities[i] *
                       (t <= 0.0 ? 1.0 / d.rates[i] - t : std::exp(-d.rates[i] * t) / d.rates[i]);
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
          [t](const PhaseType& d) {
            if (t <= 0.0) return phase_type_moments(d).first - t;
            const std::size_t n = d.size;
            Matrix minus_t(n);
            for (std::size_t i = 0; i < n; ++i) {
              for (std::size_t j = 0; j < n; ++j) minus_t(i, j) = -d.subgenerator[i * n + j];
            }
            const std::vector<double> m1 = solve(minus_t, std::vector<double>(n, 1.0));
            const Matrix e = phase_type_exponential(d, t);
            double total = 0.0;
            for (std::size_t i = 0; i < n; ++i) {
              for (std::size_t j = 0; j < n; ++j) total += d.alpha[i] * e(i, j) * m1[j];
            }
            return total * (1.0 + 1e-12);
          },
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

void closed_atoms(const Node& node, double weight, double offset, std::vector<Atom>* atoms) {
  if (const auto* d = std::get_if<Deterministic>(&node.value)) {
    atoms->push_back({d->value + offset, weight});
  } else if (const auto* m = std::get_if<Mixture>(&node.value)) {
    for (std::size_t i = 0; i < m->weights.size(); ++i) {
      closed_atoms(m->components[i].node(), weight * m->weights[i], offset, atoms);
    }
  } else if (const auto* s = std::get_if<Shifted>(&node.value)) {
    closed_atoms(s->base.node(), weight, offset + s->offset, atoms);
  } else if (const auto* p = std::get_if<PhaseType>(&node.value)) {
    if (p->atom_at_zero > 0.0) atoms->push_back({offset, weight * p->atom_at_zero});
  }
}

bool stage_rates(const Node& node, std::vector<double>* rates) {
  if (const auto* d = std::get_if<Exponential>(&node.value)) {
    rates->assign(1, d->rate);
    return true;
  }
  if (const auto* d = std::get_if<Erlang>(&node.value)) {
    if (d->phases > 64) return false;
    rates->assign(static_cast<std::size_t>(d->phases), d->rate);
    return true;
  }
  if (const auto* d = std::get_if<Hypoexponential>(&node.value)) {
    *rates = d->rates;
    return true;
  }
  return false;
}

namespace {
std::string list(const std::vector<double>& values) {
  std::string out = "[";
  const std::size_t shown = std::min<std::size_t>(values.size(), 6);
  for (std::size_t i = 0; i < shown; ++i) {
    if (i > 0) out += ", ";
    out += format_number(values[i]);
  }
  if (values.size() > shown) out += ", ... (" + std::to_string(values.size()) + " in all)";
  return out + "]";
}
}  // namespace

std::string closed_describe(const Node& node) {
  return std::visit(
      Overloaded{
          [](const Deterministic& d) { return "Deterministic(" + format_number(d.value) + ")"; },
          [](const Exponential& d) { return "Exponential(rate=" + format_number(d.rate) + ")"; },
          [](const Erlang& d) {
            return "Erlang(k=" + std::to_string(d.phases) + ", rate=" + format_number(d.rate) + ")";
          },
          [](const Hypoexponential& d) {
            if (d.max_of_exponentials_rate > 0.0) {
              return "MaxOfExponentials(p=" + std::to_string(d.rates.size()) +
                     ", rate=" + format_number(d.max_of_exponentials_rate) + ")";
            }
            return "Hypoexponential(rates=" + list(d.rates) + ")";
          },
          [](const Hyperexponential& d) {
            return "Hyperexponential(probabilities=" + list(d.probabilities) +
                   ", rates=" + list(d.rates) + ")";
          },
          [](const Uniform& d) {
            return "Uniform(" + format_number(d.low) + ", " + format_number(d.high) + ")";
          },
          [](const TruncatedNormal& d) {
            return "TruncatedNormal(mu=" + format_number(d.mu) + ", sigma=" + format_number(d.sigma) + ")";
          },
          [](const PhaseType& d) { return "PhaseType(" + std::to_string(d.size) + " phases)"; },
          [](const Mixture& d) {
            std::string out = "Mixture(";
            for (std::size_t i = 0; i < d.weights.size(); ++i) {
              if (i > 0) out += ", ";
              out += format_number(d.weights[i]) + ": " + describe(d.components[i]);
            }
            return out + ")";
          },
          [](const Shifted& d) {
            return describe(d.base) + " + " + format_number(d.offset);
          },
          [](const Numerical& d) {
            return "numerical(" + std::to_string(d.lower.size()) + " points, step " +
                   format_number(d.step) + ")";
          },
      },
      node.value);
}

}  // namespace distributions::detail
