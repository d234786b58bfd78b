// The series-parallel operations on bracketing lattice pairs: sum (convolution), n-fold sum
// (FFT power on a Chernoff window), maximum, minimum, p-fold maximum and mixture. See
// docs/distributions.md for the bracket argument.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <vector>

#include "distributions/lattice.hpp"
#include "distributions/lattice_grid.hpp"

namespace distributions::detail {

namespace {

// Chernoff window of the n-fold sum S of index-valued J ~ pmf: indices [first, last] outside
// of which the transport of the wrapped mass, P(S beyond) * span + E[distance beyond], is at
// most target on each side (both bounds from the lattice's own moment generating function).
struct Window {
  std::int64_t first;
  std::int64_t last;
};
class ChernoffWindow {
 public:
  explicit ChernoffWindow(std::span<const double> pmf) {
    std::size_t i = 0;
    while (i < pmf.size() && pmf[i] == 0.0) ++i;
    min_index_ = i;
    std::size_t j = pmf.size();
    while (j > i && pmf[j - 1] == 0.0) --j;
    max_index_ = j - 1;
    support_.assign(pmf.begin() + static_cast<std::ptrdiff_t>(min_index_),
                    pmf.begin() + static_cast<std::ptrdiff_t>(j));
    reversed_.assign(support_.rbegin(), support_.rend());
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
  // log E[exp(theta J)], shifted by the extreme index to avoid overflow: every factor
  // e^{theta (j - pivot)} is at most 1. The relative rounding of the running products, below
  // 1e-12 here, is covered by the factor 4 of safety in PowerPlanner's target.
  double log_mgf(double theta) const {
    if (theta > 0.0)
      return theta * static_cast<double>(max_index_) + std::log(geometric_sum(reversed_, std::exp(-theta)));
    return theta * static_cast<double>(min_index_) + std::log(geometric_sum(support_, std::exp(theta)));
  }

  // sum_i values[i] ratio^i in kLanes independent running products: one chain of dependent
  // multiplications was latency-bound, and this is a quarter of the quantiles' time.
  static double geometric_sum(const std::vector<double>& values, double ratio) {
    constexpr std::size_t kLanes = 8;
    std::array<double, kLanes> factor{};
    std::array<double, kLanes> sum{};
    factor[0] = 1.0;
    for (std::size_t l = 1; l < kLanes; ++l) factor[l] = factor[l - 1] * ratio;
    const double stride = factor[kLanes - 1] * ratio;
    std::size_t i = 0;
    for (; i + kLanes <= values.size(); i += kLanes) {
      for (std::size_t l = 0; l < kLanes; ++l) {
        sum[l] += values[i + l] * factor[l];
        factor[l] *= stride;
      }
    }
    double total = 0.0;
    for (std::size_t l = 0; l < kLanes; ++l) total += sum[l];
    for (double f = factor[0]; i < values.size(); ++i, f *= ratio) total += values[i] * f;
    return total;
  }

  // A scan over log theta, then golden-section refinement around the best point; any theta
  // gives a valid bound, so an imperfect minimum only costs a slightly wider window. 17 + 24
  // evaluations end within 0.6% of the best theta (log theta within 4 * 0.618^12): half of the
  // earlier 33 + 48, whose last ones moved the window by no index.
  template <class F>
  static double minimise_over_theta(F f) {
    const double log_low = std::log(1e-12);
    const double log_high = std::log(50.0);
    constexpr int kScan = 16;
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
    for (int iteration = 0; iteration < 12; ++iteration) {
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

  std::vector<double> support_;   // the pmf from its first to its last nonzero point
  std::vector<double> reversed_;  // the same, last point first
  std::size_t min_index_ = 0;
  std::size_t max_index_ = 0;
};

std::size_t fft_budget(const GridOptions& options) {
  return std::max<std::size_t>(8 * options.max_points, std::size_t{1} << 15);
}

struct PowerPlan {
  Window window;
  bool exact;  // the window is the whole support: nothing wraps
  std::size_t width() const { return static_cast<std::size_t>(window.last - window.first + 1); }
};

// The windows of n-fold sums of one lattice pair, for every n asked, each computed once: the
// search for the largest power that fits one FFT asks for the same n as the power itself.
class PowerPlanner {
 public:
  PowerPlanner(const Numerical& a, const GridOptions& options)
      : a_(a), options_(options), lower_(a.lower), upper_(a.upper) {}

  const PowerPlan& plan(std::int64_t n) {
    auto found = plans_.find(n);
    if (found == plans_.end()) found = plans_.emplace(n, make_plan(n)).first;
    return found->second;
  }

 private:
  PowerPlan make_plan(std::int64_t n) const {
    const double full_width = static_cast<double>(n) * static_cast<double>(a_.lower.size() - 1) + 1.0;
    if (full_width <= static_cast<double>(fft_budget(options_))) {
      return {{0, static_cast<std::int64_t>(full_width) - 1}, true};
    }
    // A window per lattice (each needs its own moment generating function for a rigorous
    // bound), the union is used; the target is a quarter of tail_mass, which absorbs the
    // rounding of the running products in log_mgf with a wide margin.
    const double target = 0.25 * options_.tail_mass;
    const Window wl = lower_.window(n, target);
    const Window wu = upper_.window(n, target);
    return {{std::min(wl.first, wu.first), std::max(wl.last, wu.last)}, false};
  }

  const Numerical& a_;
  const GridOptions& options_;
  ChernoffWindow lower_;
  ChernoffWindow upper_;
  std::map<std::int64_t, PowerPlan> plans_;
};

Numerical power_on_window(const Numerical& a, std::int64_t n, const PowerPlan& plan, double tail_mass) {
  const std::size_t size = plan.width();
  FftResult lower = convolution_power_window(a.lower, n, plan.window.first, size);
  FftResult upper = convolution_power_window(a.upper, n, plan.window.first, size);
  Numerical result{static_cast<double>(n) * a.origin + static_cast<double>(plan.window.first) * a.step, a.step,
                   std::move(lower.pmf), std::move(upper.pmf), static_cast<double>(n) * a.slack};
  // Mass wrapped in from outside the window: ChernoffWindow chose it so that the transport is
  // at most tail_mass index units on each side of each lattice.
  if (!plan.exact) result.slack += 2.0 * tail_mass * a.step;
  // Round-off: the clamped negatives measure it; count them twice (positive errors too).
  normalise(result, 2.0 * std::max(lower.clamped_mass, upper.clamped_mass));
  return result;
}

}  // namespace

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
  Numerical result{ra.origin + rb.origin, step, std::move(lower.pmf), std::move(upper.pmf), ra.slack + rb.slack};
  normalise(result, 2.0 * std::max(lower.clamped_mass, upper.clamped_mass));
  compact(result, options);
  return result;
}

namespace {

// The n-fold sum of `a`, whose windows `planner` gives (n >= 1).
Numerical planned_series_power(const Numerical& a, PowerPlanner& planner, std::int64_t n, const GridOptions& options) {
  if (n == 1) {
    Numerical copy = a;
    compact(copy, options);
    return copy;
  }
  const std::size_t budget = fft_budget(options);
  if (planner.plan(n).width() <= budget) {
    Numerical result = power_on_window(a, n, planner.plan(n), options.tail_mass);
    compact(result, options);
    return result;
  }
  // The result at the base step would not fit one FFT: raise to the largest power of two m
  // whose window fits, coarsen, and continue with n / m copies of that (plus n % m of the
  // base). Each stage multiplies the count by m, so a few stages reach any n.
  std::int64_t m = 1;
  while (2 * m < n && planner.plan(2 * m).width() <= budget) m *= 2;
  // m >= 2 here: two copies span 2N - 1 <= 2 max_points points, always within the budget.
  const Numerical stage = planned_series_power(a, planner, m, options);
  Numerical result = lattice_series_power(stage, n / m, options);
  if (n % m != 0) result = lattice_series(result, planned_series_power(a, planner, n % m, options), options);
  return result;
}

}  // namespace

Numerical lattice_series_power(const Numerical& a, std::int64_t n, const GridOptions& options) {
  if (n == 0) return single_point(0.0, 0.0);
  if (n > 1 && a.lower.size() == 1) {
    return single_point(static_cast<double>(n) * a.origin, static_cast<double>(n) * a.slack);
  }
  PowerPlanner planner(a, options);
  return planned_series_power(a, planner, n, options);
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
      const double log_cdf = cx.survival[i] < 0.5 ? std::log1p(-cx.survival[i]) : std::log(cx.cdf[i]);
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
  Numerical result{grid.origin, grid.step, std::vector<double>(grid.size, 0.0), std::vector<double>(grid.size, 0.0),
                   0.0};
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

}  // namespace distributions::detail
