// Numerical grids: discretisation, rebinning, trimming, coarsening, and the series-parallel
// operations on bracketing lattice pairs. See docs/distributions.md for the bracket argument.
#include "distributions/lattice.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <boost/math/special_functions/gamma.hpp>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "distributions/internal.hpp"

namespace distributions::detail {

namespace {

// Grid positions computed in floating point are snapped to the nearest grid point when within
// this fraction of a step; the (unsafe) move is at most kSnap * step per unit mass, which is
// added to the slack.
constexpr double kSnap = 1e-9;

double total_of(std::span<const double> pmf) {
  return std::accumulate(pmf.begin(), pmf.end(), 0.0);
}

double span_of(const Numerical& n) {
  return n.lower.size() > 1 ? static_cast<double>(n.lower.size() - 1) * n.step : 0.0;
}

double position(const Numerical& n, std::size_t i) {
  return n.origin + static_cast<double>(i) * n.step;
}

double last_position(const Numerical& n) { return position(n, n.lower.size() - 1); }

Numerical single_point(double x, double slack) { return Numerical{x, 0.0, {1.0}, {1.0}, slack}; }

// Scales both lattices to total 1. The relative change of mass is round-off, bounded by
// |1 - total| in transport per unit span; it goes into the slack.
void normalise(Numerical& n, double extra_noise_mass) {
  const double total_lower = total_of(n.lower);
  const double total_upper = total_of(n.upper);
  if (!(total_lower > 0.0) || !(total_upper > 0.0)) {
    throw std::runtime_error("distributions: a lattice lost all its mass (internal error)");
  }
  for (double& v : n.lower) v /= total_lower;
  for (double& v : n.upper) v /= total_upper;
  const double moved =
      std::max(std::abs(1.0 - total_lower), std::abs(1.0 - total_upper)) + extra_noise_mass;
  n.slack += moved * span_of(n);
}

// Accurate cumulative forms of a pmf: cdf[i] = sum_{j<=i} pmf[j] (accurate where small) and
// survival[i] = sum_{j>i} pmf[j] (accurate where small).
struct Cumulative {
  std::vector<double> cdf;
  std::vector<double> survival;
};
Cumulative cumulative_of(std::span<const double> pmf) {
  const std::size_t n = pmf.size();
  Cumulative c{std::vector<double>(n), std::vector<double>(n)};
  double running = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    running += pmf[i];
    c.cdf[i] = running;
  }
  running = 0.0;
  for (std::size_t i = n; i-- > 0;) {
    c.survival[i] = running;
    running += pmf[i];
  }
  return c;
}
// The pmf back from accurate (cdf, survival) pairs: differences of the small side.
std::vector<double> pmf_from(const Cumulative& c) {
  const std::size_t n = c.cdf.size();
  std::vector<double> pmf(n);
  for (std::size_t i = 0; i < n; ++i) {
    double mass;
    if (i == 0) {
      mass = c.cdf[0];
    } else if (c.cdf[i] <= 0.5) {
      mass = c.cdf[i] - c.cdf[i - 1];
    } else {
      mass = c.survival[i - 1] - c.survival[i];
    }
    pmf[i] = std::max(mass, 0.0);
  }
  return pmf;
}

// Moves a lattice (source positions origin + i*step) onto the grid (to_origin, to_step) of
// out.size() points: mass goes to the grid point at or below (round_up == false, for lower
// lattices) or at or above (round_up == true, for upper lattices).
void rebin_into(std::span<const double> pmf, double origin, double step, double to_origin,
                double to_step, bool round_up, std::vector<double>& out) {
  const auto last = static_cast<std::int64_t>(out.size()) - 1;
  for (std::size_t i = 0; i < pmf.size(); ++i) {
    if (pmf[i] == 0.0) continue;
    const double x = origin + static_cast<double>(i) * step;
    const double r = to_step > 0.0 ? (x - to_origin) / to_step : 0.0;
    const double index = round_up ? std::ceil(r - kSnap) : std::floor(r + kSnap);
    const auto k = std::clamp(static_cast<std::int64_t>(index), std::int64_t{0}, last);
    out[static_cast<std::size_t>(k)] += pmf[i];
  }
}

Numerical rebin(const Numerical& n, double to_origin, double to_step, std::size_t size) {
  Numerical result{to_origin, to_step, std::vector<double>(size, 0.0),
                   std::vector<double>(size, 0.0), n.slack + kSnap * to_step};
  rebin_into(n.lower, n.origin, n.step, to_origin, to_step, false, result.lower);
  rebin_into(n.upper, n.origin, n.step, to_origin, to_step, true, result.upper);
  return result;
}

// One grid for several lattices: the step is the largest step (a multiple of it if the grid
// would otherwise exceed the size limit), aligned with a lattice having that step so that it
// is copied exactly; the others are rebinned in the safe direction.
struct CommonGrid {
  double origin;
  double step;
  std::size_t size;
};
CommonGrid common_grid(std::span<const Numerical* const> parts, std::size_t max_points) {
  double low = std::numeric_limits<double>::infinity();
  double high = -low;
  const Numerical* reference = parts.front();
  for (const Numerical* p : parts) {
    low = std::min(low, p->origin);
    high = std::max(high, last_position(*p));
    if (p->lower.size() > 1 && (reference->lower.size() <= 1 || p->step > reference->step)) {
      reference = p;
    }
  }
  if (high <= low) return {low, 0.0, 1};
  double step = reference->step;
  double anchor = reference->origin;
  if (reference->lower.size() <= 1) {  // only point masses: spread them over the limit
    step = (high - low) / static_cast<double>(max_points - 1);
    anchor = low;
  }
  const std::size_t limit = 4 * max_points;
  for (;;) {
    const double below = std::ceil((anchor - low) / step - kSnap);
    const double origin = anchor - below * step;
    const double points = std::ceil((high - origin) / step - kSnap) + 1.0;
    if (points <= static_cast<double>(limit)) {
      return {origin, step, static_cast<std::size_t>(points)};
    }
    step *= std::ceil(points / static_cast<double>(max_points));
  }
}

// Chernoff window of the n-fold sum S of index-valued J ~ pmf: indices [first, last] outside
// of which the transport of the wrapped mass, P(S beyond) * span + E[distance beyond], is at
// most target on each side (both bounds from the lattice's own moment generating function).
struct Window {
  std::int64_t first;
  std::int64_t last;
};
class ChernoffWindow {
 public:
  explicit ChernoffWindow(std::span<const double> pmf) : pmf_(pmf) {
    std::size_t i = 0;
    while (i < pmf.size() && pmf[i] == 0.0) ++i;
    min_index_ = i;
    std::size_t j = pmf.size();
    while (j > i && pmf[j - 1] == 0.0) --j;
    max_index_ = j - 1;
  }

