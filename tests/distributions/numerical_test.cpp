// The numerical grid path (forced through discretise), against exact values: the mean within
// 1e-4 relative, and the bracket containing the exact mean in every case.
#include <chrono>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

#include <boost/math/quadrature/exp_sinh.hpp>
#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <boost/math/special_functions/gamma.hpp>
#include <gtest/gtest.h>

#include "distributions/distribution.hpp"

namespace distributions {
namespace {

void expect_numerical_mean(const Distribution& d, double exact, const std::string& what) {
  const Bracket b = mean_bracket(d);
  EXPECT_LE(b.lower, exact) << what << ": bracket [" << b.lower << ", " << b.upper << "]";
  EXPECT_GE(b.upper, exact) << what << ": bracket [" << b.lower << ", " << b.upper << "]";
  EXPECT_LE(std::abs(mean(d) - exact), 1e-4 * std::abs(exact)) << what << ": mean " << mean(d) << " exact " << exact;
  EXPECT_TRUE(std::isfinite(variance(d))) << what;
}

TEST(Numerical, DiscretisedClosedFormsKeepTheirMean) {
  expect_numerical_mean(discretise(erlang(8, 1.0)), 8.0, "erlang");
  expect_numerical_mean(discretise(exponential(0.5)), 2.0, "exponential");
  expect_numerical_mean(discretise(uniform(1.0, 2.0)), 1.5, "uniform");
  expect_numerical_mean(discretise(hyperexponential({0.3, 0.7}, {0.5, 2.0})), 0.95, "hyperexp");
  // Very different rates: the grid is too coarse for the fast branch to meet 1e-4, but the
  // bracket still holds.
  const Distribution skewed = discretise(hyperexponential({0.1, 0.9}, {0.01, 1.0}));
  EXPECT_LE(mean_bracket(skewed).lower, 10.9);
  EXPECT_GE(mean_bracket(skewed).upper, 10.9);
  expect_numerical_mean(discretise(truncated_normal(1.0, 2.0)), mean(truncated_normal(1.0, 2.0)), "truncated normal");
  expect_numerical_mean(discretise(mixture({0.5, 0.5}, {deterministic(1.0), erlang(2, 1.0)})), 1.5,
                        "mixture with an atom");
  const Distribution d = discretise(erlang(8, 1.0));
  EXPECT_LE(grid_size(d), GridOptions{}.max_points);
  EXPECT_NEAR(variance(d), 8.0, 8.0 * 1e-4);
  EXPECT_NEAR(cdf(d, 8.0), boost::math::gamma_p(8.0, 8.0), 1e-4);
  EXPECT_NEAR(quantile(d, 0.9), boost::math::gamma_p_inv(8.0, 0.9), 1e-3);
}

// The Erlang grid's cell masses (quadrature of the density between exact end points) against
// the incomplete gamma function at every grid point, for small to huge phase counts.
TEST(Numerical, ErlangGridMatchesTheIncompleteGammaFunction) {
  for (const auto& [phases, rate] :
       std::vector<std::pair<int, double>>{{1, 2.0}, {8, 1.0}, {57, 0.25}, {1000, 3.0}, {800000000, 1.0}}) {
    const Distribution grid = discretise(erlang(phases, rate));
    const LatticeView view = lattice(grid);
    double below = 0.0;  // lower lattice: the mass of (x_i, x_{i+1}] sits at x_i
    for (std::size_t i = 0; i + 1 < view.lower.size(); ++i) {
      below += view.lower[i];
      const double x = view.origin + static_cast<double>(i + 1) * view.step;
      const double exact = boost::math::gamma_p(static_cast<double>(phases), rate * x);
      ASSERT_NEAR(below, exact, 1e-12) << "k = " << phases << ", point " << i + 1;
    }
  }
}

TEST(Numerical, SeriesPowerOfErlang) {
  const Distribution task = discretise(erlang(8, 1.0));
  for (std::int64_t n : {2, 3, 10, 100, 1000, 12345, 100000, 1000000}) {
    const Distribution total = series_power(task, n);
    ASSERT_FALSE(is_closed_form(total));
    EXPECT_LE(grid_size(total), GridOptions{}.max_points);
    expect_numerical_mean(total, 8.0 * static_cast<double>(n), "series_power n=" + std::to_string(n));
    EXPECT_NEAR(variance(total) / (8.0 * static_cast<double>(n)), 1.0, 2e-3) << n;
  }
}

// Issue 12: a sum of 2e11 Erlang-8 tasks (the paper's example with 1e11 columns on one
// processor) was an Erlang of 1.6e12 phases, whose cdf Boost.Math cannot evaluate ("series
// evaluation exceeded 1000000 iterations"). Sums stay closed to 1e10 phases, where the
// incomplete gamma function holds (checked against it below), and go numerical beyond, where
// the bracket still contains the exact mean k·n/rate, and that of the maximum of two such
// sums, K + σ/√π (σ² = K: two iid laws nearly normal, E[max] = μ + σ/√π).
TEST(Numerical, ErlangSumsBeyondTenBillionPhasesGoNumerical) {
  const Distribution largest_closed = series_power(erlang(8, 1.0), 1'250'000'000);
  ASSERT_TRUE(is_closed_form(largest_closed));
  const LatticeView view = lattice(discretise(largest_closed));
  double below = 0.0;
  for (std::size_t i = 0; i + 1 < view.lower.size(); ++i) {
    below += view.lower[i];
    const double x = view.origin + static_cast<double>(i + 1) * view.step;
    if (i % 97 == 0) {
      ASSERT_NEAR(below, boost::math::gamma_p(1e10, x), 1e-12) << "point " << i + 1;
    }
  }
  for (const double n : {2e11, 1e15}) {
    const Distribution total = series_power(erlang(8, 1.0), static_cast<std::int64_t>(n));
    EXPECT_FALSE(is_closed_form(total));
    const double k = 8.0 * n;
    const Bracket sum = mean_bracket(total);
    EXPECT_LE(sum.lower, k);
    EXPECT_GE(sum.upper, k);
    EXPECT_LE(sum.upper - sum.lower, 1e-2 * k) << n;
    EXPECT_TRUE(std::isfinite(variance(total)));
    const Bracket larger = mean_bracket(parallel(total, total));
    EXPECT_LE(larger.lower, k + std::sqrt(k / M_PI)) << n;
    EXPECT_GE(larger.upper, k + std::sqrt(k / M_PI)) << n;
  }
}

TEST(Numerical, SeriesOfErlangsByRepeatedSums) {
  const Distribution task = discretise(erlang(8, 1.0));
  Distribution total = task;
  for (int n = 2; n <= 200; ++n) total = series(total, task);
  expect_numerical_mean(total, 1600.0, "200 sums");
  // A closed operand is discretised on the fly.
  expect_numerical_mean(series(task, erlang(8, 0.5)), 24.0, "grid + closed");
}

TEST(Numerical, SumsOfUniformsAndExponentials) {
  expect_numerical_mean(series_power(discretise(uniform(0.0, 1.0)), 1000), 500.0, "uniform sum");
  expect_numerical_mean(series_power(discretise(exponential(2.0)), 5000), 2500.0, "exp sum");
  expect_numerical_mean(series(discretise(uniform(1.0, 3.0)), discretise(exponential(1.0))), 3.0, "uniform + exp");
}

double expected_max_of_erlangs(int k, std::int64_t p) {
  // E[max] = int_0^inf 1 - F(x)^p dx, by double-exponential quadrature.
  boost::math::quadrature::exp_sinh<double> integrator;
  auto integrand = [&](double x) {
    const double f = boost::math::gamma_p(static_cast<double>(k), x);
    return -std::expm1(static_cast<double>(p) * std::log(f));
  };
  return integrator.integrate(integrand, 1e-13);
}

TEST(Numerical, MaxOfErlangsAgainstQuadrature) {
  const Distribution task = erlang(8, 1.0);
  Distribution running = discretise(task);
  for (std::int64_t p = 2; p <= 64; ++p) {
    const double exact = expected_max_of_erlangs(8, p);
    expect_numerical_mean(parallel_power(task, p), exact, "parallel_power p=" + std::to_string(p));
    running = parallel(running, task);
    expect_numerical_mean(running, exact, "repeated parallel p=" + std::to_string(p));
  }
}

TEST(Numerical, MaxOfExponentialsIsHarmonic) {
  const double rate = 0.5;
  const Distribution task = discretise(exponential(rate));
  double harmonic = 1.0;
  for (std::int64_t p = 2; p <= 1000; ++p) {
    harmonic += 1.0 / static_cast<double>(p);
    if (p <= 16 || p % 97 == 0 || p == 1000) {
      expect_numerical_mean(parallel_power(task, p), harmonic / rate, "p=" + std::to_string(p));
    }
  }
}

TEST(Numerical, MaxOfUniforms) {
  const double a = 2.0;
  const double b = 5.0;
  const Distribution task = discretise(uniform(a, b));
  for (std::int64_t p : {2, 5, 50, 500}) {
    const double exact = a + (b - a) * static_cast<double>(p) / static_cast<double>(p + 1);
    expect_numerical_mean(parallel_power(task, p), exact, "uniform max p=" + std::to_string(p));
  }
  // min of two uniforms on [a, b]: a + (b - a) / 3.
  expect_numerical_mean(minimum(task, task), a + (b - a) / 3.0, "uniform min");
}

TEST(Numerical, MinimumOfExponentials) {
  expect_numerical_mean(minimum(discretise(exponential(1.0)), discretise(exponential(3.0))), 0.25,
                        "min of exponentials");
}

TEST(Numerical, ScaleShiftMixtureOfGrids) {
  const Distribution g = discretise(erlang(8, 1.0));
  expect_numerical_mean(scale(g, 3.0), 24.0, "scale");
  expect_numerical_mean(shift(g, 100.0), 108.0, "shift");
  expect_numerical_mean(mixture({0.3, 0.7}, {g, discretise(uniform(10.0, 20.0))}), 0.3 * 8 + 0.7 * 15, "mixture");
  expect_numerical_mean(series(g, deterministic(2.0)), 10.0, "grid + point");
}

TEST(Numerical, SamplesAndHistograms) {
  std::mt19937_64 rng(42);
  std::gamma_distribution<double> gamma(8.0, 1.0);
  std::vector<double> samples(20000);
  for (double& s : samples) s = gamma(rng);
  const double n = static_cast<double>(samples.size());
  const double sample_mean = std::accumulate(samples.begin(), samples.end(), 0.0) / n;
  double sum_squares = 0.0;
  for (double s : samples) sum_squares += (s - sample_mean) * (s - sample_mean);
  const double sample_variance = sum_squares / n;  // the empirical law's own variance
  const Distribution empirical = from_samples(samples);
  expect_numerical_mean(empirical, sample_mean, "from_samples");
  EXPECT_NEAR(variance(empirical), sample_variance, 1e-3 * sample_variance);

  const std::vector<double> values = {1.0, 2.0, 4.0};
  const std::vector<double> weights = {1.0, 2.0, 1.0};
  const Distribution histogram = from_histogram(values, weights);
  expect_numerical_mean(histogram, 2.25, "from_histogram");
  EXPECT_NEAR(variance(histogram), (1.0 + 8.0 + 16.0) / 4.0 - 2.25 * 2.25, 1e-3);
  // Sums of measured distributions: the mean adds up.
  expect_numerical_mean(series_power(histogram, 1000), 2250.0, "histogram power");
  expect_numerical_mean(from_samples(std::vector<double>{3.0, 3.0}), 3.0, "constant samples");
}

TEST(Numerical, LongChainsStayBounded) {
  const GridOptions options{.max_points = 1024};
  const Distribution task = erlang(8, 1.0);
  Distribution chain = discretise(task, options);
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < 1000; ++i) {
    chain = i % 2 == 0 ? series(chain, task, options) : parallel(chain, task, options);
    ASSERT_LE(grid_size(chain), options.max_points) << i;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const Bracket b = mean_bracket(chain);
  EXPECT_TRUE(std::isfinite(b.lower) && std::isfinite(b.upper));
  EXPECT_LE(b.lower, mean(chain));
  EXPECT_GE(b.upper, mean(chain));
  // The first task and 500 series steps add 8 each; a max never lowers the mean, and it adds
  // at most E[Erlang(8, 1)] = 8.
  EXPECT_GE(b.upper, 8.0 * 501);
  EXPECT_LE(b.lower, 8.0 * 1001);
  // Each series with a task much narrower than the chain's grid step costs up to one step of
  // bracket width: after 500 of them on 1024 points the bracket is still within 20%.
  EXPECT_LE(b.upper - b.lower, 0.2 * mean(chain));
  RecordProperty("chain_seconds", std::to_string(seconds));

  // A chain with a known answer: 1000 sums of uniforms through series.
  Distribution sum = discretise(uniform(0.0, 1.0), options);
  for (int i = 1; i < 1000; ++i) sum = series(sum, discretise(uniform(0.0, 1.0), options), options);
  // 1000 rebinnings onto a coarser grid: the midpoint is no longer second-order accurate
  // (rounding positions of the fine operand do not cancel exactly); the bracket still holds.
  EXPECT_LE(mean_bracket(sum).lower, 500.0);
  EXPECT_GE(mean_bracket(sum).upper, 500.0);
  EXPECT_NEAR(mean(sum), 500.0, 500.0 * 1e-3);
  EXPECT_LE(grid_size(sum), options.max_points);
}

TEST(Numerical, DifferentGridsCombineSafely) {
  const Distribution fine = discretise(erlang(8, 1.0), GridOptions{.max_points = 4096});
  const Distribution coarse = discretise(uniform(0.0, 100.0), GridOptions{.max_points = 37});
  expect_numerical_mean(series(fine, coarse), 58.0, "fine + coarse");
  // E[max(Erlang(8,1), U(0,100))] = int_0^100 1 - F(x) x/100 dx + ... computed by quadrature.
  // Beyond 100 the integrand is the Erlang survival, below 1e-30: negligible.
  const double exact = boost::math::quadrature::gauss_kronrod<double, 61>::integrate(
      [](double x) { return 1.0 - boost::math::gamma_p(8.0, x) * x / 100.0; }, 0.0, 100.0, 15, 1e-13);
  const Distribution m = parallel(fine, coarse);
  const Bracket b = mean_bracket(m);
  EXPECT_LE(b.lower, exact);
  EXPECT_GE(b.upper, exact);
}

}  // namespace
}  // namespace distributions
