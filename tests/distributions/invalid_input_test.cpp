// Bad input throws std::invalid_argument naming the parameter; nothing returns NaN.
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "distributions/distribution.hpp"

namespace distributions {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

template <class F>
void expect_invalid(F f, const std::string& expected_fragment) {
  try {
    f();
    ADD_FAILURE() << "no exception; expected one mentioning '" << expected_fragment << "'";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(expected_fragment), std::string::npos)
        << "message '" << e.what() << "' lacks '" << expected_fragment << "'";
  }
}

TEST(InvalidInput, Rates) {
  expect_invalid([] { exponential(-1.0); }, "rate");
  expect_invalid([] { exponential(0.0); }, "rate");
  expect_invalid([] { exponential(kNaN); }, "rate");
  expect_invalid([] { exponential(kInf); }, "rate");
  expect_invalid([] { erlang(8, -1.0); }, "erlang: rate must be finite and > 0, got -1");
  expect_invalid([] { erlang(0, 1.0); }, "phases");
  expect_invalid([] { erlang(-3, 1.0); }, "phases");
  expect_invalid([] { hypoexponential({1.0, -2.0}); }, "rates[1]");
  expect_invalid([] { hypoexponential({}); }, "rates");
  expect_invalid([] { hyperexponential({0.5, 0.5}, {1.0, kNaN}); }, "rates[1]");
  expect_invalid([] { hyperexponential({0.5, 0.6}, {1.0, 1.0}); }, "probabilities");
  expect_invalid([] { hyperexponential({1.0}, {1.0, 2.0}); }, "same size");
}

TEST(InvalidInput, OtherParameters) {
  expect_invalid([] { deterministic(-1.0); }, "value");
  expect_invalid([] { deterministic(kNaN); }, "value");
  expect_invalid([] { uniform(2.0, 1.0); }, "high");
  expect_invalid([] { uniform(-1.0, 1.0); }, "low");
  expect_invalid([] { uniform(0.0, kInf); }, "high");
  expect_invalid([] { truncated_normal(kNaN, 1.0); }, "mu");
  expect_invalid([] { truncated_normal(1.0, 0.0); }, "sigma");
  expect_invalid([] { phase_type({1.0}, {{1.0}}); }, "subgenerator[0][0]");
  expect_invalid([] { phase_type({0.5, 0.7}, {{-1.0, 0.0}, {0.0, -1.0}}); }, "alpha");
  expect_invalid([] { phase_type({1.0, 0.0}, {{-1.0, 1.0}, {1.0, -1.0}}); }, "absorption");
  expect_invalid([] { phase_type({1.0, 0.0}, {{-1.0, -0.5}, {0.0, -1.0}}); }, "subgenerator[0][1]");
  expect_invalid([] { phase_type({1.0}, {{-1.0, 0.0}}); }, "subgenerator row 0");
}

TEST(InvalidInput, MixtureWeights) {
  expect_invalid([] { mixture({0.5, 0.4}, {erlang(1, 1.0), erlang(2, 1.0)}); }, "weights");
  expect_invalid([] { mixture({1.5, -0.5}, {erlang(1, 1.0), erlang(2, 1.0)}); }, "weights[1]");
  expect_invalid([] { mixture({1.0}, {erlang(1, 1.0), erlang(2, 1.0)}); }, "same size");
  expect_invalid([] { mixture({kNaN, 1.0}, {erlang(1, 1.0), erlang(2, 1.0)}); }, "weights[0]");
  // Within 1e-9 is accepted.
  EXPECT_NO_THROW(mixture({0.5, 0.5 + 1e-12}, {erlang(1, 1.0), erlang(2, 1.0)}));
}