  Window window(std::int64_t n, double target) const {
    const auto lo = static_cast<double>(min_index_);
    const auto hi = static_cast<double>(max_index_);
    const double nd = static_cast<double>(n);
    const double full_low = nd * lo;
    const double full_high = nd * hi;
    // The displacement of wrapped mass is at most (its distance beyond) + the FFT length,
    // which is at most twice the full support width plus a margin.
    const double wrap_span = 2.0 * (full_high - full_low) + 64.0;
    const double log_target = std::log(target);
    // Upper end: the smallest t with exp(-theta t + n K(theta)) (wrap_span + 1/theta) <= target.
    auto upper_t = [&](double theta) {
      return (nd * log_mgf(theta) + std::log(wrap_span + 1.0 / theta) - log_target) / theta;
    };
    auto lower_t = [&](double theta) {
      return -(nd * log_mgf(-theta) + std::log(wrap_span + 1.0 / theta) - log_target) / theta;
    };
    const double t_high = minimise_over_theta(upper_t);
    const double t_low = -minimise_over_theta([&](double theta) { return -lower_t(theta); });
    const double first = std::max(full_low, std::floor(t_low));
    const double last = std::min(full_high, std::ceil(t_high));
    return {static_cast<std::int64_t>(first), static_cast<std::int64_t>(std::max(first, last))};
  }

