// The approximate model's sweep over p, in process (docs/performance.md): for the paper's
// neighbour example its cost must not grow with the number of columns or iterations; for a 2-D
// decomposition it must grow linearly in pmax (a layout's models cost its processor rows and
// columns, not its processors).
#include <benchmark/benchmark.h>

#include <memory>

#include "analysis/study.hpp"
#include "tests/support/case_from_text.hpp"
#include "tests/support/program_builders.hpp"

namespace {

using namespace test_support;

// Arguments: pmax, columns, iterations, threads. With `quantiles`, the levels a JSON report
// carries (analysis::kJsonQuantileLevels): the runtime distribution of every p, not only its
// mean (docs/performance.md, "JSON against the table").
void neighbor_sweep(benchmark::State& state, bool quantiles) {
  analysis::Case one;
  one.program = std::make_shared<const models::Program>(neighbor_program());
  one.machine = std::make_shared<const models::Machine>(models::ideal_machine());
  one.environment.values = {{"columns", static_cast<double>(state.range(1))},
                            {"iterations", static_cast<double>(state.range(2))},
                            {"RTFactor", 1.0}};
  one.label.machine = "ideal";
  analysis::Request request;
  request.methods = {solvers::Method::SeriesParallel};
  if (quantiles) {
    request.solver_options.quantiles.assign(analysis::kJsonQuantileLevels.begin(), analysis::kJsonQuantileLevels.end());
  }
  request.processors.clear();
  for (int p = 1; p <= state.range(0); ++p) request.processors.push_back(p);
  request.threads = static_cast<int>(state.range(3));
  const std::vector<analysis::Case> cases{one};
  for (auto _ : state) benchmark::DoNotOptimize(analysis::run_study(cases, request));
  state.counters["p_per_second"] =
      benchmark::Counter(static_cast<double>(state.range(0)), benchmark::Counter::kIsIterationInvariantRate);
}
void BM_NeighborSweep(benchmark::State& state) { neighbor_sweep(state, false); }
void BM_NeighborSweepWithQuantiles(benchmark::State& state) { neighbor_sweep(state, true); }

BENCHMARK(BM_NeighborSweepWithQuantiles)
    ->ArgNames({"pmax", "columns", "iterations", "threads"})
    ->Args({256, 100000, 1000, 1})
    ->Args({1024, 100000, 1000, 2})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

BENCHMARK(BM_NeighborSweep)
    ->ArgNames({"pmax", "columns", "iterations", "threads"})
    ->Args({64, 10, 2, 2})
    ->Args({1024, 10, 2, 2})
    ->Args({256, 100000, 1000, 1})
    ->Args({1024, 100000, 1000, 1})
    ->Args({1024, 100000, 1000, 2})
    ->Args({1024, 10000000, 100000, 2})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// Arguments: pmax, threads, nodes. examples/studies/stencil_2d.pdl (NEIGHBOR, DECOMPOSITION IS
// 2D) with n = 4096 on examples/machines/infiniband-edr.machine (nodes: 0) or its 32-a-node
// twin infiniband-edr-nodes.machine (nodes: 1, docs/semantics.md M15), approx, as the command
// runs it.
void BM_Stencil2dSweep(benchmark::State& state) {
  const std::string root = PDL_SCALE_SOURCE_DIR;
  const std::string machine = state.range(2) == 1 ? "/examples/machines/infiniband-edr-nodes.machine"
                                                  : "/examples/machines/infiniband-edr.machine";
  const std::vector<analysis::Case> cases{
      case_of(read_file(root + "/examples/studies/stencil_2d.pdl"), read_file(root + machine), {{"n", 4096.0}})};
  analysis::Request request;
  request.methods = {solvers::Method::SeriesParallel};
  request.prediction.seconds_per_model = 0.0;
  request.processors.clear();
  for (int p = 1; p <= state.range(0); ++p) request.processors.push_back(p);
  request.threads = static_cast<int>(state.range(1));
  for (auto _ : state) benchmark::DoNotOptimize(analysis::run_study(cases, request));
  state.counters["p_per_second"] =
      benchmark::Counter(static_cast<double>(state.range(0)), benchmark::Counter::kIsIterationInvariantRate);
}

BENCHMARK(BM_Stencil2dSweep)
    ->ArgNames({"pmax", "threads", "nodes"})
    ->ArgsProduct({{256, 1024, 4096, 16384, 65536}, {1}, {0}})
    ->Args({4096, 1, 1})
    ->Args({65536, 1, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
