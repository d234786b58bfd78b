// Monte Carlo throughput (task-samples per second) on the exact model of the paper's neighbour
// example scaled up: 1,000 columns, 100 iterations, p = 64 (100,000 Erlang-8 tasks), on 1 and
// 2 threads, and with each instruction-set kernel; and the time to build that model. Figures in
// docs/performance.md.
#include <benchmark/benchmark.h>

#include <string>

#include "scaling/exact_model.hpp"
#include "solvers/monte_carlo.hpp"
#include "tests/support/program_builders.hpp"

namespace {

using namespace test_support;

scaling::ExactModel large_model() {
  models::Environment environment;
  environment.values = {{"columns", 1000.0}, {"iterations", 100.0}, {"RTFactor", 1.0}};
  return scaling::exact_model(neighbor_program(), models::ideal_machine(), environment, 64);
}

void BM_BuildExactNeighborModel(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(large_model());
  state.SetLabel("1000 columns x 100 iterations, p = 64");
}
BENCHMARK(BM_BuildExactNeighborModel)->Unit(benchmark::kMillisecond);

void run_exact_neighbor(benchmark::State& state, int threads, solvers::MonteCarloIsa isa) {
  const scaling::ExactModel model = large_model();
  const graph::TaskGraph& graph = model.scenarios.front().graph;
  solvers::MonteCarloOptions options;
  options.samples = 1024;
  options.threads = threads;
  options.isa = isa;
  std::string why;
  if (!options.IsValid(&why)) {
    state.SkipWithError(why.c_str());
    return;
  }
  std::int64_t task_samples = 0;
  for (auto _ : state) {
    solvers::MonteCarloSummary summary;
    benchmark::DoNotOptimize(solvers::solve_monte_carlo(graph, options, &summary));
    task_samples += summary.task_samples;
  }
  state.counters["task_samples_per_s"] =
      benchmark::Counter(static_cast<double>(task_samples), benchmark::Counter::kIsRate);
  state.SetLabel(std::to_string(graph.node_count()) + " tasks, 1024 samples");
}

// The widest kernel the CPU runs, on 1 and 2 threads.
void BM_MonteCarloExactNeighbor(benchmark::State& state) {
  run_exact_neighbor(state, static_cast<int>(state.range(0)), solvers::MonteCarloIsa::Auto);
}
BENCHMARK(BM_MonteCarloExactNeighbor)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

// Each kernel on 1 thread (isa: 1 SSE2, 2 AVX2, 3 AVX-512, the values of solvers::MonteCarloIsa).
void BM_MonteCarloExactNeighborKernel(benchmark::State& state) {
  run_exact_neighbor(state, 1, static_cast<solvers::MonteCarloIsa>(state.range(0)));
}
BENCHMARK(BM_MonteCarloExactNeighborKernel)
    ->ArgName("isa")
    ->Arg(static_cast<int>(solvers::MonteCarloIsa::Sse2))
    ->Arg(static_cast<int>(solvers::MonteCarloIsa::Avx2))
    ->Arg(static_cast<int>(solvers::MonteCarloIsa::Avx512))
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