 private:
  // log E[exp(theta J)], shifted by the extreme index to avoid overflow.
  // The factors e^{theta (j - pivot)} <= 1 come from a running product (one multiplication per
  // point instead of an exp); its relative rounding, below 1e-12 here, is covered by the
  // factor 4 of safety in plan_power's target.
  double log_mgf(double theta) const {
    double sum = 0.0;
    if (theta > 0.0) {
      const double ratio = std::exp(-theta);
      double factor = 1.0;
      for (std::size_t j = max_index_ + 1; j-- > min_index_;) {
        sum += pmf_[j] * factor;
        factor *= ratio;
      }
      return theta * static_cast<double>(max_index_) + std::log(sum);
    }
    const double ratio = std::exp(theta);
    double factor = 1.0;
    for (std::size_t j = min_index_; j <= max_index_; ++j) {
      sum += pmf_[j] * factor;
      factor *= ratio;
    }
    return theta * static_cast<double>(min_index_) + std::log(sum);
  }

  // A scan over log theta, then golden-section refinement around the best point; any theta
  // gives a valid bound, so an imperfect minimum only costs a slightly wider window.
  template <class F>
  static double minimise_over_theta(F f) {
    const double log_low = std::log(1e-12);
    const double log_high = std::log(50.0);
    constexpr int kScan = 32;
    double best_u = log_low;
    double best = std::numeric_limits<double>::infinity();
    for (int i = 0; i <= kScan; ++i) {
      const double u = log_low + (log_high - log_low) * i / kScan;
      const double value = f(std::exp(u));
      if (value < best) {
        best = value;
        best_u = u;
      }
    }
    const double cell = (log_high - log_low) / kScan;
    double a = best_u - cell;
    double b = best_u + cell;
    const double ratio = 0.5 * (std::sqrt(5.0) - 1.0);
    for (int iteration = 0; iteration < 24; ++iteration) {
      const double c = b - ratio * (b - a);
      const double d = a + ratio * (b - a);
      const double fc = f(std::exp(c));
      const double fd = f(std::exp(d));
      best = std::min({best, fc, fd});
      if (fc < fd) {
        b = d;
      } else {
        a = c;
      }
    }
    return best;
  }

  std::span<const double> pmf_;
  std::size_t min_index_ = 0;
  std::size_t max_index_ = 0;
};

std::size_t fft_budget(const GridOptions& options) {
  return std::max<std::size_t>(8 * options.max_points, std::size_t{1} << 15);
}

struct PowerPlan {
  Window window;
  bool exact;  // the window is the whole support: nothing wraps
};
PowerPlan plan_power(const Numerical& a, std::int64_t n, const GridOptions& options) {
  const double full_width = static_cast<double>(n) * static_cast<double>(a.lower.size() - 1) + 1.0;
  if (full_width <= static_cast<double>(fft_budget(options))) {
    return {{0, static_cast<std::int64_t>(full_width) - 1}, true};
  }
  // A window per lattice (each needs its own moment generating function for a rigorous
  // bound), the union is used; the target is a quarter of tail_mass, which absorbs the
  // rounding of the running products in log_mgf with a wide margin.
  const ChernoffWindow lower(a.lower);
  const ChernoffWindow upper(a.upper);
  const double target = 0.25 * options.tail_mass;
  const Window wl = lower.window(n, target);
  const Window wu = upper.window(n, target);
  return {{std::min(wl.first, wu.first), std::max(wl.last, wu.last)}, false};
}

Numerical power_on_window(const Numerical& a, std::int64_t n, const PowerPlan& plan,
                          double tail_mass) {
  const auto size = static_cast<std::size_t>(plan.window.last - plan.window.first + 1);
  FftResult lower = convolution_power_window(a.lower, n, plan.window.first, size);
  FftResult upper = convolution_power_window(a.upper, n, plan.window.first, size);
  Numerical result{static_cast<double>(n) * a.origin +
                       static_cast<double>(plan.window.first) * a.step,
                   a.step, std::move(lower.pmf), std::move(upper.pmf),
                   static_cast<double>(n) * a.slack};
  // Mass wrapped in from outside the window: ChernoffWindow chose it so that the transport is
  // at most tail_mass index units on each side of each lattice.
  if (!plan.exact) result.slack += 2.0 * tail_mass * a.step;
  // Round-off: the clamped negatives measure it; count them twice (positive errors too).
  normalise(result, 2.0 * std::max(lower.clamped_mass, upper.clamped_mass));
  return result;
}

}  // namespace

