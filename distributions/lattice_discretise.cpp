// Numerical grids from closed forms and from point masses: discretisation between the tail
// quantiles with the tails' transport in the slack. See docs/distributions.md.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <variant>

#include <boost/math/special_functions/gamma.hpp>

#include "distributions/internal.hpp"
#include "distributions/boost_math_errors.hpp"
#include "distributions/lattice.hpp"
#include "distributions/lattice_grid.hpp"

namespace distributions::detail {

namespace {

// log of the Erlang(k, rate) density at x > 0, accurate for any k (k = 8e8 included): with
// m = k - 1 and t = rate x / m, log f = log(rate) - m (t - 1 - log t) - c(m), where
// c(m) = log Γ(m + 1) - (m log m - m) is evaluated by Stirling's series for large m (the
// direct difference of two numbers of size m log m would lose every digit).
class ErlangLogDensity {
 public:
  ErlangLogDensity(double phases, double rate) : m_(phases - 1.0), rate_(rate), log_rate_(std::log(rate)) {
    if (m_ > 1e3) {
      const double inverse = 1.0 / m_;
      c_ = 0.5 * std::log(2.0 * std::numbers::pi * m_) +
           inverse * (1.0 / 12.0 - inverse * inverse * (1.0 / 360.0 - inverse * inverse / 1260.0));
    } else if (m_ > 0.0) {
      c_ = std::lgamma(m_ + 1.0) - (m_ * std::log(m_) - m_);
    }
  }

  double operator()(double x) const {
    const double y = rate_ * x;
    if (m_ == 0.0) return log_rate_ - y;
    const double u = y / m_ - 1.0;
    return log_rate_ - m_ * (u - std::log1p(u)) - c_;  // u - log1p(u) = t - 1 - log t >= 0
  }

 private:
  double m_;
  double rate_;
  double log_rate_;
  double c_ = 0.0;
};

// Cumulative probabilities of an Erlang at the grid points from the exact incomplete gamma
// function at the two ends and cell masses by 4-point Gauss-Legendre quadrature of the
// density in between: two incomplete gamma evaluations instead of one or two per point.
// The cells are a few thousandths of the distribution's range wide, where the quadrature's
// error (of order (h/σ)^8) is far below the rounding of the cell masses themselves. Sums run
// from each end inwards, so small tail probabilities keep their relative accuracy.
template <class GridPoint>
Cumulative erlang_cumulative(const Erlang& erlang, std::size_t points, GridPoint grid_point) {
  const double k = static_cast<double>(erlang.phases);
  const ErlangLogDensity log_density(k, erlang.rate);
  constexpr double kNodes[4] = {-0.8611363115940526, -0.3399810435848563, 0.3399810435848563, 0.8611363115940526};
  constexpr double kWeights[4] = {0.3478548451374538, 0.6521451548625461, 0.6521451548625461, 0.3478548451374538};
  std::vector<double> cell(points, 0.0);  // cell[i]: mass of (x_{i-1}, x_i]
  for (std::size_t i = 1; i < points; ++i) {
    const double a = grid_point(i - 1), b = grid_point(i);
    const double half = 0.5 * (b - a), middle = 0.5 * (a + b);
    double mass = 0.0;
    for (int j = 0; j < 4; ++j) {
      const double x = middle + half * kNodes[j];
      if (x > 0.0) mass += kWeights[j] * std::exp(log_density(x));
    }
    cell[i] = mass * half;
  }
  Cumulative at{std::vector<double>(points), std::vector<double>(points)};
  const double first = grid_point(0);
  at.cdf[0] = first <= 0.0 ? 0.0 : boost::math::gamma_p(k, erlang.rate * first, kTypedErrors);
  for (std::size_t i = 1; i < points; ++i) at.cdf[i] = at.cdf[i - 1] + cell[i];
  at.survival[points - 1] = boost::math::gamma_q(k, erlang.rate * grid_point(points - 1), kTypedErrors);
  for (std::size_t i = points - 1; i-- > 0;) at.survival[i] = at.survival[i + 1] + cell[i + 1];
  for (std::size_t i = 0; i < points; ++i) {
    at.cdf[i] = std::min(at.cdf[i], 1.0);
    at.survival[i] = std::min(at.survival[i], 1.0);
  }
  return at;
}

// The grid of a closed form's discretisation: `cells` cells of width `step` from `low`, its last
// point exactly at `high` and, when atom_mass > 0, point atom_index exactly at the heaviest atom.
struct ClosedGrid {
  double low = 0.0;
  double high = 0.0;
  double step = 0.0;
  std::size_t cells = 0;
  std::size_t atom_index = 0;
  double atom_mass = 0.0;
  double atom_position = 0.0;

