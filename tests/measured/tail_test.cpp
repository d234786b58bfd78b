// NUMERICAL('file', TAIL): the generalised Pareto tail fitted beyond the data's 90% quantile
// (models/measured_tail.hpp, docs/distributions.md "A fitted tail"). The fit against the
// threshold stability of the generalised Pareto law (its excesses over any threshold u are
// generalised Pareto with the same xi and scale sigma + xi u) and the memorylessness of the
// exponential; the law's mean against its closed form; the refusals.
#include "distributions/distribution.hpp"
#include "distributions/random.hpp"
#include "distributions/sampler.hpp"
#include "models/measured_tail.hpp"
#include "models/measurements.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace {

namespace d = distributions;

// n draws by the inverse cdf: sigma ((1 - U)^(-xi) - 1) / xi, or -sigma log(1 - U) for xi = 0.
models::Measurements generalised_pareto(double xi, double sigma, std::size_t n, std::uint64_t seed) {
  d::Xoshiro256pp rng(seed);
  models::Measurements data;
  data.file = "gpd.txt";
  for (std::size_t i = 0; i < n; ++i) {
    const double u = d::uniform_open_closed(rng);  // in (0, 1]: 1 - U of U in [0, 1)
    data.values.push_back(xi > 0.0 ? sigma * (std::pow(u, -xi) - 1.0) / xi : -sigma * std::log(u));
  }
  return data;
}

// 20,000 draws of GPD(0.25, 1): the 2,000 above the 90% quantile u (about 2.73) have xi = 0.25
// and scale 1 + 0.25 u; within 3 of the fit's own standard errors ((1 + xi)/sqrt(k) = 0.028
// for xi; about 5% for the scale).
TEST(FittedTail, RecoversAGeneralisedParetoByThresholdStability) {
  const models::TailFitOutcome outcome = models::fit_tail(generalised_pareto(0.25, 1.0, 20000, 11));
  ASSERT_TRUE(outcome.fit) << outcome.error;
  const models::TailFit& fit = *outcome.fit;
  EXPECT_EQ(fit.exceedances, 2000u);
  EXPECT_NEAR(fit.share, 0.1, 1e-12);
  EXPECT_NEAR(fit.threshold, (std::pow(0.1, -0.25) - 1.0) / 0.25, 0.15);  // the true 90% quantile
  EXPECT_NEAR(fit.xi_error, 1.25 / std::sqrt(2000.0), 0.01);
  EXPECT_NEAR(fit.xi, 0.25, 3.0 * fit.xi_error);
  const double scale = 1.0 + 0.25 * fit.threshold;
  EXPECT_NEAR(fit.sigma, scale, 3.0 * 0.05 * scale);
}

// Exponential data (xi = 0): the excesses are exponential of the same mean, 2; xi near 0.
TEST(FittedTail, AnExponentialTailKeepsItsScale) {
  const models::TailFitOutcome outcome = models::fit_tail(generalised_pareto(0.0, 2.0, 20000, 5));
  ASSERT_TRUE(outcome.fit) << outcome.error;
  EXPECT_LT(outcome.fit->xi, 3.0 * outcome.fit->xi_error);
  EXPECT_NEAR(outcome.fit->sigma, 2.0, 3.0 * 2.0 / std::sqrt(2000.0));
}

// The law: each sample up to u with weight 1/n, and u + GPD beyond with weight k/n. Its mean
// is the body's sum over n plus (k/n)(u + sigma / (1 - xi)); Monte Carlo within 4 standard
// errors of it; no point of the body moved (the cdf just below u is (n - k)/n).
TEST(FittedTail, TheLawIsTheBodyAndTheFittedTail) {
  const models::Measurements data = generalised_pareto(0.2, 3.0, 4000, 17);
  const models::TailFit fit = *models::fit_tail(data).fit;
  double body = 0.0;
  for (double x : data.values) body += x <= fit.threshold ? x : 0.0;
  const double n = static_cast<double>(data.values.size());
  const double expected = body / n + fit.share * (fit.threshold + fit.sigma / (1.0 - fit.xi));
  const d::Distribution law = models::measured_distribution(data, models::Smoothing::Tail);
  EXPECT_NEAR(d::mean(law), expected, 1e-9 * expected);
  EXPECT_NEAR(d::cdf(law, fit.threshold), 1.0 - fit.share, 1e-9);
  const double variance = d::variance(law);
  const d::Sampler sampler(law);
  d::Xoshiro256pp rng(3);
  const int draws = 400000;
  double sum = 0.0;
  double largest = 0.0;
  for (int i = 0; i < draws; ++i) {
    const double x = sampler(rng);
    sum += x;
    largest = std::max(largest, x);
  }
  EXPECT_NEAR(sum / draws, expected, 4.0 * std::sqrt(variance / draws));
  // Beyond the data: the largest of 400,000 draws passes the largest of the 4,000 samples.
  EXPECT_GT(largest, *std::max_element(data.values.begin(), data.values.end()));
}

TEST(FittedTail, RefusedWhereNoFiniteTailCanBeFitted) {
  const models::TailFitOutcome few = models::fit_tail(generalised_pareto(0.2, 1.0, 150, 1));
  EXPECT_FALSE(few.fit);
  EXPECT_NE(few.error.find("at least 20 samples above"), std::string::npos) << few.error;
  models::Measurements histogram = generalised_pareto(0.2, 1.0, 1000, 1);
  histogram.weights.assign(histogram.values.size(), 1.0);
  EXPECT_NE(models::fit_tail(histogram).error.find("not a histogram"), std::string::npos);
  // xi = 0.8: an infinite variance.
  const models::TailFitOutcome heavy = models::fit_tail(generalised_pareto(0.8, 1.0, 20000, 2));
  EXPECT_FALSE(heavy.fit);
  EXPECT_NE(heavy.error.find(">= 1/2"), std::string::npos) << heavy.error;
}

}  // namespace
