// Peak heap memory of each method against its plan (docs/performance.md, "Memory"): every
// operator new of this program is counted, so `peak_MiB` is what a solve allocated at its
// worst beyond what existed before it, and `plan_MiB` what the method planned before starting
// (bounds: estimate_bounds_memory with that method alone; Monte Carlo:
// estimate_monte_carlo_memory with one worker). A plan below the peak is a bug in the
// per-task figures of solvers/bounds_memory.cpp or solvers/monte_carlo.cpp.
//
// Graphs: the exact model of the paper's neighbour example (columns x iterations on p
// processors) and a random DAG like bench/random_dag.py's (1-3 predecessors among the previous
// 64 tasks, three Erlang/exponential laws, processors in turn). One thread: the peak of the
// methods side by side is the sum of theirs.
#include <benchmark/benchmark.h>
#include <tbb/global_control.h>

#include <atomic>
#include <cstdlib>
#include <map>
#include <new>
#include <string>

#include "scaling/exact_model.hpp"
#include "solvers/bounds.hpp"
#include "solvers/monte_carlo.hpp"
#include "tests/support/program_builders.hpp"

namespace {

std::atomic<std::int64_t> live_bytes{0};
std::atomic<std::int64_t> peak_bytes{0};

void count(std::int64_t delta) {
  const std::int64_t now = live_bytes.fetch_add(delta) + delta;
  std::int64_t peak = peak_bytes.load();
  while (now > peak && !peak_bytes.compare_exchange_weak(peak, now)) {}
}

// Each block carries its size in front (16 bytes, keeping the alignment of operator new).
constexpr std::size_t kHeader = 16;

}  // namespace

void* operator new(std::size_t n) {
  void* block = std::malloc(n + kHeader);
  if (block == nullptr) throw std::bad_alloc();
  *static_cast<std::size_t*>(block) = n;
  count(static_cast<std::int64_t>(n));
  return static_cast<char*>(block) + kHeader;
}
void operator delete(void* p) noexcept {
  if (p == nullptr) return;
  char* block = static_cast<char*>(p) - kHeader;
  count(-static_cast<std::int64_t>(*reinterpret_cast<std::size_t*>(block)));
  std::free(block);
}
void operator delete(void* p, std::size_t) noexcept { operator delete(p); }
void* operator new[](std::size_t n) { return operator new(n); }
void operator delete[](void* p) noexcept { operator delete(p); }
void operator delete[](void* p, std::size_t) noexcept { operator delete(p); }

