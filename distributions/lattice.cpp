// Numerical grids: their moments, trimming and coarsening, and the helpers shared by the
// grid files (lattice_grid.hpp). See docs/distributions.md for the bracket argument.
#include "distributions/lattice.hpp"
#include "distributions/errors.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>

#include "distributions/lattice_grid.hpp"

namespace distributions::detail {

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
  const double moved = std::max(std::abs(1.0 - total_lower), std::abs(1.0 - total_upper)) + extra_noise_mass;
  n.slack += moved * span_of(n);
}

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

// Differences of the small side.
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

void rebin_into(std::span<const double> pmf, double origin, double step, double to_origin, double to_step,
                bool round_up, std::vector<double>& out) {
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
  Numerical result{to_origin, to_step, std::vector<double>(size, 0.0), std::vector<double>(size, 0.0),
                   n.slack + kSnap * to_step};
  rebin_into(n.lower, n.origin, n.step, to_origin, to_step, false, result.lower);
  rebin_into(n.upper, n.origin, n.step, to_origin, to_step, true, result.upper);
  return result;
}

// One grid for several lattices: the step is the largest step (a multiple of it if the grid
// would otherwise exceed the size limit), aligned with a lattice having that step so that it
// is copied exactly; the others are rebinned in the safe direction.
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
  // A support past the largest double (a sum of runtimes near 1e308) has no grid: every
  // coarsening below would multiply the step by inf or NaN and never fit.
  if (!std::isfinite(low) || !std::isfinite(high)) {
    throw SupportOverflow("distributions: a support reaches beyond the largest finite number");
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
    if (!std::isfinite(step)) throw SupportOverflow("distributions: a grid step is beyond the largest finite number");
  }
}

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

namespace {

// Cuts off each end of the grid where both lattices have at most `tau` of their mass and
// moves that mass onto the new end points, the unsafe part of the move going into the slack.
void trim_tails(Numerical& n, double tau) {
  const std::size_t size = n.lower.size();
  // Left end: the first index such that both lattices have at most tau below it.
  std::size_t first = 0;
  {
    double lower_mass = 0.0;
    double upper_mass = 0.0;
    while (first + 1 < size && lower_mass + n.lower[first] <= tau && upper_mass + n.upper[first] <= tau) {
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
}

// Coarsen by an integer factor to at most max_points: the new grid is a sub-grid of the old
// one, lower mass goes down to the sub-grid point at or below, upper mass up to the one at or
// above.
void coarsen(Numerical& n, std::size_t max_points) {
  const std::size_t kept = n.lower.size();
  const std::size_t factor = (kept - 1 + max_points - 2) / (max_points - 1);
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

}  // namespace

void compact(Numerical& n, const GridOptions& options) {
  if (n.lower.size() <= 1) return;
  trim_tails(n, options.tail_mass);
  if (n.lower.size() > options.max_points) coarsen(n, options.max_points);
}

}  // namespace distributions::detail
