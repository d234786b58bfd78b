// Calibration (docs/calibration.md): on runs generated from a known model with noise, the fit
// recovers each parameter within its reported standard error about 68% of the time and within
// two about 95% (issue 15), and bad requests are refused.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <memory>
#include <random>

#include "analysis/calibration.hpp"
#include "tests/support/calibration_case.hpp"
#include "tests/support/case_from_text.hpp"

namespace {

using test_support::machine_of_text;
using test_support::program_of_text;

// test_support::tasks_and_barrier(): T(p) = ceil(64/p) tc + ts ceil(log2 p) (no barrier on one
// processor).
constexpr double kTc = 2.0, kTs = 30.0;

double model(int p) { return std::ceil(64.0 / p) * kTc + (p > 1 ? kTs * std::ceil(std::log2(p)) : 0.0); }

analysis::MachineInput input() { return test_support::tasks_and_barrier(); }

// Four repetitions at p = 1, 2, 4, 8, 16, each the model's time times (1 + 0.05 z).
models::Runs noisy_runs(std::mt19937_64& random) {
  std::normal_distribution<double> z;
  models::Runs runs;
  runs.file = "generated.csv";
  for (int p : {1, 2, 4, 8, 16}) {
    for (int repetition = 1; repetition <= 4; ++repetition) {
      models::Run run;
      run.p = p;
      run.repetition = repetition;
      run.time = model(p) * (1.0 + 0.05 * z(random));
      runs.runs.push_back(run);
    }
  }
  return runs;
}

TEST(Calibration, RecoversTheParametersWithinTheirStandardErrorsAtTheNominalRate) {
  const analysis::MachineInput in = input();
  analysis::CalibrationOptions options;
  options.parameters = {"tc", "ts"};
  std::mt19937_64 random(20261124);
  constexpr int kReplications = 200;
  int within_one[2] = {0, 0}, within_two[2] = {0, 0};
  const double truth[2] = {kTc, kTs};
  for (int k = 0; k < kReplications; ++k) {
    const auto fit = analysis::calibrate(in, noisy_runs(random), options);
    ASSERT_TRUE(fit.ok()) << fit.failure->message;
    for (int i = 0; i < 2; ++i) {
      const double error =
          std::abs(fit.value->parameters[i].value - truth[i]) / *fit.value->parameters[i].standard_error;
      within_one[i] += error <= 1.0;
      within_two[i] += error <= 2.0;
    }
  }
  // With 18 degrees of freedom the t distribution puts 0.67 within one and 0.94 within two;
  // three binomial standard deviations of 200 replications: 0.10 and 0.05.
  for (int i = 0; i < 2; ++i) {
    std::cout << options.parameters[i] << ": within one standard error " << within_one[i] << " of " << kReplications
              << ", within two " << within_two[i] << "\n";
    EXPECT_NEAR(within_one[i] / double(kReplications), 0.68, 0.10) << options.parameters[i];
    EXPECT_NEAR(within_two[i] / double(kReplications), 0.95, 0.05) << options.parameters[i];
  }
}

// One run at each p, at the model's time exactly.
models::Runs exact_runs(std::initializer_list<int> processors) {
  models::Runs runs;
  for (int p : processors) {
    models::Run run;
    run.p = p;
    run.time = model(p);
    runs.runs.push_back(run);
  }
  return runs;
}

TEST(Calibration, ExactRunsGiveTheTruthAndAPerfectFit) {
  const models::Runs runs = exact_runs({1, 2, 4, 8});
  analysis::CalibrationOptions options;
  options.parameters = {"tc", "ts"};
  const auto fit = analysis::calibrate(input(), runs, options);
  ASSERT_TRUE(fit.ok()) << fit.failure->message;
  EXPECT_NEAR(fit.value->parameters[0].value, kTc, 1e-6);
  EXPECT_NEAR(fit.value->parameters[1].value, kTs, 1e-5);
  EXPECT_NEAR(fit.value->r_squared, 1.0, 1e-12);
  EXPECT_EQ(fit.value->degrees_of_freedom, 2u);
}

// As many runs as parameters: the fit solves T(p_r) = t_r exactly, and without residuals there
// is nothing to estimate the noise from, so no standard error, correlation or s is given.
TEST(Calibration, AsManyRunsAsParametersGiveAnExactFitWithoutErrors) {
  const models::Runs runs = exact_runs({2, 8});
  analysis::CalibrationOptions options;
  options.parameters = {"tc", "ts"};
  const auto fit = analysis::calibrate(input(), runs, options);
  ASSERT_TRUE(fit.ok()) << fit.failure->message;
  EXPECT_NEAR(fit.value->parameters[0].value, kTc, 1e-6);
  EXPECT_NEAR(fit.value->parameters[1].value, kTs, 1e-5);
  EXPECT_FALSE(fit.value->parameters[0].standard_error.has_value());
  EXPECT_FALSE(fit.value->residual_standard_error.has_value());
  EXPECT_TRUE(fit.value->log_covariance.empty());
  EXPECT_EQ(fit.value->degrees_of_freedom, 0u);
}

// Runs from a shape the model lacks (an extra 3p) with a lognormal noise of 2%, ten repetitions
// at each p: the repetitions alone measure the noise, 0.02, by restricted maximum likelihood,
// while the residuals' unexplained spread also holds the misfit and is larger.
TEST(Calibration, RepetitionsMeasureTheNoiseApartFromTheMisfit) {
  std::mt19937_64 random(23);
  std::normal_distribution<double> z;
  models::Runs runs;
  for (int p : {1, 2, 4, 8, 16, 32}) {
    for (int repetition = 1; repetition <= 10; ++repetition) {
      models::Run run;
      run.p = p;
      run.repetition = repetition;
      run.time = (model(p) + 3.0 * p) * std::exp(0.02 * z(random));
      runs.runs.push_back(run);
    }
  }
  analysis::CalibrationOptions options;
  options.parameters = {"tc", "ts"};
  const auto fit = analysis::calibrate(input(), runs, options);
  ASSERT_TRUE(fit.ok()) << fit.failure->message;
  ASSERT_TRUE(fit.value->repetition_spread.has_value());
  EXPECT_EQ(fit.value->repeated_settings, 6u);
  // 54 degrees of freedom: the estimate's standard error is about 0.02 / sqrt(2 * 54) = 0.002.
  EXPECT_NEAR(*fit.value->repetition_spread, 0.02, 0.006);
  EXPECT_GT(fit.value->unexplained, 2.0 * *fit.value->repetition_spread);
}

TEST(Calibration, BadRequestsAreRefused) {
  models::Runs one;
  one.runs.push_back(models::Run{});
  one.runs.back().time = 100;
  analysis::CalibrationOptions options;
  options.parameters = {"tc", "ts"};
  auto fit = analysis::calibrate(input(), one, options);
  ASSERT_FALSE(fit.ok());
  EXPECT_EQ(fit.failure->message,
            "1 run(s) cannot determine 2 parameter(s): give at least 2 (and 3 for their standard errors)");
  options.parameters = {"tw"};
  fit = analysis::calibrate(input(), one, options);
  ASSERT_FALSE(fit.ok());
  EXPECT_EQ(fit.failure->message, "'tw' is neither a variable of the program nor a constant of machine 'm'");
  options.parameters = {"tc", "tc"};
  EXPECT_FALSE(analysis::calibrate(input(), one, options).ok());
}

// The case: compute scaled by a unit and barriers much dearer than the machine file's
// 20 us. 64 tasks of 1000 tunit, a barrier of tbar ceil(log2 P); truth tunit = 1.3, tbar = 400,
// three runs at each p with 3% noise.
const char* const kUnitProgram =
    "PROGRAM NAME IS 'unit';\n"
    "EXECUTION PATTERN IS (w -> SYNC){4};\n"
    "WORK PHASE w IS:\n"
    "  PARALLELIZATION SCHEME IS INDEPENDENT;\n"
    "  SUBTASK RUNTIME IS DETERMINISTIC(1000*tunit);\n"
    "  PROBLEM SIZE IS VECTOR a(64);\n"
    "END;\n";

analysis::MachineInput unit_input(double tbar) {
  const models::Machine machine =
      machine_of_text("MACHINE NAME IS 'm';\nVARIABLE tunit = 1;\nVARIABLE tbar = " + std::to_string(tbar) +
                      ";\nBARRIER TIME IS tbar*ceil(log2(max(P, 2)));\n");
  analysis::MachineInput in;
  in.program = std::make_shared<const models::Program>(program_of_text(kUnitProgram, machine));
  in.machine = machine;
  return in;
}

models::Runs unit_runs(double tbar) {
  std::mt19937_64 random(51);
  std::normal_distribution<double> z;
  models::Runs runs;
  for (int p : {1, 2, 4, 8, 16, 32, 64}) {
    const double time = 4.0 * (std::ceil(64.0 / p) * 1300.0 + (p > 1 ? tbar * std::ceil(std::log2(p)) : 0.0));
    for (int repetition = 1; repetition <= 3; ++repetition) {
      models::Run run;
      run.p = p;
      run.repetition = repetition;
      run.time = time * (1.0 + 0.03 * z(random));
      runs.runs.push_back(run);
    }
  }
  return runs;
}

// From a start of 20, 0.2 and 2,000 the fit reaches one optimum (tbar near 400), and most of the
// five starts of each reach it.
TEST(Calibration, ConvergesToOneFitFromFarApartStarts) {
  analysis::CalibrationOptions options;
  options.parameters = {"tunit", "tbar"};
  std::vector<double> fitted;
  for (const double start : {20.0, 0.2, 2000.0}) {
    const auto fit = analysis::calibrate(unit_input(start), unit_runs(400.0), options);
    ASSERT_TRUE(fit.ok()) << start << ": " << fit.failure->message;
    const double tbar = fit.value->parameters[1].value;
    EXPECT_NEAR(tbar, 400.0, 3.0 * *fit.value->parameters[1].standard_error) << start;
    EXPECT_NEAR(fit.value->parameters[0].value, 1.3, 3.0 * *fit.value->parameters[0].standard_error) << start;
    ASSERT_EQ(fit.value->starts.size(), 5u);
    // The coarse starts may stop short of the optimum along its flat direction (1% is the mark).
    int same = 0;
    for (const analysis::StartOutcome& one : fit.value->starts) same += one.same_fit ? 1 : 0;
    EXPECT_GE(same, 3) << start;
    fitted.push_back(tbar);
  }
  EXPECT_NEAR(fitted[1], fitted[0], 1e-4 * fitted[0]);
  EXPECT_NEAR(fitted[2], fitted[0], 1e-4 * fitted[0]);
}

// Runs with no barrier cost at all: tbar is driven to 0 from every start: refused in the command,
// naming it and what would pin it.
TEST(Calibration, ADivergedParameterIsNamedWithWhatWouldPinIt) {
  analysis::CalibrationOptions options;
  options.parameters = {"tunit", "tbar"};
  const auto fit = analysis::calibrate(unit_input(20.0), unit_runs(0.0), options);
  ASSERT_FALSE(fit.ok());
  EXPECT_EQ(fit.failure->kind, analysis::Failure::Kind::Request);
  const std::string& message = fit.failure->message;
  EXPECT_EQ(message.substr(0, message.find(" (to ")), "--fit tbar: the fit diverged: 'tbar' ran off towards 0");
  EXPECT_NE(
      message.find("from every start (20, 2000, 2, 200, 0.02): the runs do not hold it; pin it: fix it (--set "
                   "tbar=VALUE, and leave it out of --fit), bound it (--fit tbar=LOW..HIGH), or add runs at settings "
                   "where it matters"),
      std::string::npos)
      << message;
}

// A range the runs would leave: the fit stops at its end, marked; the others stay free.
TEST(Calibration, AParameterStopsAtTheEndOfItsRange) {
  analysis::CalibrationOptions options;
  options.parameters = {"tunit", "tbar"};
  options.ranges["tbar"] = {10.0, 100.0};
  const auto fit = analysis::calibrate(unit_input(20.0), unit_runs(400.0), options);
  ASSERT_TRUE(fit.ok()) << fit.failure->message;
  EXPECT_NEAR(fit.value->parameters[1].value, 100.0, 1e-6);
  EXPECT_EQ(fit.value->parameters[1].at_end, 1);
  EXPECT_EQ(fit.value->parameters[0].at_end, 0);
  std::string why;
  options.ranges["tbar"] = {100.0, 10.0};
  EXPECT_FALSE(options.IsValid(&why));
  EXPECT_EQ(why, "--fit tbar=100..10: a range is 0 < LOW < HIGH, both finite");
}

// Two parameters the runs see only as a product (a task of a*b): refused, naming both.
TEST(Calibration, ParametersSeenOnlyTogetherAreNamed) {
  const char* const product =
      "PROGRAM NAME IS 'ab';\nEXECUTION PATTERN IS w -> SYNC;\nVARIABLE a = 2;\nVARIABLE b = 3;\n"
      "WORK PHASE w IS:\n  PARALLELIZATION SCHEME IS INDEPENDENT;\n  SUBTASK RUNTIME IS DETERMINISTIC(a*b);\n"
      "  PROBLEM SIZE IS VECTOR t(64);\nEND;\n";
  const models::Machine machine = machine_of_text(test_support::kBarrierMachine);
  analysis::MachineInput in;
  in.program = std::make_shared<const models::Program>(program_of_text(product, machine));
  in.machine = machine;
  analysis::CalibrationOptions options;
  options.parameters = {"a", "b"};
  const auto fit = analysis::calibrate(in, noisy_runs(*std::make_unique<std::mt19937_64>(3)), options);
  ASSERT_FALSE(fit.ok());
  EXPECT_EQ(fit.failure->kind, analysis::Failure::Kind::Request);
  EXPECT_EQ(fit.failure->message.substr(0, fit.failure->message.find(" (correlation")),
            "--fit a,b: the runs do not tell 'a' from 'b'");
}

}  // namespace
