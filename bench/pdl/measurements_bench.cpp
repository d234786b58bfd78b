// Reading measured-data files (NUMERICAL, pdl-fit): pdl::parse_measurements of generated files
// of 10^4 to 10^6 samples, and of a histogram. Figures in docs/performance.md ("Measured data").
#include "pdl/measurements.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <cstdint>
#include <string>

namespace {

// n lines like a timer writes them: "# unit: us" and one runtime with 3 decimals per line.
std::string samples(std::int64_t n, bool histogram) {
  std::string text = "# generated runtimes\n# unit: us\n";
  std::uint64_t state = 42;
  for (std::int64_t i = 0; i < n; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    const double value = 100.0 + static_cast<double>(state >> 40) * 1e-3;
    text += histogram ? fmt::format("{:.3f} {}\n", value, (state >> 20) % 100) : fmt::format("{:.3f}\n", value);
  }
  return text;
}

void BM_ParseSamples(benchmark::State& state) {
  const std::string text = samples(state.range(0), false);
  for (auto _ : state) benchmark::DoNotOptimize(pdl::parse_measurements(text, "samples.txt"));
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(text.size()));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_ParseSamples)->Arg(10'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond);

void BM_ParseHistogram(benchmark::State& state) {
  const std::string text = samples(state.range(0), true);
  for (auto _ : state) benchmark::DoNotOptimize(pdl::parse_measurements(text, "histogram.txt"));
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(text.size()));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_ParseHistogram)->Arg(1'000'000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
