// Parsing (and checking) a generated 1 MB PDL program: every scheme, distributions with
// expressions, a long execution pattern. Figures in docs/performance.md ("Parser").
#include "pdl/check.hpp"
#include "pdl/parse.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <string>

namespace {

// About `bytes` of PDL: phases of the six predefined schemes in turn, each used once in the
// pattern, joined by SYNC so that no concatenation is needed.
std::string generate(std::size_t bytes) {
  std::string phases;
  std::string pattern;
  std::string concatenations;
  for (int i = 0; phases.size() < bytes; ++i) {
    const std::string name = fmt::format("phase{}", i);
    pattern += (i == 0 ? "" : " -> sync -> ") + name + (i % 7 == 0 ? "{iterations}" : "");
    if (i % 7 == 0) concatenations += fmt::format("  {}, {} : BARRIER;\n", name, name);
    phases += fmt::format("WORK PHASE {} IS:\n", name);
    switch (i % 6) {
      case 0:
        phases +=
            "  PARALLELIZATION SCHEME IS NEIGHBOR;  // a relaxation sweep\n"
            "  SUBTASK RUNTIME IS ERLANG(8, 0.5*RTFactor + 0.01*log2(columns));\n"
            "  PROBLEM SIZE IS GRID g(rows, columns);\n"
            "  COMMUNICATION VOLUME IS rows*SIZEOF(DOUBLE);\n";
        break;
      case 1:
        phases +=
            "  PARALLELIZATION SCHEME IS INDEPENDENT;\n"
            "  SUBTASK RUNTIME IS HYPEREXPONENTIAL(0.25, 1*RTFactor, 0.75, 3*RTFactor);\n"
            "  PROBLEM SIZE IS VECTOR v(4*columns + 2);\n  SCHEDULING IS DYNAMIC;\n";
        break;
      case 2:
        phases +=
            "  PARALLELIZATION SCHEME IS PAIRED;\n  DEPENDENCY IS 1, 5, 2*2;\n"
            "  INDEPENDENT SUBTASK IS:\n    RUNTIME IS GERLANG(1, 2, 0.5*RTFactor);\n  END;\n"
            "  DEPENDENT SUBTASK IS:\n    RUNTIME IS DETERMINISTIC(5*RTFactor);\n"
            "    COMMUNICATION VOLUME IS SIZEOF(FLOAT);\n  END;\n"
            "  PROBLEM SIZE IS VECTOR c(columns);\n";
        break;
      case 3:
        phases +=
            "  PARALLELIZATION SCHEME IS MACROPIPELINE;\n  SUBTASK RUNTIME IS NORMAL(10, 2);\n"
            "  JOBS IS 2*iterations;\n  STAGES IS min(columns, 8);\n  INTERARRIVAL TIME IS EXPONENTIAL(4);\n";
        break;
      case 4:
        phases +=
            "  PARALLELIZATION SCHEME IS FORK-JOIN;\n"
            "  SUBTASK RUNTIME IS MIXTURE(0.5, UNIFORM(1, 2), 0.5, PHASETYPE([1, 0], [[-2, 1], [0, -1]]));\n"
            "  JOBS IS 3;\n  TASKS PER JOB IS columns;\n  INTERARRIVAL TIME IS DETERMINISTIC(0);\n";
        break;
      default:
        phases +=
            "  PARALLELIZATION SCHEME IS ARBITRARY;\n"
            "  TASK a RUNTIME IS EXPONENTIAL(1) ON PROCESSOR 0;\n  TASK b RUNTIME IS SAMPLES(1, 2, 3);\n"
            "  TASK c RUNTIME IS EXPONENTIAL(2);\n  ARC a -> b -> c VOLUME 8;\n  ARC a -> c;\n";
        break;
    }
    phases += "END;\n\n";
  }
  return "PROGRAM NAME IS 'generated';\nEXECUTION PATTERN IS " + pattern +
         ";\nVARIABLE rows = 100;\nVARIABLE columns = 16;\nVARIABLE iterations = 3;\n\n" + phases +
         "CONCATENATION IS:\n" + concatenations + "END;\n";
}

void BM_Parse(benchmark::State& state) {
  const std::string text = generate(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) {
    pdl::ParseResult result = pdl::parse(text, "generated.pdl");
    if (!result.ast) state.SkipWithError("the generated program does not parse");
    benchmark::DoNotOptimize(result);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
  state.counters["bytes"] = static_cast<double>(text.size());
}
BENCHMARK(BM_Parse)->Arg(1 << 20)->Unit(benchmark::kMillisecond);

void BM_ParseAndCheck(benchmark::State& state) {
  const std::string text = generate(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) {
    pdl::ParseResult parsed = pdl::parse(text, "generated.pdl");
    if (!parsed.ast) {
      state.SkipWithError("the generated program does not parse");
      break;
    }
    pdl::CheckResult checked = pdl::check(*parsed.ast, parsed.source);
    if (!checked.program) state.SkipWithError(pdl::format(checked.diagnostics).substr(0, 200).c_str());
    benchmark::DoNotOptimize(checked);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_ParseAndCheck)->Arg(1 << 20)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
