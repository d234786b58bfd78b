// Moments, cdf, quantile, bracket and descriptions of any distribution; its closed-form
// parameters and identity (queries.hpp).
#include <algorithm>
#include <cmath>
#include <limits>
#include <variant>

#include "distributions/internal.hpp"
#include "distributions/errors.hpp"
#include "distributions/lattice.hpp"
#include "distributions/queries.hpp"

namespace distributions {

namespace {

const detail::Numerical* grid_of(const Distribution& d) { return std::get_if<detail::Numerical>(&d.node().value); }

// The central estimate of a grid: the lower lattice moved up and the upper lattice moved down
// by half the gap between their means, each point's mass spread uniformly over its cell
// (a point mass if the grid has one point). Its mean is the midpoint of the two means.
struct Central {
  const detail::Numerical& n;
  double half_gap;
};
Central central_of(const detail::Numerical& n) {
  const double gap = detail::lattice_mean(n.upper, n.origin, n.step) - detail::lattice_mean(n.lower, n.origin, n.step);
  return {n, 0.5 * gap};
}

// P(Y <= x) for one lattice with masses spread over [x_i - step/2, x_i + step/2]. `below`, when
// not empty, holds the prefix sums of pmf (below[i] = pmf[0] + ... + pmf[i - 1], summed in that
// order, so that the result is the same to the bit).
double spread_cdf(const std::vector<double>& pmf, const std::vector<double>& below, double origin, double step,
                  double x) {
  if (pmf.size() == 1 || !(step > 0.0)) return x >= origin ? 1.0 : 0.0;
  const double r = (x - origin) / step + 0.5;
  if (r <= 0.0) return 0.0;
  if (r >= static_cast<double>(pmf.size())) return 1.0;
  const auto cell = static_cast<std::size_t>(r);
  double mass_below = 0.0;
  if (below.empty()) {
    for (std::size_t i = 0; i < cell; ++i) mass_below += pmf[i];
  } else {
    mass_below = below[cell];
  }
  return std::min(1.0, mass_below + (r - static_cast<double>(cell)) * pmf[cell]);
}

std::vector<double> prefix_sums(const std::vector<double>& pmf) {
  std::vector<double> below(pmf.size() + 1, 0.0);
  double sum = 0.0;
  for (std::size_t i = 0; i < pmf.size(); ++i) {
    below[i] = sum;
    sum += pmf[i];
  }
  below[pmf.size()] = sum;
  return below;
}

const std::vector<double> kNoPrefix;

double central_cdf(const Central& c, double x, const std::vector<double>& lower_below = kNoPrefix,
                   const std::vector<double>& upper_below = kNoPrefix) {
  return 0.5 * (spread_cdf(c.n.lower, lower_below, c.n.origin + c.half_gap, c.n.step, x) +
                spread_cdf(c.n.upper, upper_below, c.n.origin - c.half_gap, c.n.step, x));
}

// The least x with cdf(x) >= q, by bisection over the central estimate's support.
template <typename Cdf>
double central_quantile(const Central& c, double q, const Cdf& cdf) {
  const double half_cell = c.n.lower.size() > 1 ? 0.5 * c.n.step : 0.0;
  const double span = static_cast<double>(c.n.lower.size() - 1) * c.n.step;
  double low = c.n.origin - std::abs(c.half_gap) - half_cell;
  double high = c.n.origin + span + std::abs(c.half_gap) + half_cell;
  if (q <= 0.0) {
    // The first point with mass in either shifted lattice.
    while (high - low > 1e-15 * std::max(1.0, std::abs(high))) {
      const double mid = 0.5 * (low + high);
      if (cdf(mid) > 0.0)
        high = mid;
      else
        low = mid;
      if (mid == low && mid == high) break;
    }
    return high;
  }
  for (int i = 0; i < 200 && high > low; ++i) {
    const double mid = 0.5 * (low + high);
    if (mid <= low || mid >= high) break;
    if (cdf(mid) >= q)
      high = mid;
    else
      low = mid;
  }
  return high;
}

double central_quantile(const Central& c, double q) {
  return central_quantile(c, q, [&c](double x) { return central_cdf(c, x); });
}

// Copies the parameters of a closed form into `p`; false for a grid, which has none.
struct ClosedFormVisitor {
  using Kind = ClosedFormParameters::Kind;
  ClosedFormParameters& p;

