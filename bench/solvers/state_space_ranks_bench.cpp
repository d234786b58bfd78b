// The state-space sweep shared by the ranks of an MPI job (states per second of the job) on the
// paper's section 5.1 example (NEIGHBOR over 10 columns, Erlang-8 tasks of mean 8), 2 iterations
// on 4 and 5 processors. Run it as the job it measures:
//   mpirun -n K state_space_ranks_bench [--threads=T] [--iterations=N] [benchmark flags]
// (alone it is a job of one rank). Every rank runs the same benchmark loop, a fixed number of
// iterations (N, default 3), since each solve is collective; only rank 0 reports. T is the
// threads of each rank (default 1); each rank's memory budget is a quarter of the machine's
// memory shared among the ranks.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "distributed/world.hpp"
#include "scaling/exact_model.hpp"
#include "solvers/state_space.hpp"
#include "tests/support/neighbor_graph.hpp"

namespace {

void solve_on_the_ranks(benchmark::State& state, const distributed::Communicator& communicator, int p, int threads) {
  const graph::TaskGraph g = test_support::neighbor_example_graph(2, p);
  solvers::StateSpaceOptions options;
  options.threads = threads;
  options.communicator = &communicator;
  options.memory_budget_bytes =
      solvers::quarter_of(solvers::physical_memory_bytes()) / static_cast<std::uint64_t>(communicator.size());
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
  state.counters["ranks"] = communicator.size();
  state.counters["states_per_s"] =
      benchmark::Counter(static_cast<double>(states), benchmark::Counter::kIsIterationInvariantRate);
}

// Reports nothing: the ranks other than 0.
class Silent final : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>&) override {}
};

// The value of --name=value in argv (removed from it), or `otherwise`.
int take_flag(int* argc, char** argv, std::string_view name, int otherwise) {
  const std::string prefix = "--" + std::string(name) + "=";
  for (int i = 1; i < *argc; ++i) {
    const std::string_view arg(argv[i]);
    if (arg.substr(0, prefix.size()) != prefix) continue;
    const int value = std::atoi(argv[i] + prefix.size());
    for (int j = i; j + 1 < *argc; ++j) argv[j] = argv[j + 1];
    --*argc;
    return value;
  }
  return otherwise;
}

}  // namespace

int main(int argc, char** argv) {
  distributed::World world = distributed::World::start(&argc, &argv);
  const distributed::Communicator& communicator = world.communicator();
  const int threads = take_flag(&argc, argv, "threads", 1);
  const int iterations = take_flag(&argc, argv, "iterations", 3);
  // Only rank 0 writes a file of results.
  if (communicator.rank() != 0) {
    int kept = 1;
    for (int i = 1; i < argc; ++i) {
      if (std::string_view(argv[i]).substr(0, 15) != "--benchmark_out") argv[kept++] = argv[i];
    }
    argc = kept;
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  for (int p : {4, 5}) {
    const std::string name = "BM_StateSpaceRanks/iterations:2/p:" + std::to_string(p) +
                             "/ranks:" + std::to_string(communicator.size()) + "/threads:" + std::to_string(threads);
    benchmark::RegisterBenchmark(
        name.c_str(),
        [&communicator, p, threads](benchmark::State& state) { solve_on_the_ranks(state, communicator, p, threads); })
        ->Iterations(iterations)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
  if (communicator.rank() == 0) {
    benchmark::RunSpecifiedBenchmarks();
  } else {
    Silent silent;
    benchmark::RunSpecifiedBenchmarks(&silent);
  }
  benchmark::Shutdown();
  return 0;
}
