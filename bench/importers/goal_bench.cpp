// The GOAL reader on a generated schedule of `ranks` ranks doing `rounds` rounds of a ring
// exchange (a calc, a send to the right, a receive from the left, each round's calc after the
// previous round's receive): 5 * ranks * rounds statements, 3 * ranks * rounds operations. The
// import alone, and the import with the program parsed, checked and solved exactly on LogGOPSim's
// machine at p = ranks. Such a schedule makes about 95 bytes of PDL per operation, so that the
// PDL reader's 8 MiB takes about 88,000 of its operations: the import of 10^5 operations
// (256 ranks, 131 rounds) is timed with the program's bound raised (the reader's own work), the
// solve at 76,800 operations (100 rounds), the most of this shape the command imports.
#include <benchmark/benchmark.h>

#include <fmt/format.h>

#include <iterator>
#include <string>

#include "analysis/study.hpp"
#include "importers/goal.hpp"
#include "tests/support/case_from_text.hpp"

namespace {

std::string ring_schedule(int ranks, int rounds) {
  std::string text = fmt::format("num_ranks {}\n", ranks);
  for (int r = 0; r < ranks; ++r) {
    fmt::format_to(std::back_inserter(text), "rank {} {{\n", r);
    for (int k = 0; k < rounds; ++k) {
      fmt::format_to(
          std::back_inserter(text),
          "c{0}: calc {1}\ns{0}: send 1024b to {2} tag 0\nr{0}: recv 1024b from {3} tag 0\ns{0} requires c{0}\n", k,
          1000 + 37 * ((r * 7 + k) % 11), (r + 1) % ranks, (r + ranks - 1) % ranks);
      if (k > 0) fmt::format_to(std::back_inserter(text), "c{} requires r{}\n", k, k - 1);
    }
    text += "}\n";
  }
  return text;
}

// Operations: calc, send and recv statements.
double operations(benchmark::State& state) { return 3.0 * static_cast<double>(state.range(0) * state.range(1)); }

void BM_GoalImport(benchmark::State& state) {
  const std::string text = ring_schedule(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  for (auto _ : state) {
    const importers::ImportResult result =
        importers::read_goal({"ring.goal", text, 0}, {.max_program_bytes = 64u << 20, .memory_budget_bytes = 0});
    if (!result.imported) state.SkipWithError("refused");
    benchmark::DoNotOptimize(result);
  }
  state.counters["operations"] = operations(state);
  state.counters["input_MB"] = static_cast<double>(text.size()) / 1e6;
  state.counters["ops_per_s"] = benchmark::Counter(operations(state), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_GoalImport)->Args({64, 16})->Args({256, 131})->Unit(benchmark::kMillisecond);

void BM_GoalImportCheckAndSolveExactly(benchmark::State& state) {
  const int ranks = static_cast<int>(state.range(0));
  const std::string text = ring_schedule(ranks, static_cast<int>(state.range(1)));
  const std::string machine = test_support::read_file(PDL_SCALE_SOURCE_DIR "/examples/machines/loggopsim.machine");
  for (auto _ : state) {
    const importers::ImportResult result = importers::read_goal({"ring.goal", text, 0}, {});
    if (!result.imported) {
      state.SkipWithError("refused");
      continue;
    }
    const analysis::Case one = test_support::case_of(result.imported->program, machine);
    benchmark::DoNotOptimize(
        analysis::run_study({one}, test_support::request_for({ranks}, {solvers::Method::StateSpace})));
  }
  state.counters["operations"] = operations(state);
}
BENCHMARK(BM_GoalImportCheckAndSolveExactly)->Args({64, 16})->Args({256, 100})->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
