// Sampler: sample moments within 4 standard errors of the exact ones; reproducibility.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "distributions/distribution.hpp"
#include "distributions/random.hpp"
#include "distributions/sampler.hpp"

namespace distributions {
namespace {

struct Case {
  const char* name;
  Distribution d;
  double mean;
  double variance;
  double fourth_central;  // for the standard error of the sample variance
};

void check_moments(const Case& c) {
  const Sampler sampler(c.d);
  Xoshiro256pp rng(12345);
  constexpr int kDraws = 1'000'000;
  double sum = 0.0;
  std::vector<double> draws(kDraws);
  for (double& x : draws) {
    x = sampler(rng);
    sum += x;
  }
  const double n = kDraws;
  const double sample_mean = sum / n;
  double m2 = 0.0;
  for (double x : draws) m2 += (x - sample_mean) * (x - sample_mean);
  const double sample_variance = m2 / (n - 1.0);
  const double mean_error = std::sqrt(c.variance / n);
  EXPECT_LE(std::abs(sample_mean - c.mean), 4.0 * mean_error + 1e-12) << c.name;
  const double variance_error = std::sqrt(std::max(c.fourth_central - c.variance * c.variance, 0.0) / n);
  EXPECT_LE(std::abs(sample_variance - c.variance), 4.0 * variance_error + 1e-12) << c.name;
}

TEST(Sampler, MomentsOfEveryKind) {
  // Fourth central moments: exponential 9/l^4; Erlang(k,l): 3k(k+2)/l^4; uniform(a,b):
  // (b-a)^4/80. For the others the fourth moment comes from the exact law below.
  const double l = 2.0;
  std::vector<Case> cases = {
      {"deterministic", deterministic(3.0), 3.0, 0.0, 0.0},
      {"exponential", exponential(l), 1 / l, 1 / (l * l), 9 / std::pow(l, 4)},
      {"erlang8", erlang(8, l), 8 / l, 8 / (l * l), 3 * 8 * 10 / std::pow(l, 4)},
      {"erlang40", erlang(40, l), 40 / l, 40 / (l * l), 3 * 40 * 42 / std::pow(l, 4)},
      {"uniform", uniform(1.0, 4.0), 2.5, 9.0 / 12.0, 81.0 / 80.0},
      {"erlang_huge", series_power(erlang(8, 1.0), 1000000), 8e6, 8e6, 3 * 8e6 * (8e6 + 2)},
  };
  for (const auto& c : cases) check_moments(c);
}

// For kinds without a handy fourth moment, bound it generously: the test then checks the mean
// within 4 standard errors and the variance within 4 (conservative) standard errors.
TEST(Sampler, MomentsOfCompositeKinds) {
  auto with_exact = [](const char* name, const Distribution& d, double kurtosis_bound) {
    const double v = variance(d);
    return Case{name, d, mean(d), v, kurtosis_bound * v * v};
  };
  const std::vector<Case> cases = {
      with_exact("hypoexponential", hypoexponential({1.0, 3.0, 7.0}), 9.0),
      with_exact("max_of_exponentials", parallel_power(exponential(1.0), 100), 9.0),
      with_exact("hyperexponential", hyperexponential({0.2, 0.8}, {0.5, 4.0}), 40.0),
      with_exact("truncated_normal_body", truncated_normal(1.0, 2.0), 5.0),
      with_exact("truncated_normal_tail", truncated_normal(-5.0, 1.0), 9.0),
      with_exact("phase_type", phase_type({0.6, 0.4}, {{-3.0, 1.0}, {0.5, -2.0}}), 20.0),
      with_exact("mixture", mixture({0.3, 0.7}, {erlang(8, 1.0), uniform(2.0, 3.0)}), 10.0),
      with_exact("shifted", series(deterministic(2.0), erlang(3, 1.0)), 9.0),
      with_exact("numerical", discretise(erlang(8, 1.0)), 9.0),
      with_exact("numerical_power", series_power(discretise(uniform(0.0, 1.0)), 50), 9.0),
  };
  for (const auto& c : cases) check_moments(c);
}

TEST(Sampler, SameSeedSameSequence) {
  const Sampler sampler(erlang(8, 1.0));
  Xoshiro256pp a(7, 3);
  Xoshiro256pp b(7, 3);
  Xoshiro256pp other_stream(7, 4);
  bool differs = false;
  for (int i = 0; i < 1000; ++i) {
    const double x = sampler(a);
    ASSERT_EQ(x, sampler(b));
    differs |= x != sampler(other_stream);
  }
  EXPECT_TRUE(differs);
}

TEST(Random, Xoshiro256ppReferenceAndJump) {
  // splitmix64 reference output for seed 1234567 (from the reference implementation).
  SplitMix64 mixer(1234567);
  EXPECT_EQ(mixer.next(), 6457827717110365317ULL);
  EXPECT_EQ(mixer.next(), 3203168211198807973ULL);
  Xoshiro256pp a(1);
  Xoshiro256pp b(1);
  b.jump();
  int equal = 0;
  for (int i = 0; i < 100; ++i) equal += a() == b();
  EXPECT_LT(equal, 2);
}

}  // namespace
}  // namespace distributions