double lattice_mean(std::span<const double> pmf, double origin, double step) {
  double weighted = 0.0;
  double total = 0.0;
  for (std::size_t i = 0; i < pmf.size(); ++i) {
    weighted += pmf[i] * static_cast<double>(i);
    total += pmf[i];
  }
  return origin + step * (weighted / total);
}

double lattice_variance(std::span<const double> pmf, double origin, double step) {
  const double centre = (lattice_mean(pmf, origin, step) - origin) / step;
  if (!(step > 0.0)) return 0.0;
  double sum = 0.0;
  double total = 0.0;
  for (std::size_t i = 0; i < pmf.size(); ++i) {
    const double d = static_cast<double>(i) - centre;
    sum += pmf[i] * d * d;
    total += pmf[i];
  }
  return step * step * (sum / total);
}

void compact(Numerical& n, const GridOptions& options) {
  const std::size_t size = n.lower.size();
  if (size <= 1) return;
  const double tau = options.tail_mass;
  // Left end: the first index such that both lattices have at most tau below it.
  std::size_t first = 0;
  {
    double lower_mass = 0.0;
    double upper_mass = 0.0;
    while (first + 1 < size && lower_mass + n.lower[first] <= tau &&
           upper_mass + n.upper[first] <= tau) {
      lower_mass += n.lower[first];
      upper_mass += n.upper[first];
      ++first;
    }
  }
  std::size_t last = size - 1;
  {
    double lower_mass = 0.0;
    double upper_mass = 0.0;
    while (last > first && lower_mass + n.lower[last] <= tau && upper_mass + n.upper[last] <= tau) {
      lower_mass += n.lower[last];
      upper_mass += n.upper[last];
      --last;
    }
  }
  if (first > 0 || last + 1 < size) {
    // Lower lattice: moving its left tail up is the unsafe way, its right tail down is safe.
    // Upper lattice: the reverse.
    double unsafe_lower = 0.0;
    double unsafe_upper = 0.0;
    for (std::size_t i = 0; i < first; ++i) {
      unsafe_lower += n.lower[i] * static_cast<double>(first - i) * n.step;
      n.lower[first] += n.lower[i];
      n.upper[first] += n.upper[i];
    }
    for (std::size_t i = last + 1; i < size; ++i) {
      unsafe_upper += n.upper[i] * static_cast<double>(i - last) * n.step;
      n.lower[last] += n.lower[i];
      n.upper[last] += n.upper[i];
    }
    n.slack += std::max(unsafe_lower, unsafe_upper);
    n.lower = std::vector<double>(n.lower.begin() + static_cast<std::ptrdiff_t>(first),
                                  n.lower.begin() + static_cast<std::ptrdiff_t>(last + 1));
    n.upper = std::vector<double>(n.upper.begin() + static_cast<std::ptrdiff_t>(first),
                                  n.upper.begin() + static_cast<std::ptrdiff_t>(last + 1));
    n.origin += static_cast<double>(first) * n.step;
  }
  const std::size_t kept = n.lower.size();
  if (kept > options.max_points) {
    // Coarsen by an integer factor: the new grid is a sub-grid of the old one, lower mass
    // goes down to the sub-grid point at or below, upper mass up to the one at or above.
    const std::size_t factor = (kept - 1 + options.max_points - 2) / (options.max_points - 1);
    const std::size_t new_size = (kept - 1 + factor - 1) / factor + 1;
    std::vector<double> lower(new_size, 0.0);
    std::vector<double> upper(new_size, 0.0);
    for (std::size_t i = 0; i < kept; ++i) {
      lower[i / factor] += n.lower[i];
      upper[(i + factor - 1) / factor] += n.upper[i];
    }
    n.lower = std::move(lower);
    n.upper = std::move(upper);
    n.step *= static_cast<double>(factor);
  }
}

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
  constexpr double kNodes[4] = {-0.8611363115940526, -0.3399810435848563, 0.3399810435848563,
                                0.8611363115940526};
  constexpr double kWeights[4] = {0.3478548451374538, 0.6521451548625461, 0.6521451548625461,
                                  0.3478548451374538};
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
  at.cdf[0] = first <= 0.0 ? 0.0 : boost::math::gamma_p(k, erlang.rate * first);
  for (std::size_t i = 1; i < points; ++i) at.cdf[i] = at.cdf[i - 1] + cell[i];
  at.survival[points - 1] = boost::math::gamma_q(k, erlang.rate * grid_point(points - 1));
  for (std::size_t i = points - 1; i-- > 0;) at.survival[i] = at.survival[i + 1] + cell[i + 1];
  for (std::size_t i = 0; i < points; ++i) {
    at.cdf[i] = std::min(at.cdf[i], 1.0);
    at.survival[i] = std::min(at.survival[i], 1.0);
  }
  return at;
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
    const double slack = std::max(closed_lower_tail_transport(node, x_low),
                                  closed_upper_tail_transport(node, x_low));
    return single_point(x_low, slack);
  }
  const std::size_t points = options.max_points;
  const std::size_t cells = points - 1;
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
  x_high = x_low + static_cast<double>(cells) * step;
  auto grid_point = [&](std::size_t i) {
    if (atom_mass > 0.0 && i == atom_index) return atom_position;
    return i == cells ? x_high : x_low + static_cast<double>(i) * step;
  };
  // Cumulative probabilities at the grid points: the cdf below the median, the survival
  // above (each accurate on its small side).
  Cumulative at_points{std::vector<double>(points), std::vector<double>(points)};
  if (const auto* erlang = std::get_if<Erlang>(&node.value)) {
    at_points = erlang_cumulative(*erlang, points, grid_point);
  } else {
    for (std::size_t i = 0; i < points; ++i) {
      const double x = grid_point(i);
      const double survival = closed_survival(node, x);
      at_points.survival[i] = survival;
      at_points.cdf[i] = survival < 0.5 ? 1.0 - survival : closed_cdf(node, x);
    }
  }
  // Cell i = (x_i, x_{i+1}]; pmf_from gives mass(x_{i-1}, x_i] at i (and F(x_0) at 0).
  std::vector<double> cell_at_right_end = pmf_from(at_points);
  Numerical result{x_low, step, std::vector<double>(points, 0.0), std::vector<double>(points, 0.0),
                   0.0};
  for (std::size_t i = 1; i < points; ++i) {
    result.lower[i - 1] = cell_at_right_end[i];  // left end of its cell: stochastically smaller
    result.upper[i] = cell_at_right_end[i];      // right end: stochastically larger
  }
  if (atom_mass > 0.0) {
    // The atom is in cell (x_{k-1}, x_k] with k = atom_index; in the lower lattice it may sit
    // at its true position x_k instead of x_{k-1} (still not above the truth).
    const double moved = std::min(atom_mass, result.lower[atom_index - 1]);
    result.lower[atom_index - 1] -= moved;
    result.lower[atom_index] += moved;
  }
  // Mass at or below x_0 sits at x_0 in both; mass above x_high at x_high in both.
  result.lower[0] += at_points.cdf[0];
  result.upper[0] += at_points.cdf[0];
  result.lower[cells] += at_points.survival[cells];
  result.upper[cells] += at_points.survival[cells];
  // Moving the lower tail up is unsafe for lower, moving the upper tail down unsafe for upper.
  const double lower_tail = x_low > support_low ? closed_lower_tail_transport(node, x_low) : 0.0;
  const double upper_tail =
      x_high < support_high ? closed_upper_tail_transport(node, x_high) : 0.0;
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