  double operator()(std::size_t i) const {
    if (atom_mass > 0.0 && i == atom_index) return atom_position;
    return i == cells ? high : low + static_cast<double>(i) * step;
  }
};

ClosedGrid closed_grid(const Node& node, double x_low, double x_high, std::size_t cells) {
  ClosedGrid grid;
  grid.low = x_low;
  grid.cells = cells;
  double step = (x_high - x_low) / static_cast<double>(cells);
  // The heaviest point mass inside the range is put exactly on a grid point (by widening the
  // step slightly), where both lattices can hold it exactly: an atom inside a cell would
  // otherwise cost the bracket its whole cell width.
  std::vector<Atom> atoms;
  closed_atoms(node, 1.0, 0.0, &atoms);
  std::size_t atom_index = 0;
  double atom_mass = 0.0;
  double atom_position = 0.0;
  for (const Atom& atom : atoms) {
    if (atom.position > x_low && atom.position <= x_high && atom.mass > atom_mass) {
      atom_mass = atom.mass;
      atom_position = atom.position;
    }
  }
  if (atom_mass > 0.0) {
    // Rounding the index down makes the step larger: the grid still covers [x_low, x_high].
    atom_index = std::min(cells, static_cast<std::size_t>(std::floor((atom_position - x_low) / step)));
    if (atom_index >= 1) {
      step = (atom_position - x_low) / static_cast<double>(atom_index);
    } else {
      atom_mass = 0.0;  // within the first cell: left to the ordinary rounding
    }
  }
  grid.high = x_low + static_cast<double>(cells) * step;
  grid.step = step;
  grid.atom_index = atom_index;
  grid.atom_mass = atom_mass;
  grid.atom_position = atom_position;
  return grid;
}

// Cumulative probabilities at the grid points: the cdf below the median, the survival
// above (each accurate on its small side).
Cumulative closed_cumulative(const Node& node, std::size_t points, const ClosedGrid& grid_point) {
  if (const auto* erlang = std::get_if<Erlang>(&node.value)) return erlang_cumulative(*erlang, points, grid_point);
  Cumulative at_points{std::vector<double>(points), std::vector<double>(points)};
  for (std::size_t i = 0; i < points; ++i) {
    const double x = grid_point(i);
    const double survival = closed_survival(node, x);
    at_points.survival[i] = survival;
    at_points.cdf[i] = survival < 0.5 ? 1.0 - survival : closed_cdf(node, x);
  }
  return at_points;
}

// The two lattices of the cell masses (without slack): the lower puts each cell's mass at its
// left end, the upper at its right end.
Numerical bracketing_lattices(const Cumulative& at_points, const ClosedGrid& grid, std::size_t points) {
  const std::size_t cells = grid.cells;
  const std::size_t atom_index = grid.atom_index;
  // Cell i = (x_i, x_{i+1}]; pmf_from gives mass(x_{i-1}, x_i] at i (and F(x_0) at 0).
  std::vector<double> cell_at_right_end = pmf_from(at_points);
  Numerical result{grid.low, grid.step, std::vector<double>(points, 0.0), std::vector<double>(points, 0.0), 0.0};
  for (std::size_t i = 1; i < points; ++i) {
    result.lower[i - 1] = cell_at_right_end[i];  // left end of its cell: stochastically smaller
    result.upper[i] = cell_at_right_end[i];      // right end: stochastically larger
  }
  if (grid.atom_mass > 0.0) {
    // The atom is in cell (x_{k-1}, x_k] with k = atom_index; in the lower lattice it may sit
    // at its true position x_k instead of x_{k-1} (still not above the truth).
    const double moved = std::min(grid.atom_mass, result.lower[atom_index - 1]);
    result.lower[atom_index - 1] -= moved;
    result.lower[atom_index] += moved;
  }
  // Mass at or below x_0 sits at x_0 in both; mass above x_high at x_high in both.
  result.lower[0] += at_points.cdf[0];
  result.upper[0] += at_points.cdf[0];
  result.lower[cells] += at_points.survival[cells];
  result.upper[cells] += at_points.survival[cells];
  return result;
}

}  // namespace

Numerical discretise_closed(const Node& node, const GridOptions& options) {
  if (const auto* d = std::get_if<Deterministic>(&node.value)) return single_point(d->value, 0.0);
  if (const auto* d = std::get_if<Shifted>(&node.value)) {
    Numerical base = discretise_closed(d->base.node(), options);
    base.origin += d->offset;
    return base;
  }
  const double support_low = closed_support_min(node);
  const double support_high = closed_support_max(node);
  double x_low = closed_quantile(node, options.tail_mass);
  double x_high = closed_quantile(node, 1.0 - options.tail_mass);
  if (std::isfinite(support_high) && support_high - x_high <= 0.01 * (x_high - x_low)) {
    x_high = support_high;  // a bounded support costs nothing to cover exactly
  }
  if (x_low - support_low <= 0.01 * (x_high - x_low)) x_low = support_low;
  if (!(x_high > x_low)) {
    const double slack = std::max(closed_lower_tail_transport(node, x_low), closed_upper_tail_transport(node, x_low));
    return single_point(x_low, slack);
  }
  const std::size_t points = options.max_points;
  const ClosedGrid grid = closed_grid(node, x_low, x_high, points - 1);
  x_high = grid.high;
  const Cumulative at_points = closed_cumulative(node, points, grid);
  Numerical result = bracketing_lattices(at_points, grid, points);
  // Moving the lower tail up is unsafe for lower, moving the upper tail down unsafe for upper.
  const double lower_tail = x_low > support_low ? closed_lower_tail_transport(node, x_low) : 0.0;
  const double upper_tail = x_high < support_high ? closed_upper_tail_transport(node, x_high) : 0.0;
  result.slack = std::max(lower_tail, upper_tail);
  normalise(result, 0.0);
  compact(result, options);
  return result;
}

Numerical lattice_from_points(std::span<const double> values, std::span<const double> weights,
                              const GridOptions& options) {
  double low = std::numeric_limits<double>::infinity();
  double high = -low;
  double total = 0.0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (weights[i] == 0.0) continue;
    low = std::min(low, values[i]);
    high = std::max(high, values[i]);
    total += weights[i];
  }
  if (!(high > low)) return single_point(low, 0.0);
  const double step = (high - low) / static_cast<double>(options.max_points - 1);
  Numerical result{low, step, std::vector<double>(options.max_points, 0.0),
                   std::vector<double>(options.max_points, 0.0), kSnap * step};
  std::vector<double> masses(weights.begin(), weights.end());
  for (double& m : masses) m /= total;
  // Each point is its own lattice of step 0 here: rebin them one by one.
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (masses[i] == 0.0) continue;
    const double one[1] = {masses[i]};
    rebin_into(one, values[i], 0.0, low, step, false, result.lower);
    rebin_into(one, values[i], 0.0, low, step, true, result.upper);
  }
  normalise(result, 0.0);
  return result;
}

Numerical to_numerical(const Distribution& d, const GridOptions& options) {
  const Node& node = d.node();
  if (const auto* n = std::get_if<Numerical>(&node.value)) {
    if (n->lower.size() <= options.max_points) return *n;
    Numerical copy = *n;
    compact(copy, options);
    return copy;
  }
  if (const auto* m = std::get_if<Mixture>(&node.value)) {
    bool any_numerical = false;
    for (const auto& c : m->components) {
      any_numerical |= std::holds_alternative<Numerical>(c.node().value);
    }
    if (any_numerical) {
      std::vector<Numerical> parts;
      for (const auto& c : m->components) parts.push_back(to_numerical(c, options));
      return lattice_mixture(m->weights, parts, options);
    }
  }
  return discretise_closed(node, options);
}

}  // namespace distributions::detail
