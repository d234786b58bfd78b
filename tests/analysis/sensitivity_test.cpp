// --sensitivity on generated programs (tests/support/program_generator.hpp): each Monte Carlo
// elasticity, computed with common random numbers, against the central difference of two
// independent Monte Carlo runs of many samples (other seeds, a wider step), within their
// combined error; and the tolerances against the runs they promise.
//
//   sensitivity_tests [--gtest_filter=...] [--seed S] [--count N]
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <string>

#include "analysis/sensitivity.hpp"
#include "analysis/study.hpp"
#include "tests/support/case_from_text.hpp"
#include "tests/support/program_generator.hpp"

namespace {

std::int64_t g_count = 12;
std::uint64_t g_seed = 3;
constexpr int kP = 3;

analysis::Request monte_carlo_request(std::uint64_t seed, std::int64_t samples, bool sensitivity) {
  analysis::Request request;
  request.processors = {kP};
  request.methods = {solvers::Method::MonteCarlo};
  request.prediction.seconds_per_model = 0.0;
  request.solver_options.monte_carlo.relative_precision = 0.0;
  request.solver_options.monte_carlo.samples = samples;
  request.solver_options.monte_carlo.seed = seed;
  if (sensitivity) request.sensitivity.emplace();
  return request;
}

// Monte Carlo's mean of a case at kP and its standard error.
struct Sampled {
  double mean = 0.0;
  double standard_error = 0.0;
};

Sampled sampled(const analysis::Case& one, std::uint64_t seed) {
  const auto study = analysis::run_study({one}, monte_carlo_request(seed, 200'000, false));
  if (!study.ok()) throw std::runtime_error(study.failure->text());
  const solvers::Result& result = study.value->at(0, kP, solvers::Method::MonteCarlo).result;
  if (!result.solved()) throw std::runtime_error(result.unsolved->explanation);
  return {result.mean, (result.upper - result.mean) / 1.959963984540054};
}

// The central difference of independent runs at x (1 +- step), and its standard error.
Sampled independent_elasticity(const analysis::Case& one, const analysis::ConstantSensitivity& constant, double base,
                               double step) {
  const auto plus = analysis::with_constant(one, constant, constant.value * (1.0 + step));
  const auto minus = analysis::with_constant(one, constant, constant.value * (1.0 - step));
  if (!plus.ok() || !minus.ok()) throw std::runtime_error("the constant cannot change");
  const Sampled above = sampled(*plus.value, 1001);
  const Sampled below = sampled(*minus.value, 2002);
  return {(above.mean - below.mean) / (2.0 * step * base),
          std::hypot(above.standard_error, below.standard_error) / (2.0 * step * base)};
}

TEST(Sensitivity, MonteCarloElasticitiesAgreeWithIndependentRuns) {
  test_support::ProgramGenerator generator(g_seed);
  int compared = 0;
  for (std::int64_t k = 0; k < g_count; ++k) {
    const test_support::GeneratedProgram generated = generator.next();
    if (generated.machine.empty()) continue;  // the ideal machine has no constants
    SCOPED_TRACE("program " + std::to_string(k) + ":\n" + generated.pdl + "\n" + generated.machine);
    const analysis::Case one = test_support::case_of(generated.pdl, generated.machine);
    const auto study = analysis::run_study({one}, monte_carlo_request(7, 20'000, true));
    ASSERT_TRUE(study.ok());
    ASSERT_EQ(study.value->sensitivities().size(), 1U);
    const analysis::SensitivityRow& row = study.value->sensitivities().front();
    if (!row.why_not.empty()) continue;
    ASSERT_EQ(row.method, solvers::Method::MonteCarlo);
    for (const analysis::ConstantSensitivity& constant : row.constants) {
      if (!constant.elasticity) continue;
      SCOPED_TRACE(constant.name);
      EXPECT_EQ(constant.kind, analysis::ElasticityKind::Paired);
      const Sampled reference = independent_elasticity(one, constant, row.time, 0.05);
      const double tool_error = (constant.upper - constant.lower) / (2.0 * 1.959963984540054);
      // Five combined standard errors, and the wider step's curvature (second order in it).
      const double allowed =
          5.0 * std::hypot(tool_error, reference.standard_error) + 0.003 * std::abs(*constant.elasticity) + 1e-4;
      EXPECT_NEAR(*constant.elasticity, reference.mean, allowed);
      ++compared;
    }
  }
  std::cout << compared << " elasticities compared\n";
  EXPECT_GT(compared, 0);
}

TEST(Sensitivity, ToleranceGrowsTheRuntimeByItsFraction) {
  test_support::ProgramGenerator generator(g_seed);
  int compared = 0;
  for (std::int64_t k = 0; k < g_count; ++k) {
    const test_support::GeneratedProgram generated = generator.next();
    if (generated.machine.empty()) continue;
    SCOPED_TRACE("program " + std::to_string(k) + ":\n" + generated.pdl + "\n" + generated.machine);
    const analysis::Case one = test_support::case_of(generated.pdl, generated.machine);
    const auto study = analysis::run_study({one}, monte_carlo_request(7, 20'000, true));
    ASSERT_TRUE(study.ok());
    const analysis::SensitivityRow& row = study.value->sensitivities().front();
    for (const analysis::ConstantSensitivity& constant : row.constants) {
      if (!constant.tolerances[0] || constant.whole_steps) continue;
      SCOPED_TRACE(constant.name);
      // The same seed and samples as the search: the ratio it stopped at, to its precision.
      const auto changed = analysis::with_constant(one, constant, constant.value * *constant.tolerances[0]);
      ASSERT_TRUE(changed.ok());
      const auto at = analysis::run_study({*changed.value}, monte_carlo_request(7, 20'000, false));
      ASSERT_TRUE(at.ok());
      const double ratio = at.value->at(0, kP, solvers::Method::MonteCarlo).result.mean / row.time;
      EXPECT_NEAR(ratio, 1.01, 0.001 * 1.01);
      ++compared;
    }
  }
  std::cout << compared << " tolerances compared\n";
  EXPECT_GT(compared, 0);
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  for (int i = 1; i + 1 < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--seed") g_seed = std::strtoull(argv[i + 1], nullptr, 10);
    if (flag == "--count") g_count = std::strtoll(argv[i + 1], nullptr, 10);
  }
  return RUN_ALL_TESTS();
}
