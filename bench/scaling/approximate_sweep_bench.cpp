// The approximate model's sweep over p for the paper's neighbour example, in process: its
// cost must not grow with the number of columns or iterations (docs/performance.md).
#include <benchmark/benchmark.h>

#include "app/sweep.hpp"
#include "tests/support/program_builders.hpp"

namespace {

using namespace test_support;

// Arguments: pmax, columns, iterations, threads.
void BM_NeighborSweep(benchmark::State& state) {
  const models::Program program = neighbor_program();
  models::Environment environment;
  environment.values = {{"columns", static_cast<double>(state.range(1))},
                        {"iterations", static_cast<double>(state.range(2))},
                        {"RTFactor", 1.0}};
  app::SweepOptions options;
  for (int p = 1; p <= state.range(0); ++p) options.processors.push_back(p);
  options.threads = static_cast<int>(state.range(3));
  for (auto _ : state) {
    benchmark::DoNotOptimize(app::run_sweep(program, models::ideal_machine(), environment, options));
  }
  state.counters["p_per_second"] = benchmark::Counter(
      static_cast<double>(state.range(0)), benchmark::Counter::kIsIterationInvariantRate);
}

BENCHMARK(BM_NeighborSweep)
    ->ArgNames({"pmax", "columns", "iterations", "threads"})
    ->Args({64, 10, 2, 2})
    ->Args({1024, 10, 2, 2})
    ->Args({1024, 100000, 1000, 1})
    ->Args({1024, 100000, 1000, 2})
    ->Args({1024, 10000000, 100000, 2})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