  bool operator()(const detail::Deterministic& x) const {
    p.kind = Kind::Deterministic;
    p.value = x.value;
    return true;
  }
  bool operator()(const detail::Exponential& x) const {
    p.kind = Kind::Exponential;
    p.rate = x.rate;
    return true;
  }
  bool operator()(const detail::Erlang& x) const {
    p.kind = Kind::Erlang;
    p.phases = x.phases;
    p.rate = x.rate;
    return true;
  }
  bool operator()(const detail::Hypoexponential& x) const {
    p.kind = Kind::Hypoexponential;
    p.rates = x.rates;
    return true;
  }
  bool operator()(const detail::Hyperexponential& x) const {
    p.kind = Kind::Hyperexponential;
    p.probabilities = x.probabilities;
    p.rates = x.rates;
    return true;
  }
  bool operator()(const detail::Uniform& x) const {
    p.kind = Kind::Uniform;
    p.low = x.low;
    p.high = x.high;
    return true;
  }
  bool operator()(const detail::TruncatedNormal& x) const {
    p.kind = Kind::TruncatedNormal;
    p.mu = x.mu;
    p.sigma = x.sigma;
    return true;
  }
  bool operator()(const detail::LogNormal& x) const {
    p.kind = Kind::LogNormal;
    p.mu = x.mu;
    p.sigma = x.sigma;
    return true;
  }
  bool operator()(const detail::Weibull& x) const {
    p.kind = Kind::Weibull;
    p.shape = x.shape;
    p.scale = x.scale;
    return true;
  }
  bool operator()(const detail::Pareto& x) const {
    p.kind = Kind::Pareto;
    p.shape = x.alpha;
    p.scale = x.scale;
    return true;
  }
  bool operator()(const detail::PhaseType& x) const {
    p.kind = Kind::PhaseType;
    p.alpha = x.alpha;
    p.subgenerator = x.subgenerator;
    return true;
  }
  bool operator()(const detail::Mixture& x) const {
    p.kind = Kind::Mixture;
    p.weights = x.weights;
    p.components = x.components;
    return true;
  }
  bool operator()(const detail::Shifted& x) const {
    p.kind = Kind::Shifted;
    p.offset = x.offset;
    p.base = &x.base;
    return true;
  }
  bool operator()(const detail::Numerical&) const { return false; }
};

}  // namespace

double mean(const Distribution& d) {
  if (const auto* n = grid_of(d)) {
    return 0.5 *
           (detail::lattice_mean(n->lower, n->origin, n->step) + detail::lattice_mean(n->upper, n->origin, n->step));
  }
  return detail::closed_mean(d.node());
}

double variance(const Distribution& d) {
  if (const auto* n = grid_of(d)) {
    return 0.5 * (detail::lattice_variance(n->lower, n->origin, n->step) +
                  detail::lattice_variance(n->upper, n->origin, n->step));
  }
  return detail::closed_variance(d.node());
}

double cdf(const Distribution& d, double x) {
  if (std::isnan(x)) throw InvalidDistribution("cdf: x must not be NaN");
  if (const auto* n = grid_of(d)) return central_cdf(central_of(*n), x);
  return detail::closed_cdf(d.node(), x);
}

double quantile(const Distribution& d, double q) {
  if (!(q >= 0.0 && q <= 1.0)) detail::fail("quantile", "q must lie in [0, 1]", q);
  if (const auto* n = grid_of(d)) return central_quantile(central_of(*n), q);
  return detail::closed_quantile(d.node(), q);
}

Bracket mean_bracket(const Distribution& d) {
  if (const auto* n = grid_of(d)) {
    const double low = detail::lattice_mean(n->lower, n->origin, n->step) - n->slack;
    const double high = detail::lattice_mean(n->upper, n->origin, n->step) + n->slack;
    // Widen by the round-off of the two sums (a few ulps of the largest position).
    const double extent =
        std::max(std::abs(n->origin), std::abs(n->origin + static_cast<double>(n->lower.size()) * n->step));
    const double rounding = 64.0 * std::numeric_limits<double>::epsilon() * extent;
    return {low - rounding, high + rounding};
  }
  const double m = detail::closed_mean(d.node());
  return {m, m};
}

CdfTable::CdfTable(Distribution d) : d_(std::move(d)) {
  if (const auto* n = grid_of(d_)) {
    lower_below_ = prefix_sums(n->lower);
    upper_below_ = prefix_sums(n->upper);
    half_gap_ = central_of(*n).half_gap;
  }
}

double CdfTable::cdf(double x) const {
  if (std::isnan(x)) throw InvalidDistribution("cdf: x must not be NaN");
  if (const auto* n = grid_of(d_)) return central_cdf(Central{*n, half_gap_}, x, lower_below_, upper_below_);
  return detail::closed_cdf(d_.node(), x);
}

double CdfTable::quantile(double q) const {
  if (!(q >= 0.0 && q <= 1.0)) detail::fail("quantile", "q must lie in [0, 1]", q);
  if (const auto* n = grid_of(d_)) {
    const Central c{*n, half_gap_};
    return central_quantile(c, q, [&](double x) { return central_cdf(c, x, lower_below_, upper_below_); });
  }
  return detail::closed_quantile(d_.node(), q);
}

bool is_closed_form(const Distribution& d) { return grid_of(d) == nullptr; }

std::string describe(const Distribution& d) { return detail::closed_describe(d.node()); }

LatticeView lattice(const Distribution& d) {
  const auto* n = grid_of(d);
  if (n == nullptr) {
    throw InvalidDistribution("lattice: d must be a numerical distribution, got " + describe(d));
  }
  return {n->origin, n->step, n->lower, n->upper, n->slack};
}

std::size_t grid_size(const Distribution& d) {
  const auto* n = grid_of(d);
  return n == nullptr ? 0 : n->lower.size();
}

std::optional<ClosedFormParameters> closed_form(const Distribution& d) {
  ClosedFormParameters p;
  if (!std::visit(ClosedFormVisitor{p}, d.node().value)) return std::nullopt;
  return p;
}

const void* identity(const Distribution& d) { return &d.node(); }

}  // namespace distributions
