// Factories of closed forms with parameter validation.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <numeric>
#include <string>

#include "distributions/internal.hpp"
#include "distributions/errors.hpp"
#include "distributions/lattice.hpp"

namespace distributions {

namespace detail {

std::string format_number(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, x);
  return std::string(buffer, result.ptr);
}

void require_valid(std::string_view where, const GridOptions& options) {
  std::string why;
  if (!options.IsValid(&why)) throw InvalidDistribution(std::string(where) + ": " + why);
}

}  // namespace detail

using detail::fail;
using detail::make;

bool GridOptions::IsValid(std::string* why) const {
  auto complain = [why](std::string message) {
    if (why != nullptr) *why = std::move(message);
    return false;
  };
  if (max_points < 16) {
    return complain("GridOptions.max_points must be >= 16, got " + std::to_string(max_points));
  }
  if (max_points > (std::size_t{1} << 26)) {
    return complain("GridOptions.max_points must be <= 2^26, got " + std::to_string(max_points));
  }
  if (!(std::isfinite(tail_mass) && tail_mass > 0.0 && tail_mass <= 1e-3)) {
    return complain("GridOptions.tail_mass must lie in (0, 1e-3], got " + detail::format_number(tail_mass));
  }
  return true;
}

Distribution::Distribution()
    : Distribution(std::make_shared<const detail::Node>(detail::Node{detail::Deterministic{0.0}})) {}

Distribution::Distribution(std::shared_ptr<const detail::Node> node) : node_(std::move(node)) {
  if (!node_) throw InvalidDistribution("Distribution: node must not be null");
}

Distribution deterministic(double value) {
  detail::require_finite_non_negative("deterministic", "value", value);
  return make(detail::Deterministic{value});
}

Distribution exponential(double rate) {
  detail::require_finite_positive("exponential", "rate", rate);
  return make(detail::Exponential{rate});
}

Distribution erlang(int phases, double rate) {
  if (phases < 1) fail("erlang", "phases must be >= 1", phases);
  detail::require_finite_positive("erlang", "rate", rate);
  return make(detail::Erlang{phases, rate});
}

Distribution hypoexponential(std::vector<double> rates) {
  if (rates.empty()) throw InvalidDistribution("hypoexponential: rates must not be empty");
  for (std::size_t i = 0; i < rates.size(); ++i) {
    detail::require_finite_positive("hypoexponential", "rates[" + std::to_string(i) + "]", rates[i]);
  }
  return make(detail::Hypoexponential{std::move(rates), 0.0});
}

namespace {
// Checks probability weights: finite, >= 0, summing to 1 within 1e-9; renormalises exactly.
void check_weights(std::string_view where, std::string_view name, std::vector<double>& weights) {
  double total = 0.0;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    detail::require_finite_non_negative(where, std::string(name) + "[" + std::to_string(i) + "]", weights[i]);
    total += weights[i];
  }
  if (std::abs(total - 1.0) > 1e-9) {
    fail(where, std::string(name) + " must sum to 1 (within 1e-9)", total);
  }
  for (double& w : weights) w /= total;
}
}  // namespace

Distribution hyperexponential(std::vector<double> probabilities, std::vector<double> rates) {
  if (probabilities.empty()) {
    throw InvalidDistribution("hyperexponential: probabilities must not be empty");
  }
  if (probabilities.size() != rates.size()) {
    throw InvalidDistribution(
        "hyperexponential: probabilities and rates must have the same "
        "size, got " +
        std::to_string(probabilities.size()) + " and " + std::to_string(rates.size()));
  }
  check_weights("hyperexponential", "probabilities", probabilities);
  for (std::size_t i = 0; i < rates.size(); ++i) {
    detail::require_finite_positive("hyperexponential", "rates[" + std::to_string(i) + "]", rates[i]);
  }
  return make(detail::Hyperexponential{std::move(probabilities), std::move(rates)});
}

