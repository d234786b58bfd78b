// Prediction intervals (docs/calibration.md, "Prediction intervals"): fitted on runs at small p,
// the interval of a prediction at larger p covers held-out runs at its nominal rate (issue 15),
// whether the runs' spread comes from the tasks' own randomness (which the model knows) or from
// noise the model does not have (which the fit's residuals reveal).
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <memory>
#include <random>

#include "analysis/calibration.hpp"
#include "analysis/prediction_interval.hpp"
#include "tests/support/calibration_case.hpp"
#include "tests/support/case_from_text.hpp"

namespace {

// test_support::tasks_and_barrier(runtime): 64 tasks spread over p processors in blocks, then a
// barrier of ts ceil(log2 P) (none on one processor): T(p) = max over the p processors of the sum
// of their 64/p tasks + ts ceil(log2 p).
constexpr double kTc = 2.0, kTs = 30.0;

analysis::MachineInput input(const std::string& runtime) { return test_support::tasks_and_barrier(runtime); }

double barrier(int p) { return p > 1 ? kTs * std::ceil(std::log2(p)) : 0.0; }

// One run with exponential tasks of mean kTc, drawn directly: each processor's 64/p tasks sum to
// a gamma(64/p, kTc) time, and the phase ends with the slowest.
double exponential_run(int p, std::mt19937_64& random) {
  std::gamma_distribution<double> processor(64.0 / p, kTc);
  double slowest = 0.0;
  for (int q = 0; q < p; ++q) slowest = std::max(slowest, processor(random));
  return slowest + barrier(p);
}

// One run of deterministic tasks with a measurement noise the model does not have: the model's
// time times a lognormal factor of log-standard deviation 0.05 and mean 1.
double noisy_run(int p, std::mt19937_64& random) {
  std::normal_distribution<double> z;
  return (64.0 / p * kTc + barrier(p)) * std::exp(0.05 * z(random) - 0.05 * 0.05 / 2.0);
}

struct Coverage {
  int inside = 0;
  int predictions = 0;
};

// Per replication: 16 runs at p = 1, 2, 4, 8 (four each) to fit tc and ts, then one held-out run
// at each of p = 16, 32, 64 checked against its 95% prediction interval.
Coverage held_out_coverage(const analysis::MachineInput& in, double (*run_at)(int, std::mt19937_64&), int replications,
                           std::uint64_t seed) {
  std::mt19937_64 random(seed);
  analysis::CalibrationOptions options;
  options.parameters = {"tc", "ts"};
  // A coarser grid than the default 4096 points keeps the 100 replications quick; its error in
  // the quantiles is far below the intervals' widths.
  options.series_parallel.grid.max_points = 1024;
  analysis::PredictionIntervalOptions interval;
  interval.parameter_draws = 100;
  interval.series_parallel = options.series_parallel;
  Coverage coverage;
  for (int replication = 0; replication < replications; ++replication) {
    models::Runs runs;
    runs.file = "generated.csv";
    for (int p : {1, 2, 4, 8}) {
      for (int repetition = 1; repetition <= 4; ++repetition) {
        models::Run run;
        run.p = p;
        run.repetition = repetition;
        run.time = run_at(p, random);
        runs.runs.push_back(run);
      }
    }
    const auto fit = analysis::calibrate(in, runs, options);
    EXPECT_TRUE(fit.ok()) << fit.failure->message;
    if (!fit.ok()) return coverage;
    const analysis::ParameterUncertainty uncertainty = analysis::uncertainty_of(*fit.value);
    for (int p : {16, 32, 64}) {
      const auto predicted =
          analysis::predict_interval(in, p, uncertainty, interval, static_cast<std::uint64_t>(replication * 100 + p));
      EXPECT_TRUE(predicted.ok());
      if (!predicted.ok()) return coverage;
      const double held_out = run_at(p, random);
      coverage.inside += held_out >= predicted.value->low && held_out <= predicted.value->high ? 1 : 0;
      ++coverage.predictions;
    }
  }
  return coverage;
}

// 100 replications, 300 held-out runs: three binomial standard deviations of a 95% coverage are
// 3 sqrt(0.95 * 0.05 / 300) = 0.038.
TEST(PredictionInterval, CoversHeldOutRunsOfRandomTasksAtTheNominalRate) {
  const Coverage coverage = held_out_coverage(input("EXPONENTIAL(tc)"), exponential_run, 100, 15);
  std::cout << "exponential tasks: " << coverage.inside << " of " << coverage.predictions << " held-out runs inside\n";
  ASSERT_EQ(coverage.predictions, 300);
  EXPECT_NEAR(coverage.inside / 300.0, 0.95, 0.038);
}

TEST(PredictionInterval, CoversHeldOutRunsWithNoiseTheModelDoesNotHaveAtTheNominalRate) {
  const Coverage coverage = held_out_coverage(input("DETERMINISTIC(tc)"), noisy_run, 100, 16);
  std::cout << "deterministic tasks, 5% noise: " << coverage.inside << " of " << coverage.predictions
            << " held-out runs inside\n";
  ASSERT_EQ(coverage.predictions, 300);
  EXPECT_NEAR(coverage.inside / 300.0, 0.95, 0.038);
}

// Each part alone, on a case worked out by hand: deterministic tasks and known parameters leave
// the interval a point; the unexplained spread u alone gives the lognormal interval
// T exp(-u^2/2 -/+ 1.96 u).
TEST(PredictionInterval, EachPartAloneMatchesItsClosedForm) {
  const analysis::MachineInput in = input("DETERMINISTIC(tc)");
  analysis::ParameterUncertainty known;
  known.names = {"tc", "ts"};
  known.values = {kTc, kTs};
  analysis::PredictionIntervalOptions options;
  const double time = 64.0 / 16 * kTc + barrier(16);  // 8 + 120
  auto point = analysis::predict_interval(in, 16, known, options, 0);
  ASSERT_TRUE(point.ok());
  EXPECT_NEAR(point.value->mean, time, 1e-9);
  EXPECT_NEAR(point.value->low, time, 1e-9);
  EXPECT_NEAR(point.value->high, time, 1e-9);
  EXPECT_EQ(point.value->parameter_standard_error, 0.0);

  known.unexplained = 0.1;
  options.spread_points = 1000;
  point = analysis::predict_interval(in, 16, known, options, 0);
  ASSERT_TRUE(point.ok());
  const double z = 1.959963984540054;
  // The midpoint rule over 1000 normal points puts the quantile within about 1e-3 of z.
  EXPECT_NEAR(point.value->low, time * std::exp(-0.005 - z * 0.1), time * 2e-3);
  EXPECT_NEAR(point.value->high, time * std::exp(-0.005 + z * 0.1), time * 2e-3);
  EXPECT_NEAR(point.value->task_low, time, 1e-9);

  // A log-covariance of tc alone, sd 0.1: the mean 64/16 tc + 120 has the lognormal's spread in
  // its first term; its standard deviation over the draws is 8 * sd(exp(0.1 z)) = 0.80.
  known.unexplained = 0.0;
  known.log_covariance = {{0.01, 0.0}, {0.0, 0.0}};
  options.parameter_draws = 20000;
  point = analysis::predict_interval(in, 16, known, options, 0);
  ASSERT_TRUE(point.ok());
  const double sd = 8.0 * std::sqrt((std::exp(0.01) - 1.0) * std::exp(0.01));
  EXPECT_NEAR(point.value->parameter_standard_error, sd, 0.03);
  EXPECT_NEAR(point.value->parameter_low, 120.0 + 8.0 * std::exp(-z * 0.1), 0.1);
  EXPECT_NEAR(point.value->parameter_high, 120.0 + 8.0 * std::exp(z * 0.1), 0.1);
}

}  // namespace