TEST(InvalidInput, SamplesAndHistograms) {
  expect_invalid([] { from_samples(std::vector<double>{}); }, "samples");
  expect_invalid([] { from_samples(std::vector<double>{1.0, kNaN}); }, "samples[1]");
  expect_invalid([] { from_samples(std::vector<double>{1.0, 2.0, -3.0}); }, "samples[2]");
  expect_invalid([] { from_samples(std::vector<double>{kInf}); }, "samples[0]");
  const std::vector<double> values = {1.0, 2.0};
  expect_invalid([&] { from_histogram(values, std::vector<double>{1.0, -1.0}); }, "weights[1]");
  expect_invalid([&] { from_histogram(values, std::vector<double>{0.0, 0.0}); }, "weights");
  expect_invalid([&] { from_histogram(values, std::vector<double>{1.0, kNaN}); }, "weights[1]");
  expect_invalid([&] { from_histogram(std::vector<double>{1.0, kInf}, std::vector<double>{1.0, 1.0}); }, "values[1]");
  expect_invalid([&] { from_histogram(values, std::vector<double>{1.0}); }, "same size");
}

TEST(InvalidInput, QueriesAndOperations) {
  const Distribution e = erlang(8, 1.0);
  const Distribution g = discretise(e);
  for (const Distribution& d : {e, g}) {
    expect_invalid([&] { quantile(d, -0.1); }, "q");
    expect_invalid([&] { quantile(d, 1.5); }, "q");
    expect_invalid([&] { quantile(d, kNaN); }, "q");
    expect_invalid([&] { cdf(d, kNaN); }, "x");
    expect_invalid([&] { scale(d, 0.0); }, "factor");
    expect_invalid([&] { scale(d, -2.0); }, "factor");
    expect_invalid([&] { shift(d, kNaN); }, "offset");
    expect_invalid([&] { series_power(d, -1); }, "n");
    expect_invalid([&] { parallel_power(d, 0); }, "p");
  }
  expect_invalid([&] { discretise(e, GridOptions{.max_points = 3}); }, "max_points");
  expect_invalid([&] { series(e, e, GridOptions{.tail_mass = -1.0}); }, "tail_mass");
  expect_invalid([&] { lattice(e); }, "numerical");
  std::string why;
  EXPECT_TRUE(GridOptions{}.IsValid(&why));
  EXPECT_FALSE((GridOptions{.max_points = 2}.IsValid(&why)));
  EXPECT_NE(why.find("max_points"), std::string::npos);
}

TEST(InvalidInput, NoNaNFromExtremes) {
  const std::vector<Distribution> cases = {erlang(8, 1.0),
                                           exponential(1e-300),
                                           exponential(1e300),
                                           uniform(0.0, 1e-300),
                                           truncated_normal(-1e3, 1.0),
                                           truncated_normal(1e3, 1.0),
                                           hypoexponential({1e-6, 1e6}),
                                           series_power(erlang(8, 1.0), 1'000'000'000),
                                           parallel_power(exponential(1.0), 1'000'000),
                                           discretise(erlang(8, 1.0))};
  for (const auto& d : cases) {
    EXPECT_FALSE(std::isnan(mean(d))) << describe(d);
    EXPECT_FALSE(std::isnan(variance(d))) << describe(d);
    for (double q : {0.0, 1e-12, 0.5, 1.0 - 1e-12, 1.0}) {
      EXPECT_FALSE(std::isnan(quantile(d, q))) << describe(d) << " q=" << q;
    }
    for (double x : {-1.0, 0.0, 1.0, 1e300, kInf}) {
      EXPECT_FALSE(std::isnan(cdf(d, x))) << describe(d) << " x=" << x;
    }
  }
}

// Issue 12: sums that overflow (three uniforms on [0, 1e308]) have a support past the largest
// double. The common grid of a maximum multiplied its step by inf, then NaN, and never
// fitted: the bounds looped forever. Now the overflow is reported.
TEST(InvalidInput, SupportBeyondTheLargestDoubleThrowsInsteadOfLooping) {
  EXPECT_THROW(
      {
        const Distribution sum = series_power(uniform(0.0, 1e308), 3);
        (void)parallel(sum, uniform(0.0, 1.0));
      },
      std::overflow_error);
}

}  // namespace
}  // namespace distributions
