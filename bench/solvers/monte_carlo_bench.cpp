// Monte Carlo throughput (task-samples per second) on the exact model of the paper's neighbour
// example scaled up: 1,000 columns, 100 iterations, p = 64 (100,000 Erlang-8 tasks), on 1 and
// 2 threads; and the time to build that model. Figures in docs/performance.md.
#include <benchmark/benchmark.h>

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

void BM_MonteCarloExactNeighbor(benchmark::State& state) {
  const scaling::ExactModel model = large_model();
  const graph::TaskGraph& graph = model.scenarios.front().graph;
  solvers::MonteCarloOptions options;
  options.samples = 1024;
  options.threads = static_cast<int>(state.range(0));
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
BENCHMARK(BM_MonteCarloExactNeighbor)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
