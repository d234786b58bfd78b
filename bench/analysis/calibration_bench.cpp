// The cost of calibration and of a prediction interval (docs/calibration.md) on the worked
// example's model: 64 independent exponential tasks and a barrier tree, fitted on 16 runs
// (two Ceres stages of approximate-model solves) and predicted with B parameter draws (one
// solve each) and the mixture's quantiles. docs/performance.md, "Calibration".
#include <benchmark/benchmark.h>

#include <cmath>
#include <memory>
#include <random>

#include "analysis/calibration.hpp"
#include "analysis/prediction_interval.hpp"
#include "tests/support/calibration_case.hpp"

namespace {

analysis::MachineInput model(const std::string& runtime) { return test_support::tasks_and_barrier(runtime); }

// `repetitions` runs at each of p = 1, 2, 4, 8 around the model with tc = 2, ts = 30 (5%
// noise, fixed seed).
models::Runs runs(int repetitions = 4) {
  std::mt19937_64 random(7);
  std::normal_distribution<double> z;
  models::Runs result;
  for (int p : {1, 2, 4, 8}) {
    for (int repetition = 1; repetition <= repetitions; ++repetition) {
      models::Run run;
      run.p = p;
      run.time = (64.0 / p * 2.0 + (p > 1 ? 30.0 * std::log2(p) : 0.0)) * (1.0 + 0.05 * z(random));
      result.runs.push_back(run);
    }
  }
  return result;
}

const char* runtime_of(std::int64_t kind) { return kind == 0 ? "DETERMINISTIC(tc)" : "EXPONENTIAL(tc)"; }

// Arguments: 0 deterministic tasks, 1 exponential tasks; the starts of stage 1 (1: the input's
// values alone, 5: the default); 1 to refit without each axis's outer settings (the calibrated
// range's rate, the default), 0 not to.
void BM_Calibrate(benchmark::State& state) {
  const analysis::MachineInput input = model(runtime_of(state.range(0)));
  const models::Runs measured = runs();
  analysis::CalibrationOptions options;
  options.parameters = {"tc", "ts"};
  options.starts = static_cast<int>(state.range(1));
  options.estimate_range = state.range(2) != 0;
  for (auto _ : state) benchmark::DoNotOptimize(analysis::calibrate(input, measured, options));
}
BENCHMARK(BM_Calibrate)
    ->ArgNames({"exponential", "starts", "range"})
    ->Args({0, 1, 0})
    ->Args({0, 5, 0})
    ->Args({0, 5, 1})
    ->Args({1, 1, 0})
    ->Args({1, 5, 0})
    ->Args({1, 5, 1})
    ->Unit(benchmark::kMillisecond);

// Argument: rows, spread over the same 4 settings (exponential tasks). Each distinct setting is
// solved once per evaluation, so the time should grow with the rows only by the residuals' and
// the Jacobian's rows, not by a solve each.
void BM_CalibrateRows(benchmark::State& state) {
  const analysis::MachineInput input = model(runtime_of(1));
  const models::Runs measured = runs(static_cast<int>(state.range(0) / 4));
  analysis::CalibrationOptions options;
  options.parameters = {"tc", "ts"};
  for (auto _ : state) benchmark::DoNotOptimize(analysis::calibrate(input, measured, options));
  state.counters["rows"] = static_cast<double>(measured.runs.size());
}
BENCHMARK(BM_CalibrateRows)
    ->ArgNames({"rows"})
    ->Arg(16)
    ->Arg(1000)
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond);

// Arguments: task kind, p, parameter draws.
void BM_PredictInterval(benchmark::State& state) {
  const analysis::MachineInput input = model(runtime_of(state.range(0)));
  analysis::CalibrationOptions options;
  options.parameters = {"tc", "ts"};
  const auto fit = analysis::calibrate(input, runs(), options);
  const analysis::ParameterUncertainty uncertainty = analysis::uncertainty_of(*fit.value);
  analysis::PredictionIntervalOptions interval;
  interval.parameter_draws = static_cast<int>(state.range(2));
  for (auto _ : state) {
    benchmark::DoNotOptimize(analysis::predict_interval(input, state.range(1), uncertainty, interval, 1));
  }
}
BENCHMARK(BM_PredictInterval)
    ->ArgNames({"exponential", "p", "draws"})
    ->Args({0, 64, 200})
    ->Args({1, 64, 200})
    ->Args({1, 1024, 200})
    ->Args({1, 64, 1000})
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