Numerical lattice_series(const Numerical& a, const Numerical& b, const GridOptions& options) {
  if (a.lower.size() == 1 || b.lower.size() == 1) {
    // Sum with a point mass is a shift; lattices differ only by the point's lattice mass.
    const bool a_is_point = a.lower.size() == 1;
    const Numerical& point = a_is_point ? a : b;
    Numerical result = a_is_point ? b : a;
    result.origin += point.origin;
    result.slack += point.slack;
    compact(result, options);
    return result;
  }
  const double step = std::max(a.step, b.step);
  auto on_step = [step](const Numerical& n) {
    if (n.step == step) return n;
    const double span = static_cast<double>(n.lower.size() - 1) * n.step;
    const auto size = static_cast<std::size_t>(std::ceil(span / step - kSnap)) + 1;
    return rebin(n, n.origin, step, size);
  };
  const Numerical ra = on_step(a);
  const Numerical rb = on_step(b);
  FftResult lower = convolve(ra.lower, rb.lower);
  FftResult upper = convolve(ra.upper, rb.upper);
  Numerical result{ra.origin + rb.origin, step, std::move(lower.pmf), std::move(upper.pmf),
                   ra.slack + rb.slack};
  normalise(result, 2.0 * std::max(lower.clamped_mass, upper.clamped_mass));
  compact(result, options);
  return result;
}