Distribution uniform(double low, double high) {
  detail::require_finite_non_negative("uniform", "low", low);
  detail::require_finite_non_negative("uniform", "high", high);
  if (high < low) fail("uniform", "high must be >= low (" + detail::format_number(low) + ")", high);
  if (high == low) return make(detail::Deterministic{low});
  return make(detail::Uniform{low, high});
}

Distribution lognormal(double mu, double sigma) {
  detail::require_finite("lognormal", "mu", mu);
  detail::require_finite_positive("lognormal", "sigma", sigma);
  // exp(mu + sigma^2 / 2) and the variance must stay finite: beyond, no figure means anything.
  if (mu + 2.0 * sigma * sigma > 700.0) fail("lognormal", "mu + 2 sigma^2 must be <= 700 (a finite variance)", mu);
  return make(detail::LogNormal{mu, sigma});
}

Distribution weibull(double shape, double scale) {
  detail::require_finite_positive("weibull", "shape", shape);
  detail::require_finite_positive("weibull", "scale", scale);
  // Below 0.05 the variance Γ(1 + 2/k) overflows.
  if (shape < 0.05) fail("weibull", "shape must be >= 0.05 (a finite variance)", shape);
  return make(detail::Weibull{shape, scale});
}

Distribution pareto(double alpha, double scale) {
  detail::require_finite_positive("pareto", "scale", scale);
  detail::require_finite("pareto", "alpha", alpha);
  // The tool's figures are means with standard errors: a tail with an infinite variance has none.
  if (!(alpha > 2.0)) fail("pareto", "alpha must be > 2 (a finite variance)", alpha);
  return make(detail::Pareto{alpha, scale});
}

Distribution truncated_normal(double mu, double sigma) {
  detail::require_finite("truncated_normal", "mu", mu);
  detail::require_finite_positive("truncated_normal", "sigma", sigma);
  // Beyond ~37 standard deviations below 0 the conditional law is an exponential of rate
  // -mu/sigma^2 to double precision; the formulas below use asymptotic series there, but
  // refuse the absurd region where even those lose meaning.
  if (mu / sigma < -1e6) fail("truncated_normal", "mu/sigma must be >= -1e6", mu / sigma);
  return make(detail::TruncatedNormal{mu, sigma});
}

