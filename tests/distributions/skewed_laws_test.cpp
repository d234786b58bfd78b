// LOGNORMAL, WEIBULL and PARETO (distributions/skewed_laws.hpp) against scipy.stats, an
// independent implementation, and their sampler and grid against those exact values.
// The reference figures were computed with Debian's python3-scipy:
//   for law in (stats.lognorm(s=1.2, scale=50), stats.weibull_min(c=0.7, scale=40),
//               stats.pareto(b=2.5, scale=30)):
//       law.mean(), law.var(), [law.ppf(q) for q in (0.01, 0.5, 0.99)], law.isf(1e-9), law.sf(200)
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "distributions/distribution.hpp"
#include "distributions/random.hpp"
#include "distributions/sampler.hpp"

namespace distributions {
namespace {

struct Reference {
  std::string name;
  Distribution law;
  double mean;
  double variance;
  std::vector<double> quantiles;  // at 0.01, 0.5, 0.99, then 1 - 1e-9
  double survival_at_200;
};

std::vector<Reference> references() {
  return {
      {"lognormal",
       lognormal(std::log(50.0), 1.2),
       102.72166053219438,
       33983.9434065391,
       {3.066097427161014, 50.0, 815.3687413367097, 66795.52918723362},
       0.12399499425286353},
      {"weibull",
       weibull(0.7, 40.0),
       50.63294024229134,
       5482.936885845046,
       {0.055979915832498346, 23.69560451808535, 354.44905770956774, 3038.887067591888},
       0.04572229183898492},
      {"pareto",
       pareto(2.5, 30.0),
       50.0,
       2000.0000000000002,
       {30.120846777627225, 39.585237323186824, 189.28720334405793, 119432.15251715803},
       0.008714212528966687},
  };
}

void expect_relative(double actual, double exact, double tolerance, const std::string& what) {
  EXPECT_LE(std::abs(actual - exact), tolerance * std::abs(exact)) << what << ": " << actual << " vs " << exact;
}

TEST(SkewedLaws, MomentsQuantilesAndTailsAgreeWithScipy) {
  for (const Reference& r : references()) {
    ASSERT_TRUE(is_closed_form(r.law)) << r.name;
    expect_relative(mean(r.law), r.mean, 1e-9, r.name + " mean");
    expect_relative(variance(r.law), r.variance, 1e-9, r.name + " variance");
    const double levels[] = {0.01, 0.5, 0.99};
    for (int i = 0; i < 3; ++i) {
      expect_relative(quantile(r.law, levels[i]), r.quantiles[i], 1e-9, r.name + " quantile");
    }
    // 1 - 1e-9 is not exact in binary: its gap to 1 carries a relative error of ~1e-7.
    expect_relative(quantile(r.law, 1.0 - 1e-9), r.quantiles[3], 1e-6, r.name + " far quantile");
    expect_relative(1.0 - cdf(r.law, 200.0), r.survival_at_200, 1e-9, r.name + " survival");
  }
}

// A million draws: the sample mean within 4 standard errors of the exact mean.
TEST(SkewedLaws, SamplesHaveTheExactMean) {
  for (const Reference& r : references()) {
    const Sampler sampler(r.law);
    Xoshiro256pp rng(2026);
    constexpr int kDraws = 1'000'000;
    double sum = 0.0;
    double least = 1e300;
    for (int i = 0; i < kDraws; ++i) {
      const double x = sampler(rng);
      sum += x;
      least = std::min(least, x);
    }
    EXPECT_LE(std::abs(sum / kDraws - r.mean), 4.0 * std::sqrt(r.variance / kDraws)) << r.name;
    EXPECT_GE(least, quantile(r.law, 0.0)) << r.name;
  }
}

// The series-parallel model's grid: the bracket of a sum and of a maximum holds the exact mean
// of the sum (n E[X]) and Monte Carlo's maximum.
TEST(SkewedLaws, GridBracketsHoldTheExactSumAndTheSampledMaximum) {
  for (const Reference& r : references()) {
    const Bracket sum = mean_bracket(series_power(r.law, 16));
    EXPECT_LE(sum.lower, 16.0 * r.mean * (1 + 1e-9)) << r.name;
    EXPECT_GE(sum.upper, 16.0 * r.mean * (1 - 1e-9)) << r.name;
    const Bracket most = mean_bracket(parallel_power(r.law, 8));
    const Sampler sampler(r.law);
    Xoshiro256pp rng(7);
    constexpr int kDraws = 200'000;
    double total = 0.0, square = 0.0;
    for (int i = 0; i < kDraws; ++i) {
      double largest = 0.0;
      for (int k = 0; k < 8; ++k) largest = std::max(largest, sampler(rng));
      total += largest;
      square += largest * largest;
    }
    const double sample_mean = total / kDraws;
    const double error = std::sqrt((square / kDraws - sample_mean * sample_mean) / kDraws);
    EXPECT_LE(most.lower, sample_mean + 4.0 * error) << r.name;
    EXPECT_GE(most.upper, sample_mean - 4.0 * error) << r.name;
  }
}

TEST(SkewedLaws, ScalingKeepsTheFamily) {
  expect_relative(mean(scale(lognormal(std::log(50.0), 1.2), 3.0)), 3.0 * 102.72166053219438, 1e-12, "lognormal");
  expect_relative(mean(scale(weibull(0.7, 40.0), 3.0)), 3.0 * 50.63294024229134, 1e-12, "weibull");
  expect_relative(mean(scale(pareto(2.5, 30.0), 3.0)), 150.0, 1e-12, "pareto");
}

TEST(SkewedLaws, ParametersWithoutAFiniteVarianceAreRefused) {
  EXPECT_THROW(pareto(2.0, 1.0), std::invalid_argument);
  EXPECT_THROW(pareto(1.5, 1.0), std::invalid_argument);
  EXPECT_THROW(weibull(0.01, 1.0), std::invalid_argument);
  EXPECT_THROW(lognormal(0.0, 0.0), std::invalid_argument);
  EXPECT_THROW(lognormal(0.0, 20.0), std::invalid_argument);
}

}  // namespace
}  // namespace distributions