Numerical lattice_series_power(const Numerical& a, std::int64_t n, const GridOptions& options) {
  if (n == 0) return single_point(0.0, 0.0);
  if (n == 1) {
    Numerical copy = a;
    compact(copy, options);
    return copy;
  }
  if (a.lower.size() == 1) {
    return single_point(static_cast<double>(n) * a.origin, static_cast<double>(n) * a.slack);
  }
  const std::size_t budget = fft_budget(options);
  auto width = [&](const PowerPlan& plan) {
    return static_cast<std::size_t>(plan.window.last - plan.window.first + 1);
  };
  const PowerPlan plan = plan_power(a, n, options);
  if (width(plan) <= budget) {
    Numerical result = power_on_window(a, n, plan, options.tail_mass);
    compact(result, options);
    return result;
  }
  // The result at the base step would not fit one FFT: raise to the largest power of two m
  // whose window fits, coarsen, and continue with n / m copies of that (plus n % m of the
  // base). Each stage multiplies the count by m, so a few stages reach any n.
  std::int64_t m = 1;
  while (2 * m < n && width(plan_power(a, 2 * m, options)) <= budget) m *= 2;
  // m >= 2 here: two copies span 2N - 1 <= 2 max_points points, always within the budget.
  const Numerical stage = lattice_series_power(a, m, options);
  Numerical result = lattice_series_power(stage, n / m, options);
  if (n % m != 0) result = lattice_series(result, lattice_series_power(a, n % m, options), options);
  return result;
}

