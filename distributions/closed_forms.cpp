// Exact moments, cdf, quantile, atoms and descriptions of the closed forms (their tail
// transports are in tail_transports.cpp).
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <boost/math/special_functions/gamma.hpp>
#include <boost/math/tools/roots.hpp>

#include "distributions/internal.hpp"
#include "distributions/boost_math_errors.hpp"
#include "distributions/errors.hpp"
#include "distributions/normal_tail.hpp"
#include "distributions/phase_type.hpp"
#include "distributions/skewed_laws.hpp"

namespace distributions::detail {

double closed_mean(const Node& node) {
  return std::visit(Overloaded{
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
                        []<SkewedLaw Law>(const Law& d) { return law_mean(d); },
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
  return std::visit(Overloaded{
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
                        []<SkewedLaw Law>(const Law& d) { return law_variance(d); },
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
  if (std::isnan(x)) throw InvalidDistribution("cdf: x must not be NaN");
  if (x == kInf) return 0.0;
  if (x == -kInf) return 1.0;
  return std::visit(
      Overloaded{
          [x](const Deterministic& d) { return x < d.value ? 1.0 : 0.0; },
          [x](const Exponential& d) { return x <= 0.0 ? 1.0 : std::exp(-d.rate * x); },
          [x](const Erlang& d) {
            return x <= 0.0 ? 1.0 : boost::math::gamma_q(static_cast<double>(d.phases), d.rate * x, kTypedErrors);
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
          [x]<SkewedLaw Law>(const Law& d) { return law_survival(d, x); },
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
  if (std::isnan(x)) throw InvalidDistribution("cdf: x must not be NaN");
  if (x == kInf) return 1.0;
  if (x == -kInf) return 0.0;
  // Where the cdf is tiny, 1 - survival loses everything; use the direct form there.
  return std::visit(
      Overloaded{
          [x](const Erlang& d) {
            return x <= 0.0 ? 0.0 : boost::math::gamma_p(static_cast<double>(d.phases), d.rate * x, kTypedErrors);
          },
          [x](const Exponential& d) { return x <= 0.0 ? 0.0 : -std::expm1(-d.rate * x); },
          [x, &node](const Hypoexponential& d) {
            if (x <= 0.0) return 0.0;
            if (d.max_of_exponentials_rate > 0.0) {
              const double p = static_cast<double>(d.rates.size());
              return std::exp(p * std::log(-std::expm1(-d.max_of_exponentials_rate * x)));
            }
            if (all_rates_equal(d.rates)) {
              return boost::math::gamma_p(static_cast<double>(d.rates.size()), d.rates.front() * x, kTypedErrors);
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
                        [](const Pareto& d) { return d.scale; },
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
    return (q <= 0.5 ? boost::math::gamma_p_inv(k, q, kTypedErrors)
                     : boost::math::gamma_q_inv(k, 1.0 - q, kTypedErrors)) /
           d->rate;
  }
  if (const auto* d = std::get_if<Uniform>(&node.value)) return d->low + q * (d->high - d->low);
  if (const auto* d = std::get_if<LogNormal>(&node.value)) return law_quantile(*d, q);
  if (const auto* d = std::get_if<Weibull>(&node.value)) return law_quantile(*d, q);
  if (const auto* d = std::get_if<Pareto>(&node.value)) return law_quantile(*d, q);
  if (const auto* d = std::get_if<Shifted>(&node.value)) return d->offset + closed_quantile(d->base.node(), q);
  if (const auto* d = std::get_if<Hypoexponential>(&node.value)) {
    if (d->max_of_exponentials_rate > 0.0) {
      const double p = static_cast<double>(d->rates.size());
      return -std::log(-std::expm1(std::log(q) / p)) / d->max_of_exponentials_rate;
    }
    if (all_rates_equal(d->rates)) {
      const auto k = static_cast<double>(d->rates.size());
      return (q <= 0.5 ? boost::math::gamma_p_inv(k, q, kTypedErrors)
                       : boost::math::gamma_q_inv(k, 1.0 - q, kTypedErrors)) /
             d->rates.front();
    }
  }
  // Otherwise: bracket and solve F(x) = q (on the survival side for upper quantiles, where
  // 1 - q is more accurate than q).
  const bool upper_side = q > 0.5;
  auto residual = [&](double x) { return upper_side ? (1.0 - q) - closed_survival(node, x) : closed_cdf(node, x) - q; };
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
  const auto root =
      boost::math::tools::toms748_solve(residual, low, high, boost::math::tools::eps_tolerance<double>(50), iterations);
  return 0.5 * (root.first + root.second);
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
            return "Hyperexponential(probabilities=" + list(d.probabilities) + ", rates=" + list(d.rates) + ")";
          },
          [](const Uniform& d) { return "Uniform(" + format_number(d.low) + ", " + format_number(d.high) + ")"; },
          [](const TruncatedNormal& d) {
            return "TruncatedNormal(mu=" + format_number(d.mu) + ", sigma=" + format_number(d.sigma) + ")";
          },
          []<SkewedLaw Law>(const Law& d) { return law_describe(d); },
          [](const PhaseType& d) { return "PhaseType(" + std::to_string(d.size) + " phases)"; },
          [](const Mixture& d) {
            // A measured body of many atoms (NUMERICAL's TAIL) would fill a screen: the first
            // few and the last, which is the tail, and the count between.
            constexpr std::size_t kShown = 3;
            std::string out = "Mixture(";
            for (std::size_t i = 0; i < d.weights.size(); ++i) {
              if (i > 0) out += ", ";
              if (i == kShown && d.weights.size() > kShown + 2) {
                out += "... " + std::to_string(d.weights.size() - kShown - 1) + " more ..., ";
                i = d.weights.size() - 1;
              }
              out += format_number(d.weights[i]) + ": " + describe(d.components[i]);
            }
            return out + ")";
          },
          [](const Shifted& d) { return describe(d.base) + " + " + format_number(d.offset); },
          [](const Numerical& d) {
            return "numerical(" + std::to_string(d.lower.size()) + " points, step " + format_number(d.step) + ")";
          },
      },
      node.value);
}

}  // namespace distributions::detail
