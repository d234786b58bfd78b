// State-space sweep throughput (states per second) on the paper's section 5.1 example
// (NEIGHBOR over 10 columns, Erlang-8 tasks of mean 8), on 1 and 2 threads.
// Arguments: iterations, processors, threads.
#include <benchmark/benchmark.h>

#include "scaling/exact_model.hpp"
#include "solvers/state_space.hpp"
#include "tests/support/neighbor_graph.hpp"

namespace {

using namespace test_support;

using models::Expr;

void BM_StateSpaceNeighbor(benchmark::State& state) {
  const graph::TaskGraph g = neighbor_example_graph(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  solvers::StateSpaceOptions options;
  options.threads = static_cast<int>(state.range(2));
  options.memory_budget_bytes = solvers::quarter_of(solvers::physical_memory_bytes());
  std::int64_t states = 0;
  double mean = 0.0;
  for (auto _ : state) {
    const solvers::Result r = solvers::solve_state_space(g, options);
    states = r.statistics.states;
    mean = r.mean;
    benchmark::DoNotOptimize(states);
  }
  state.counters["states"] = static_cast<double>(states);
  state.counters["mean"] = mean;
  state.counters["states_per_s"] =
      benchmark::Counter(static_cast<double>(states), benchmark::Counter::kIsIterationInvariantRate);
}

// 2 iterations on 4 processors (the paper's largest case) and on 5, 4 iterations on 4 processors.
BENCHMARK(BM_StateSpaceNeighbor)
    ->ArgNames({"iterations", "p", "threads"})
    ->Args({2, 4, 1})
    ->Args({2, 4, 2})
    ->Args({2, 5, 1})
    ->Args({2, 5, 2})
    ->Args({4, 4, 1})
    ->Args({4, 4, 2})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_StateSpaceEstimate(benchmark::State& state) {
  const graph::TaskGraph g = neighbor_example_graph(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  const solvers::StateSpaceOptions options;
  double states = 0.0;
  for (auto _ : state) {
    const auto counted = solvers::estimate_state_count(g, options);
    if (!counted.ok()) {
      state.SkipWithError(counted.failure->reason.c_str());
      break;
    }
    states = counted.value->states;
    benchmark::ClobberMemory();
  }
  state.counters["estimated_states"] = states;
}

// The refusal path: 8 iterations on 10 processors, far past any budget.
BENCHMARK(BM_StateSpaceEstimate)
    ->ArgNames({"iterations", "p"})
    ->Args({2, 4})
    ->Args({8, 10})
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