namespace {

using namespace test_support;

// Graph 0..2: neighbour, 1,000 columns x 100 iterations on 64, 1 processors, and 10,000 x 100
// on 64; 3..5: random DAGs of 5,000, 20,000 and 100,000 tasks.
const graph::TaskGraph& graph_of(std::int64_t which) {
  static std::map<std::int64_t, graph::TaskGraph> graphs;
  auto found = graphs.find(which);
  if (found != graphs.end()) return found->second;
  graph::TaskGraph g;
  if (which <= 2) {
    models::Environment environment;
    environment.values = {{"columns", which == 2 ? 10000.0 : 1000.0}, {"iterations", 100.0}, {"RTFactor", 1.0}};
    auto model = scaling::exact_model(neighbor_program(), models::ideal_machine(), environment, which == 1 ? 1 : 64);
    g = std::move(model.scenarios.front().graph);
  } else {
    const std::size_t n = which == 3 ? 5000 : which == 4 ? 20000 : 100000;
    std::uint64_t x = 0x9E3779B97F4A7C15ull;
    auto next = [&] {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      return x;
    };
    const std::vector<distributions::Distribution> laws{distributions::erlang(4, 2.0), distributions::exponential(0.5),
                                                        distributions::erlang(8, 4.0)};
    for (std::size_t i = 0; i < n; ++i) {
      g.add_node({"t" + std::to_string(i), graph::NodeKind::Task, laws[next() % 3], static_cast<int>(i % 64)});
      if (i == 0) continue;
      const std::size_t first = i > 64 ? i - 64 : 0;
      for (std::uint64_t k = 1 + next() % 3; k > 0; --k) g.add_arc(first + next() % (i - first), i);
    }
  }
  return graphs.emplace(which, std::move(g)).first->second;
}

void report(benchmark::State& state, double plan) {
  const auto peak = static_cast<double>(peak_bytes.load() - live_bytes.load());
  const graph::TaskGraph& g = graph_of(state.range(0));
  state.counters["tasks"] = static_cast<double>(g.node_count());
  state.counters["peak_MiB"] = peak / (1 << 20);
  state.counters["plan_MiB"] = plan / (1 << 20);
  state.counters["peak_B_per_task"] = peak / static_cast<double>(g.node_count());
}

// Arg 0: the graph; arg 1: the bound method (6: all six).
void BM_BoundsPeak(benchmark::State& state) {
  tbb::global_control one(tbb::global_control::max_allowed_parallelism, 1);
  const graph::TaskGraph& g = graph_of(state.range(0));
  solvers::BoundsOptions options;
  options.parallel = false;
  options.memory_budget_bytes = std::uint64_t{64} << 30;  // measure, do not degrade
  if (state.range(1) < 6) options.methods = {solvers::kAllBoundMethods[static_cast<std::size_t>(state.range(1))]};
  const double plan = solvers::estimate_bounds_memory(g, options);
  solvers::BoundsSummary summary;
  for (auto _ : state) {
    peak_bytes.store(live_bytes.load());
    summary = solvers::compute_bounds(g, options);
  }
  state.SetLabel(state.range(1) < 6 ? std::string(solvers::to_string(options.methods.front())) : "all");
  report(state, plan);
}
BENCHMARK(BM_BoundsPeak)
    ->ArgsProduct({{0, 1, 2, 3, 4, 5}, {0, 1, 2, 3, 4, 5, 6}})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

// Monte Carlo, 1,024 samples on one worker; arg 0: the graph.
void BM_MonteCarloPeak(benchmark::State& state) {
  tbb::global_control one(tbb::global_control::max_allowed_parallelism, 1);
  const graph::TaskGraph& g = graph_of(state.range(0));
  solvers::MonteCarloOptions options;
  options.samples = 1024;
  options.threads = 1;
  const solvers::WeightedGraph scenario{1.0, &g};
  const double plan = solvers::estimate_monte_carlo_memory({&scenario, 1}, options, 1);
  for (auto _ : state) {
    peak_bytes.store(live_bytes.load());
    benchmark::DoNotOptimize(solvers::solve_monte_carlo(g, options));
  }
  report(state, plan);
}
BENCHMARK(BM_MonteCarloPeak)->DenseRange(0, 5)->Unit(benchmark::kMillisecond)->Iterations(1);

// The exact model's build: arg 0, 1 or 2 (neighbour only); the plan is
// solvers::exact_model_build_bytes of its tasks.
void BM_ExactModelPeak(benchmark::State& state) {
  const double columns = state.range(0) == 2 ? 10000.0 : 1000.0;
  const int p = state.range(0) == 1 ? 1 : 64;
  models::Environment environment;
  environment.values = {{"columns", columns}, {"iterations", 100.0}, {"RTFactor", 1.0}};
  std::size_t nodes = 0;
  for (auto _ : state) {
    peak_bytes.store(live_bytes.load());
    const auto model = scaling::exact_model(neighbor_program(), models::ideal_machine(), environment, p);
    nodes = model.scenarios.front().graph.node_count();
  }
  const auto peak = static_cast<double>(peak_bytes.load() - live_bytes.load());
  state.counters["tasks"] = static_cast<double>(nodes);
  state.counters["peak_MiB"] = peak / (1 << 20);
  state.counters["plan_MiB"] = solvers::exact_model_build_bytes(columns * 100.0) / (1 << 20);
}
BENCHMARK(BM_ExactModelPeak)->DenseRange(0, 2)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
