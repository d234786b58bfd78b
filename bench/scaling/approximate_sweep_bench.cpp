// The approximate model's sweep over p for the paper's neighbour example, in process: its
// cost must not grow with the number of columns or iterations (docs/performance.md).
#include <benchmark/benchmark.h>

#include <memory>

#include "analysis/study.hpp"
#include "tests/support/program_builders.hpp"

namespace {

using namespace test_support;

// Arguments: pmax, columns, iterations, threads.
void BM_NeighborSweep(benchmark::State& state) {
  analysis::Case one;
  one.program = std::make_shared<const models::Program>(neighbor_program());
  one.machine = std::make_shared<const models::Machine>(models::ideal_machine());
  one.environment.values = {{"columns", static_cast<double>(state.range(1))},
                            {"iterations", static_cast<double>(state.range(2))},
                            {"RTFactor", 1.0}};
  one.label.machine = "ideal";
  analysis::Request request;
  request.methods = {solvers::Method::SeriesParallel};
  request.processors.clear();
  for (int p = 1; p <= state.range(0); ++p) request.processors.push_back(p);
  request.threads = static_cast<int>(state.range(3));
  const std::vector<analysis::Case> cases{one};
  for (auto _ : state) benchmark::DoNotOptimize(analysis::run_study(cases, request));
  state.counters["p_per_second"] =
      benchmark::Counter(static_cast<double>(state.range(0)), benchmark::Counter::kIsIterationInvariantRate);
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
