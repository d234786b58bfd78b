// The WfCommons reader on every instance of validation/wfinstances/: the imports alone, and each
// import with its program parsed, checked and solved exactly at p = its task count (the state
// space of deterministic tasks: the critical path) on the ideal machine. Each iteration is the
// total over the instances.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "analysis/study.hpp"
#include "importers/wfformat.hpp"
#include "tests/support/case_from_text.hpp"

namespace {

struct Instance {
  std::string name;
  std::string text;
};

// The instances, read once, in name order.
const std::vector<Instance>& instances() {
  static const std::vector<Instance> all = [] {
    std::vector<Instance> out;
    for (const auto& entry : std::filesystem::directory_iterator(PDL_SCALE_SOURCE_DIR "/validation/wfinstances")) {
      if (entry.path().extension() != ".json") continue;
      out.push_back({entry.path().filename().string(), test_support::read_file(entry.path().string())});
    }
    std::sort(out.begin(), out.end(), [](const Instance& a, const Instance& b) { return a.name < b.name; });
    return out;
  }();
  return all;
}

// The tasks of an imported program: its TASK lines.
std::size_t tasks_of(const std::string& program) {
  std::size_t tasks = 0;
  for (std::size_t at = program.find("\n  TASK "); at != std::string::npos; at = program.find("\n  TASK ", at + 1)) {
    ++tasks;
  }
  return tasks;
}

void BM_ImportEveryInstance(benchmark::State& state) {
  std::size_t tasks = 0;
  for (auto _ : state) {
    tasks = 0;
    for (const Instance& instance : instances()) {
      const importers::ImportResult result = importers::import_wfformat(instance.text, instance.name);
      if (!result.imported)
        state.SkipWithError(("refused: " + instance.name).c_str());
      else
        tasks += tasks_of(result.imported->program);
    }
  }
  state.counters["instances"] = static_cast<double>(instances().size());
  state.counters["tasks"] = static_cast<double>(tasks);
  state.counters["tasks_per_s"] =
      benchmark::Counter(static_cast<double>(tasks), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_ImportEveryInstance)->Unit(benchmark::kMillisecond);

void BM_ImportCheckAndSolveExactly(benchmark::State& state) {
  for (auto _ : state) {
    for (const Instance& instance : instances()) {
      const importers::ImportResult result = importers::import_wfformat(instance.text, instance.name);
      if (!result.imported) {
        state.SkipWithError(("refused: " + instance.name).c_str());
        continue;
      }
      const int p = static_cast<int>(tasks_of(result.imported->program));
      const analysis::Case one = test_support::case_of(result.imported->program, "MACHINE NAME IS 'ideal';\n");
      benchmark::DoNotOptimize(
          analysis::run_study({one}, test_support::request_for({p}, {solvers::Method::StateSpace})));
    }
  }
  state.counters["instances"] = static_cast<double>(instances().size());
}
BENCHMARK(BM_ImportCheckAndSolveExactly)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