namespace {

// The maximum (cdf = F_a F_b) or the minimum (survival = S_a S_b) of two independent grids.
// The side that multiplies is exact; the other is 1 - the product of the complements,
// computed from the complements so that small tail probabilities keep their accuracy.
enum class Extreme { Maximum, Minimum };

Numerical lattice_extreme(const Numerical& a, const Numerical& b, const GridOptions& options, Extreme which) {
  const Numerical* parts[2] = {&a, &b};
  const CommonGrid grid = common_grid(parts, options.max_points);
  if (grid.size == 1) return single_point(grid.origin, a.slack + b.slack);
  const Numerical ra = rebin(a, grid.origin, grid.step, grid.size);
  const Numerical rb = rebin(b, grid.origin, grid.step, grid.size);
  auto combine = [which](std::span<const double> x, std::span<const double> y) {
    const Cumulative cx = cumulative_of(x);
    const Cumulative cy = cumulative_of(y);
    Cumulative c{std::vector<double>(x.size()), std::vector<double>(x.size())};
    const bool maximum = which == Extreme::Maximum;
    auto& product = maximum ? c.cdf : c.survival;
    auto& complement = maximum ? c.survival : c.cdf;
    const auto& px = maximum ? cx.cdf : cx.survival;
    const auto& py = maximum ? cy.cdf : cy.survival;
    const auto& qx = maximum ? cx.survival : cx.cdf;
    const auto& qy = maximum ? cy.survival : cy.cdf;
    for (std::size_t i = 0; i < x.size(); ++i) {
      product[i] = px[i] * py[i];
      complement[i] = qx[i] + qy[i] - qx[i] * qy[i];
    }
    return pmf_from(c);
  };
  Numerical result{grid.origin, grid.step, combine(ra.lower, rb.lower), combine(ra.upper, rb.upper),
                   ra.slack + rb.slack};
  normalise(result, 0.0);
  compact(result, options);
  return result;
}

}  // namespace

Numerical lattice_max(const Numerical& a, const Numerical& b, const GridOptions& options) {
  return lattice_extreme(a, b, options, Extreme::Maximum);
}

Numerical lattice_min(const Numerical& a, const Numerical& b, const GridOptions& options) {
  return lattice_extreme(a, b, options, Extreme::Minimum);
}

Numerical lattice_max_power(const Numerical& a, std::int64_t p, const GridOptions& options) {
  if (p == 1 || a.lower.size() == 1) {
    Numerical copy = a;
    copy.slack *= static_cast<double>(p);
    compact(copy, options);
    return copy;
  }
  const double power = static_cast<double>(p);
  auto raise = [power](std::span<const double> x) {
    const Cumulative cx = cumulative_of(x);
    Cumulative c{std::vector<double>(x.size()), std::vector<double>(x.size())};
    for (std::size_t i = 0; i < x.size(); ++i) {
      // F^p = exp(p log F); on the survival side log F = log1p(-S) keeps tiny S accurate.
      const double log_cdf =
          cx.survival[i] < 0.5 ? std::log1p(-cx.survival[i]) : std::log(cx.cdf[i]);
      c.cdf[i] = std::exp(power * log_cdf);
      c.survival[i] = -std::expm1(power * log_cdf);
    }
    return pmf_from(c);
  };
  Numerical result{a.origin, a.step, raise(a.lower), raise(a.upper), power * a.slack};
  normalise(result, 0.0);
  compact(result, options);
  return result;
}

Numerical lattice_mixture(std::span<const double> weights, std::span<const Numerical> parts,
                          const GridOptions& options) {
  std::vector<const Numerical*> pointers;
  for (const auto& p : parts) pointers.push_back(&p);
  const CommonGrid grid = common_grid(pointers, options.max_points);
  Numerical result{grid.origin, grid.step, std::vector<double>(grid.size, 0.0),
                   std::vector<double>(grid.size, 0.0), 0.0};
  for (std::size_t k = 0; k < parts.size(); ++k) {
    const Numerical r = rebin(parts[k], grid.origin, grid.step, grid.size);
    for (std::size_t i = 0; i < grid.size; ++i) {
      result.lower[i] += weights[k] * r.lower[i];
      result.upper[i] += weights[k] * r.upper[i];
    }
    result.slack += weights[k] * r.slack;
  }
  normalise(result, 0.0);
  compact(result, options);
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
