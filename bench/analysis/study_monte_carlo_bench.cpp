// Monte Carlo through the study, as `pdl-scale examples/paper/neighbor.pdl --set columns=1000
// --set iterations=100 --p 64 --method mc --samples 2000 --threads 1` runs it: the approximate
// and exact models of p = 1 and 64 built, p = 1's one-processor chain summed, p = 64 simulated
// (100,000 Erlang-8 tasks). Against monte_carlo_bench's kernel alone: docs/performance.md,
// "Monte Carlo through the command".
#include <benchmark/benchmark.h>

#include <memory>
#include <vector>

#include "analysis/study.hpp"
#include "tests/support/program_builders.hpp"

namespace {

using namespace test_support;

void BM_StudyMonteCarloNeighbor(benchmark::State& state) {
  analysis::Case one;
  one.program = std::make_shared<const models::Program>(neighbor_program());
  one.machine = std::make_shared<const models::Machine>(models::ideal_machine());
  one.environment.values = {{"columns", 1000.0}, {"iterations", 100.0}, {"RTFactor", 1.0}};
  one.label.machine = "ideal";
  analysis::Request request;
  request.methods = {solvers::Method::MonteCarlo};
  request.processors = {64};
  request.solver_options.monte_carlo.samples = 2000;
  request.solver_options.monte_carlo.relative_precision = 0.0;
  request.threads = 1;
  const std::vector<analysis::Case> cases{one};
  for (auto _ : state) benchmark::DoNotOptimize(analysis::run_study(cases, request));
  // The task-samples of p = 64, the only p simulated.
  state.counters["task_samples_per_s"] =
      benchmark::Counter(2000.0 * 100000.0, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_StudyMonteCarloNeighbor)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