namespace {

// The sum of alpha, each entry checked finite and >= 0 and the sum <= 1.
double checked_alpha_total(const std::vector<double>& alpha) {
  double alpha_total = 0.0;
  for (std::size_t i = 0; i < alpha.size(); ++i) {
    detail::require_finite_non_negative("phase_type", "alpha[" + std::to_string(i) + "]", alpha[i]);
    alpha_total += alpha[i];
  }
  if (alpha_total > 1.0 + 1e-9) fail("phase_type", "alpha must sum to <= 1", alpha_total);
  return alpha_total;
}

// The subgenerator checked and flattened row by row; `exit_rate` receives each state's rate
// of absorption.
std::vector<double> checked_subgenerator(const std::vector<std::vector<double>>& subgenerator,
                                         std::vector<double>& exit_rate) {
  const std::size_t n = subgenerator.size();
  std::vector<double> flat(n * n);
  for (std::size_t i = 0; i < n; ++i) {
    if (subgenerator[i].size() != n) {
      throw InvalidDistribution("phase_type: subgenerator row " + std::to_string(i) + " must have " +
                                std::to_string(n) + " entries, got " + std::to_string(subgenerator[i].size()));
    }
    double row_sum = 0.0;
    double off_diagonal = 0.0;
    for (std::size_t j = 0; j < n; ++j) {
      const double t = subgenerator[i][j];
      const std::string name = "subgenerator[" + std::to_string(i) + "][" + std::to_string(j) + "]";
      detail::require_finite("phase_type", name, t);
      if (i == j && !(t < 0.0)) fail("phase_type", name + " (diagonal) must be < 0", t);
      if (i != j && t < 0.0) fail("phase_type", name + " (off-diagonal) must be >= 0", t);
      if (i != j) off_diagonal += t;
      row_sum += t;
      flat[i * n + j] = t;
    }
    const double tolerance = 1e-12 * std::abs(subgenerator[i][i]);
    if (row_sum > tolerance) {
      fail("phase_type", "subgenerator row " + std::to_string(i) + " must sum to <= 0", row_sum);
    }
    exit_rate[i] = std::max(0.0, -subgenerator[i][i] - off_diagonal);
  }
  return flat;
}

// Absorption must be reachable from every state, otherwise the time is infinite with
// positive probability: walk backwards from the states with a positive exit rate.
void require_absorption_reachable(const std::vector<double>& flat, const std::vector<double>& exit_rate) {
  const std::size_t n = exit_rate.size();
  std::vector<bool> reaches_exit(n, false);
  bool changed = true;
  for (std::size_t i = 0; i < n; ++i) reaches_exit[i] = exit_rate[i] > 0.0;
  while (changed) {
    changed = false;
    for (std::size_t i = 0; i < n; ++i) {
      if (reaches_exit[i]) continue;
      for (std::size_t j = 0; j < n; ++j) {
        if (i != j && flat[i * n + j] > 0.0 && reaches_exit[j]) {
          reaches_exit[i] = true;
          changed = true;
          break;
        }
      }
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (!reaches_exit[i]) {
      throw InvalidDistribution("phase_type: subgenerator state " + std::to_string(i) +
                                " cannot reach absorption (the matrix is singular)");
    }
  }
}

}  // namespace

Distribution phase_type(std::vector<double> alpha, std::vector<std::vector<double>> subgenerator) {
  const std::size_t n = alpha.size();
  if (n == 0) throw InvalidDistribution("phase_type: alpha must not be empty");
  if (subgenerator.size() != n) {
    throw InvalidDistribution("phase_type: subgenerator must have " + std::to_string(n) +
                              " rows (the size of alpha), got " + std::to_string(subgenerator.size()));
  }
  const double alpha_total = checked_alpha_total(alpha);
  std::vector<double> exit_rate(n);
  std::vector<double> flat = checked_subgenerator(subgenerator, exit_rate);
  require_absorption_reachable(flat, exit_rate);
  const double atom = std::max(0.0, 1.0 - alpha_total);
  return make(detail::PhaseType{n, std::move(alpha), std::move(flat), atom});
}

Distribution mixture(std::vector<double> weights, std::vector<Distribution> components) {
  if (weights.empty()) throw InvalidDistribution("mixture: weights must not be empty");
  if (weights.size() != components.size()) {
    throw InvalidDistribution("mixture: weights and components must have the same size, got " +
                              std::to_string(weights.size()) + " and " + std::to_string(components.size()));
  }
  check_weights("mixture", "weights", weights);
  // Drop zero-weight branches; a single remaining branch is that branch.
  std::vector<double> kept_weights;
  std::vector<Distribution> kept_components;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    if (weights[i] > 0.0) {
      kept_weights.push_back(weights[i]);
      kept_components.push_back(components[i]);
    }
  }
  if (kept_components.size() == 1) return kept_components.front();
  // A branch that is a grid makes the mixture a grid: the mixture of the lattices (weights
  // applied to lower and upper alike keep the bracket). The grid is as fine as the finest
  // default a component could have.
  GridOptions options;
  bool any_numerical = false;
  for (const auto& c : kept_components) {
    if (const auto* n = std::get_if<detail::Numerical>(&c.node().value)) {
      any_numerical = true;
      options.max_points = std::max(options.max_points, n->lower.size());
    }
  }
  if (any_numerical) {
    std::vector<detail::Numerical> parts;
    for (const auto& c : kept_components) parts.push_back(detail::to_numerical(c, options));
    return make(detail::lattice_mixture(kept_weights, parts, options));
  }
  return make(detail::Mixture{std::move(kept_weights), std::move(kept_components)});
}

}  // namespace distributions
