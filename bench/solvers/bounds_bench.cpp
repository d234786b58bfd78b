// Bounds on the exact model of the paper's neighbour example scaled up: 1,000 columns, 100
// iterations, p = 64 (100,000 Erlang-8 tasks): all methods with the default options (the
// expensive ones skip themselves on a graph this large), and each method alone; on 1 and 2
// threads. Figures in docs/performance.md ("Bounds").
#include <benchmark/benchmark.h>
#include <tbb/global_control.h>

#include "scaling/exact_model.hpp"
#include "solvers/bounds.hpp"
#include "tests/support/program_builders.hpp"

namespace {

using namespace test_support;

const graph::TaskGraph& large_graph() {
  static const scaling::ExactModel model = [] {
    models::Environment environment;
    environment.values = {{"columns", 1000.0}, {"iterations", 100.0}, {"RTFactor", 1.0}};
    return scaling::exact_model(neighbor_program(), models::ideal_machine(), environment, 64);
  }();
  return model.scenarios.front().graph;
}

void run(benchmark::State& state, std::vector<solvers::BoundMethod> methods) {
  const graph::TaskGraph& g = large_graph();
  tbb::global_control threads(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(state.range(0)));
  solvers::BoundsOptions options;
  options.methods = std::move(methods);
  solvers::BoundsSummary summary;
  for (auto _ : state) {
    summary = solvers::compute_bounds(g, options);
    benchmark::ClobberMemory();
  }
  state.counters["lower"] = summary.lower;
  state.counters["upper"] = summary.upper;
  state.SetLabel(summary.BriefReport());
}

void BM_BoundsAllMethods(benchmark::State& state) {
  run(state, {solvers::kAllBoundMethods.begin(), solvers::kAllBoundMethods.end()});
}
BENCHMARK(BM_BoundsAllMethods)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);

void BM_BoundsOneMethod(benchmark::State& state) {
  const auto method = solvers::kAllBoundMethods[static_cast<std::size_t>(state.range(1))];
  run(state, {method});
  state.SetLabel(std::string(solvers::to_string(method)) + ": " +
                 std::to_string(state.counters[solvers::is_lower_bound(method) ? "lower" : "upper"]));
}
BENCHMARK(BM_BoundsOneMethod)
    ->ArgsProduct({{1}, {0, 1, 2, 3, 4, 5}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
