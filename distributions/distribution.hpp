// Runtime distributions of tasks and the series-parallel operations on them.
//
// A Distribution is an immutable value (a shared pointer to a const representation), cheap to
// copy and safe to share between threads. It is either a closed form (deterministic,
// exponential, Erlang, hypoexponential, hyperexponential, uniform, truncated normal,
// phase-type, mixture, shifted closed form) whose mean, variance and cdf are exact, or a
// numerical grid: two lattice pmfs on one uniform grid that bracket the truth in the usual
// stochastic order (see docs/distributions.md for the bracket argument).
//
// Parameter conventions: times are in the program's time unit, rates are events per time
// unit, so exponential(rate) has mean 1/rate and erlang(phases, rate) has mean phases/rate.
// Every factory and operation validates its input and throws std::invalid_argument with a
// message naming the offending parameter; no function returns NaN.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace distributions {

namespace detail {
struct Node;  // the representation, defined in representation.hpp
}

// Options of the numerical grid. Passed explicitly to every function that may build a grid.
struct GridOptions {
  // Largest number of grid points kept after any operation (>= 16). Grids are coarsened by an
  // integer factor to stay within it. Memory and time grow as max_points (log max_points).
  std::size_t max_points = 4096;
  // Probability mass left out at each end when a closed form with unbounded support is
  // discretised (between quantile(tail_mass) and quantile(1 - tail_mass)), and the mass below
  // which tails are trimmed after an operation. Must lie in (0, 1e-3]. The transport cost of
  // the mass moved is always accounted for in the bracket's slack.
  double tail_mass = 1e-15;

  // True when the options are usable; otherwise false and, if why != nullptr, a message.
  bool IsValid(std::string* why) const;
};

class Distribution {
 public:
  // The point mass at 0.
  Distribution();
  explicit Distribution(std::shared_ptr<const detail::Node> node);

  // The representation, for samplers and the library itself.
  const detail::Node& node() const { return *node_; }

 private:
  std::shared_ptr<const detail::Node> node_;
};

// ---- Factories -------------------------------------------------------------------------
Distribution deterministic(double value);                 // value >= 0, finite
Distribution exponential(double rate);                    // rate > 0, finite
Distribution erlang(int phases, double rate);             // phases >= 1; mean phases/rate
                                                          // (series_power keeps Erlangs
                                                          // with 64-bit phase counts)
Distribution hypoexponential(std::vector<double> rates);  // series of exponential stages
Distribution hyperexponential(std::vector<double> probabilities, std::vector<double> rates);
Distribution uniform(double low, double high);           // 0 <= low <= high
Distribution truncated_normal(double mu, double sigma);  // N(mu, sigma) given >= 0; sigma > 0
Distribution lognormal(double mu, double sigma);         // ln X ~ N(mu, sigma); sigma > 0
Distribution weibull(double shape, double scale);        // P(X > x) = exp(-(x/scale)^shape); both > 0
Distribution pareto(double alpha, double scale);         // P(X > x) = (scale/x)^alpha, x >= scale > 0; alpha > 2
// Continuous phase-type: initial vector alpha (>= 0, sum <= 1; the rest is an atom at 0) and
// subgenerator T (square, negative diagonal, non-negative off-diagonal, row sums <= 0, and
// absorption reachable from every state).
Distribution phase_type(std::vector<double> alpha, std::vector<std::vector<double>> subgenerator);
// Probabilistic branching: weights >= 0 summing to 1 within 1e-9.
Distribution mixture(std::vector<double> weights, std::vector<Distribution> components);
// Empirical distribution of measured runtimes (finite, >= 0, at least one).
Distribution from_samples(std::span<const double> samples, const GridOptions& options = {});
// Histogram: point masses weights[i] at values[i] (values finite >= 0, weights finite >= 0,
// positive total; weights are normalised).
Distribution from_histogram(std::span<const double> values, std::span<const double> weights,
                            const GridOptions& options = {});
// The numerical grid version of any distribution.
Distribution discretise(const Distribution& d, const GridOptions& options = {});

// ---- Operations (series-parallel reduction) --------------------------------------------
// All operands are independent. Closed forms are kept where the result is exactly one.
Distribution series(const Distribution& a, const Distribution& b, const GridOptions& options = {});
// n-fold convolution power (sum of n iid copies), n >= 0 (n = 0 gives the point mass at 0).
Distribution series_power(const Distribution& a, std::int64_t n, const GridOptions& options = {});
// Maximum of independent a and b: cdf = F_a * F_b.
Distribution parallel(const Distribution& a, const Distribution& b, const GridOptions& options = {});
// Maximum of p iid copies (p >= 1): cdf = F^p.
Distribution parallel_power(const Distribution& a, std::int64_t p, const GridOptions& options = {});
Distribution minimum(const Distribution& a, const Distribution& b, const GridOptions& options = {});
// factor * X (the machine's RTFactor), factor > 0 and finite.
Distribution scale(const Distribution& a, double factor);
// X + offset, offset finite.
Distribution shift(const Distribution& a, double offset);

// ---- Queries ---------------------------------------------------------------------------
struct Bracket {
  double lower;
  double upper;
};

double mean(const Distribution& d);
double variance(const Distribution& d);
double cdf(const Distribution& d, double x);       // P(X <= x)
double quantile(const Distribution& d, double q);  // q in [0, 1]; quantile(1) may be +inf
// An interval that contains the exact mean; lower == upper == the exact mean for closed forms.
Bracket mean_bracket(const Distribution& d);
bool is_closed_form(const Distribution& d);

// A distribution prepared for many cdf and quantile queries (a mixture's quantiles): a grid's
// prefix sums are made once, so that a cdf costs O(1) instead of O(grid points). Its values are
// those of cdf() and quantile(), to the bit.
class CdfTable {
 public:
  explicit CdfTable(Distribution d);
  double cdf(double x) const;
  double quantile(double q) const;

 private:
  Distribution d_;
  std::vector<double> lower_below_, upper_below_;  // a grid's prefix sums; empty for a closed form
  double half_gap_ = 0.0;                          // half the gap between a grid's lattice means (its central estimate)
};

// E.g. "Erlang(k=8, rate=1)", "numerical(4096 points, step 0.01)".
std::string describe(const Distribution& d);

// ---- Inspection of numerical grids ------------------------------------------------------
// The bracketing lattices: point i is at origin + i * step (step is 0 for a single point);
// lower <=st truth <=st upper up to a transport (Wasserstein-1) distance of slack.
struct LatticeView {
  double origin;
  double step;
  std::span<const double> lower;
  std::span<const double> upper;
  double slack;
};
// The lattices of a numerical distribution; throws std::invalid_argument for a closed form.
LatticeView lattice(const Distribution& d);
// Number of grid points (0 for a closed form).
std::size_t grid_size(const Distribution& d);

}  // namespace distributions
