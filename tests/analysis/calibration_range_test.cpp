// The calibrated range and the model's error beyond it (docs/calibration.md, "Beyond the
// calibrated range"): each refit without an axis's outer settings against its closed form, and
// where a setting lies against the distances worked by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "analysis/calibration.hpp"
#include "analysis/calibration_range.hpp"
#include "analysis/run_model.hpp"
#include "tests/support/calibration_case.hpp"
#include "tests/support/case_from_text.hpp"

namespace {

using test_support::machine_of_text;
using test_support::program_of_text;

// One task of c*n: T = c n at p = 1, while the runs grow as n^1.5 (a model that misses the trend).
const char* const kLine =
    "PROGRAM NAME IS 'line';\n"
    "EXECUTION PATTERN IS w;\n"
    "VARIABLE n = 1;\n"
    "VARIABLE c = 1;\n"
    "WORK PHASE w IS:\n"
    "  PARALLELIZATION SCHEME IS INDEPENDENT;\n"
    "  SUBTASK RUNTIME IS DETERMINISTIC(c*n);\n"
    "  PROBLEM SIZE IS VECTOR a(1);\n"
    "END;\n";

analysis::MachineInput input_of(const char* program, const char* machine_text) {
  const models::Machine machine = machine_of_text(machine_text);
  analysis::MachineInput in;
  in.program = std::make_shared<const models::Program>(program_of_text(program, machine));
  in.machine = machine;
  return in;
}

const std::vector<double> kSizes = {1, 2, 4, 8, 16, 32};

// Two runs per size, n^1.5 times 1 - 1% and 1 + 1%: their mean is n^1.5.
constexpr double kNoise = 0.01;

models::Runs power_runs() {
  models::Runs runs;
  runs.file = "power.csv";
  runs.variables = {"n"};
  for (const double n : kSizes) {
    for (const double factor : {1.0 - kNoise, 1.0 + kNoise}) {
      models::Run run;
      run.values = {n};
      run.time = factor * std::pow(n, 1.5);
      runs.runs.push_back(run);
    }
  }
  return runs;
}

// The relative least squares of c n against the runs of `sizes`: c = sum r / sum r^2 over the
// runs, r = n / t.
double fitted_c(const std::vector<double>& sizes) {
  double sum = 0.0, squares = 0.0;
  for (const double n : sizes) {
    for (const double factor : {1.0 - kNoise, 1.0 + kNoise}) {
      const double r = n / (factor * std::pow(n, 1.5));
      sum += r;
      squares += r * r;
    }
  }
  return sum / squares;
}

// The unexplained variance of deterministic runs: sum over the runs of log(t / c n)^2 / (runs - 1)
// (Paule and Mandel's equation with no spread of the model's own); with it, the variance of
// log c, u^2 / sum (c r)^2.
std::pair<double, double> unexplained_and_parameter_variance(const std::vector<double>& sizes) {
  const double c = fitted_c(sizes);
  double squares = 0.0, information = 0.0;
  for (const double n : sizes) {
    for (const double factor : {1.0 - kNoise, 1.0 + kNoise}) {
      const double t = factor * std::pow(n, 1.5);
      squares += std::pow(std::log(t / (c * n)), 2);
      information += std::pow(c * n / t, 2);
    }
  }
  const double u2 = squares / static_cast<double>(2 * sizes.size() - 1);
  return {u2, u2 / information};
}

// The repetitions' own variance: the pooled variance of log time within each size's two runs.
double repetition_variance() {
  const double half = 0.5 * std::log((1.0 + kNoise) / (1.0 - kNoise));
  return 2.0 * half * half;  // two deviations of `half` per size, one degree of freedom
}

// A split's rate worked by hand: refit c' on `kept`; for each size left out e = log(n^1.5 / c' n)
// (its runs' mean is n^1.5) and v = s^2 / 2 + var(log c'), s^2 the repetitions' variance; d its
// log distance to the nearest size kept; the root of sum(e^2 - v) / sum d^2 when that sum
// exceeds 2 sqrt(sum 2 v^2), else 0.
double closed_form_rate(const std::vector<double>& kept, const std::vector<double>& left_out) {
  const double c = fitted_c(kept);
  const double v = repetition_variance() / 2.0 + unexplained_and_parameter_variance(kept).second;
  double excess = 0.0, null_variance = 0.0, distances = 0.0;
  for (const double n : left_out) {
    const double e = std::log(std::pow(n, 1.5) / (c * n));
    double nearest = INFINITY;
    for (const double k : kept) nearest = std::min(nearest, std::abs(std::log(n / k)));
    excess += e * e - v;
    null_variance += 2.0 * v * v;
    distances += nearest * nearest;
  }
  return excess > 2.0 * std::sqrt(null_variance) ? std::sqrt(excess / distances) : 0.0;
}

// c fitted to power_runs() on kLine's program.
analysis::MachineInput line_input() { return input_of(kLine, "MACHINE NAME IS 'm';\n"); }
analysis::Outcome<analysis::CalibrationResult> fit_line(const analysis::MachineInput& in) {
  analysis::CalibrationOptions options;
  options.parameters = {"c"};
  return analysis::calibrate(in, power_runs(), options);
}

TEST(CalibratedRange, EachRefitWithoutTheOuterSettingsMatchesItsClosedForm) {
  const auto fit = fit_line(line_input());
  ASSERT_TRUE(fit.ok()) << fit.failure->message;
  const analysis::CalibratedRange& range = fit.value->range;
  ASSERT_EQ(range.axes, (std::vector<std::string>{"p", "n"}));
  EXPECT_EQ(range.low[1], 1.0);
  EXPECT_EQ(range.high[1], 32.0);
  // p has one value: no split; n's span is log 32, its outer quarters 16, 32 and 1, 2.
  ASSERT_EQ(range.splits.size(), 2U);
  ASSERT_TRUE(fit.value->repetition_spread);
  EXPECT_NEAR(*fit.value->repetition_spread, std::sqrt(repetition_variance()), 1e-9);
  const double up = closed_form_rate({1, 2, 4, 8}, {16, 32});
  const double down = closed_form_rate({4, 8, 16, 32}, {1, 2});
  EXPECT_EQ(range.splits[0].axis, "n");
  EXPECT_TRUE(range.splits[0].upward);
  EXPECT_EQ(range.splits[0].held_out, 2U);
  // (the fits stop within Ceres's tolerances of the closed forms)
  EXPECT_NEAR(*range.splits[0].rate, up, 1e-3 * up);
  EXPECT_FALSE(range.splits[1].upward);
  EXPECT_NEAR(*range.splits[1].rate, down, 1e-3 * std::max(down, up));
  EXPECT_NEAR(*range.rate, std::max(up, down), 1e-3 * up);
  EXPECT_GT(*range.rate, 0.1);  // the trend the model misses shows
}

TEST(CalibratedRange, ASettingIsPlacedByItsLargestLogDistanceFromTheNearestCalibratedOne) {
  const analysis::MachineInput in = line_input();
  const auto fit = fit_line(in);
  ASSERT_TRUE(fit.ok()) << fit.failure->message;
  const analysis::CalibratedRange& range = fit.value->range;
  const auto at = [&](double n, std::int64_t p) {
    return analysis::place(range, *analysis::with_values(in, {"n"}, {n}).value, p);
  };
  const analysis::Placement beyond = at(64, 1);
  EXPECT_NEAR(beyond.distance, std::log(2.0), 1e-12);
  EXPECT_EQ(beyond.beyond, std::vector<std::string>{"n"});
  EXPECT_NEAR(beyond.discrepancy, *range.rate * std::log(2.0), 1e-12);
  const analysis::Placement between = at(3, 1);
  EXPECT_NEAR(between.distance, std::log(4.0 / 3.0), 1e-12);
  EXPECT_FALSE(between.extrapolated());
  const analysis::Placement on = at(8, 1);
  EXPECT_EQ(on.distance, 0.0);
  EXPECT_EQ(on.discrepancy, 0.0);
  const analysis::Placement more_processors = at(4, 4);
  EXPECT_NEAR(more_processors.distance, std::log(4.0), 1e-12);
  EXPECT_EQ(more_processors.beyond, std::vector<std::string>{"p"});
  // A variable the runs did not vary, at another value than the calibration's: beyond on it.
  const analysis::Placement other_c = analysis::place(range, *analysis::with_values(in, {"n", "c"}, {8, 3}).value, 1);
  EXPECT_EQ(other_c.distance, 0.0);  // c is fitted: not an axis
  EXPECT_TRUE(range.fixed.empty());
}

TEST(CalibratedRange, RefitsThatCannotDetermineTheParametersAreSkippedWithTheirReason) {
  // 64 tasks of tc and a barrier of ts at p > 1: runs at p = 1 and 2 only; without either, one
  // setting is left for two parameters.
  const analysis::MachineInput in = test_support::tasks_and_barrier();
  models::Runs runs;
  runs.file = "two.csv";
  for (const auto& [p, time] : {std::pair{1, 130.0}, {1, 126.0}, {2, 95.0}, {2, 99.0}}) {
    models::Run run;
    run.p = p;
    run.time = time;
    runs.runs.push_back(run);
  }
  analysis::CalibrationOptions options;
  options.parameters = {"tc", "ts"};
  const auto fit = analysis::calibrate(in, runs, options);
  ASSERT_TRUE(fit.ok()) << fit.failure->message;
  const analysis::CalibratedRange& range = fit.value->range;
  ASSERT_EQ(range.splits.size(), 2U);
  for (const analysis::RangeSplit& split : range.splits) {
    EXPECT_FALSE(split.rate);
    EXPECT_EQ(split.skipped,
              "1 distinct setting(s) (p and column values) cannot determine 2 parameter(s): give runs at 2 or more "
              "settings");
  }
  EXPECT_FALSE(range.rate);
  const analysis::Placement far = analysis::place(range, in, 64);
  EXPECT_NEAR(far.distance, std::log(32.0), 1e-12);
  EXPECT_EQ(far.discrepancy, 0.0);  // not measured: no growth
}

}  // namespace
