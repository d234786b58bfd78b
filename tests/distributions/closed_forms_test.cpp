// Closed forms and their fast paths, against exact values computed independently here.
#include <cmath>
#include <numbers>

#include <boost/math/distributions/normal.hpp>
#include <boost/math/special_functions/gamma.hpp>
#include <gtest/gtest.h>

#include "distributions/distribution.hpp"

namespace distributions {
namespace {

void expect_relative(double actual, double exact, double tolerance) {
  EXPECT_LE(std::abs(actual - exact), tolerance * std::abs(exact)) << "actual " << actual << " exact " << exact;
}

void expect_exact_bracket(const Distribution& d, double exact) {
  const Bracket b = mean_bracket(d);
  EXPECT_LE(b.lower, exact * (1 + 1e-12)) << describe(d);
  EXPECT_GE(b.upper, exact * (1 - 1e-12)) << describe(d);
  expect_relative(mean(d), exact, 1e-6);
}

TEST(ClosedForms, SumOfErlangsIsErlangViaSeries) {
  const Distribution task = erlang(8, 1.0);
  Distribution total = task;
  for (int n = 2; n <= 50; ++n) {
    total = series(total, task);
    ASSERT_TRUE(is_closed_form(total));
    expect_exact_bracket(total, 8.0 * n);
  }
  EXPECT_EQ(describe(total), "Erlang(k=400, rate=1)");
}

TEST(ClosedForms, SeriesPowerOfErlangIsErlang) {
  for (std::int64_t n : {1, 2, 10, 1000, 100000, 1000000}) {
    const Distribution total = series_power(erlang(8, 2.0), n);
    ASSERT_TRUE(is_closed_form(total)) << n;
    expect_exact_bracket(total, 8.0 * static_cast<double>(n) / 2.0);
    expect_relative(variance(total), 8.0 * static_cast<double>(n) / 4.0, 1e-12);
  }
  EXPECT_EQ(describe(series_power(exponential(1.0), 5)), "Erlang(k=5, rate=1)");
}

TEST(ClosedForms, HugeErlangCdfAndQuantile) {
  const Distribution big = series_power(erlang(8, 1.0), 100'000'000);  // k = 8e8
  const double k = 8e8;
  expect_relative(mean(big), k, 1e-15);
  expect_relative(cdf(big, k), boost::math::gamma_p(k, k), 1e-9);
  expect_relative(quantile(big, 0.5), boost::math::gamma_p_inv(k, 0.5), 1e-12);
  const Distribution grid = discretise(big);
  const Bracket b = mean_bracket(grid);
  EXPECT_LE(b.lower, k);
  EXPECT_GE(b.upper, k);
  expect_relative(mean(grid), k, 1e-6);
}

TEST(ClosedForms, MaxOfExponentialsIsHarmonic) {
  for (std::int64_t p : {1, 2, 3, 10, 64, 1000}) {
    const double rate = 2.5;
    double harmonic = 0.0;
    double second = 0.0;
    for (std::int64_t j = 1; j <= p; ++j) {
      harmonic += 1.0 / static_cast<double>(j);
      second += 1.0 / static_cast<double>(j * j);
    }
    const Distribution m = parallel_power(exponential(rate), p);
    ASSERT_TRUE(is_closed_form(m));
    expect_exact_bracket(m, harmonic / rate);
    expect_relative(variance(m), second / (rate * rate), 1e-12);
    // cdf is (1 - e^{-rate x})^p.
    const double x = 1.3;
    expect_relative(cdf(m, x), std::pow(1.0 - std::exp(-rate * x), static_cast<double>(p)), 1e-12);
    expect_relative(cdf(m, quantile(m, 0.3)), 0.3, 1e-10);
  }
}

TEST(ClosedForms, HypoexponentialMomentsAndCdf) {
  const Distribution h = hypoexponential({1.0, 2.0});
  expect_exact_bracket(h, 1.5);
  expect_relative(variance(h), 1.25, 1e-12);
  // Distinct rates a, b: F(x) = 1 - (b e^{-ax} - a e^{-bx}) / (b - a).
  for (double x : {0.1, 1.0, 3.0, 10.0}) {
    const double exact = 1.0 - (2.0 * std::exp(-x) - std::exp(-2.0 * x));
    expect_relative(cdf(h, x), exact, 1e-10);
  }
  // Series of an Erlang and an exponential of another rate: a hypoexponential.
  const Distribution s = series(erlang(3, 1.0), exponential(4.0));
  EXPECT_TRUE(is_closed_form(s));
  expect_exact_bracket(s, 3.25);
}

TEST(ClosedForms, PhaseTypeMatchesErlang) {
  // Erlang(3, 2) written as a phase-type.
  const Distribution ph = phase_type({1.0, 0.0, 0.0}, {{-2.0, 2.0, 0.0}, {0.0, -2.0, 2.0}, {0.0, 0.0, -2.0}});
  expect_exact_bracket(ph, 1.5);
  expect_relative(variance(ph), 0.75, 1e-12);
  for (double x : {0.01, 0.5, 1.5, 4.0, 20.0}) {
    expect_relative(cdf(ph, x), boost::math::gamma_p(3.0, 2.0 * x), 1e-9);
  }
  expect_relative(quantile(ph, 0.9), boost::math::gamma_p_inv(3.0, 0.9) / 2.0, 1e-9);
}

TEST(ClosedForms, HyperexponentialAndUniformAndDeterministic) {
  const Distribution h = hyperexponential({0.3, 0.7}, {1.0, 5.0});
  expect_exact_bracket(h, 0.3 + 0.7 / 5.0);
  expect_relative(cdf(h, 1.0), 1.0 - 0.3 * std::exp(-1.0) - 0.7 * std::exp(-5.0), 1e-14);
  const Distribution u = uniform(2.0, 6.0);
  expect_exact_bracket(u, 4.0);
  expect_relative(variance(u), 16.0 / 12.0, 1e-14);
  EXPECT_DOUBLE_EQ(quantile(u, 0.25), 3.0);
  const Distribution d = deterministic(3.0);
  expect_exact_bracket(d, 3.0);
  EXPECT_EQ(cdf(d, 2.999), 0.0);
  EXPECT_EQ(cdf(d, 3.0), 1.0);
}

TEST(ClosedForms, TruncatedNormalMoments) {
  for (double mu : {3.0, 0.0, -2.0, -20.0}) {
    const double sigma = 1.5;
    const Distribution t = truncated_normal(mu, sigma);
    const boost::math::normal standard;
    const double alpha = -mu / sigma;
    const double tail = boost::math::cdf(boost::math::complement(standard, alpha));
    const double lambda = boost::math::pdf(standard, alpha) / tail;
    expect_exact_bracket(t, mu + sigma * lambda);
    expect_relative(variance(t), sigma * sigma * (1 + alpha * lambda - lambda * lambda), 1e-6);
    const double x = std::max(mu, 0.0) + 0.5;
    const double exact_cdf = 1.0 - boost::math::cdf(boost::math::complement(standard, (x - mu) / sigma)) / tail;
    expect_relative(cdf(t, x), exact_cdf, 1e-9);
  }
}

TEST(ClosedForms, MixtureIsExact) {
  const Distribution m = mixture({0.25, 0.75}, {erlang(2, 1.0), deterministic(10.0)});
  ASSERT_TRUE(is_closed_form(m));
  expect_exact_bracket(m, 0.25 * 2.0 + 0.75 * 10.0);
  // E[X^2] = 0.25 * (2 + 4) + 0.75 * 100.
  const double second = 0.25 * 6.0 + 75.0;
  const double m1 = 8.0;
  expect_relative(variance(m), second - m1 * m1, 1e-12);
  expect_relative(cdf(m, 1.0), 0.25 * boost::math::gamma_p(2.0, 1.0), 1e-14);
}

TEST(ClosedForms, ScaleShiftAndDeterministicFastPaths) {
  EXPECT_EQ(describe(scale(erlang(8, 1.0), 2.0)), "Erlang(k=8, rate=0.5)");
  expect_exact_bracket(scale(uniform(1.0, 3.0), 3.0), 6.0);
  expect_exact_bracket(scale(hypoexponential({1.0, 2.0}), 2.0), 3.0);
  const Distribution shifted = series(deterministic(5.0), erlang(8, 1.0));
  ASSERT_TRUE(is_closed_form(shifted));
  expect_exact_bracket(shifted, 13.0);
  expect_relative(cdf(shifted, 13.0), boost::math::gamma_p(8.0, 8.0), 1e-14);
  expect_exact_bracket(series_power(deterministic(2.0), 1000), 2000.0);
  expect_exact_bracket(parallel(deterministic(2.0), deterministic(7.0)), 7.0);
  expect_exact_bracket(minimum(deterministic(2.0), deterministic(7.0)), 2.0);
  expect_exact_bracket(minimum(exponential(1.0), exponential(3.0)), 0.25);
  expect_exact_bracket(parallel_power(deterministic(4.0), 100), 4.0);
  // max(0, X) = X for a runtime X >= 0.
  EXPECT_TRUE(is_closed_form(parallel(deterministic(0.0), erlang(8, 1.0))));
}

TEST(ClosedForms, Describe) {
  EXPECT_EQ(describe(erlang(8, 1.0)), "Erlang(k=8, rate=1)");
  EXPECT_EQ(describe(exponential(2.0)), "Exponential(rate=2)");
  EXPECT_EQ(describe(deterministic(1.5)), "Deterministic(1.5)");
  EXPECT_EQ(describe(uniform(0.0, 1.0)), "Uniform(0, 1)");
  const Distribution grid = discretise(erlang(8, 1.0), GridOptions{.max_points = 1024});
  EXPECT_EQ(describe(grid).rfind("numerical(", 0), 0u) << describe(grid);
}

}  // namespace
}  // namespace distributions
