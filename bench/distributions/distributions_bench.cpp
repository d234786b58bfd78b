// Costs of the numerical operations and of sampling. Figures in docs/performance.md.
#include <benchmark/benchmark.h>

#include <cmath>

#include "distributions/distribution.hpp"
#include "distributions/random.hpp"
#include "distributions/sampler.hpp"

namespace distributions {
namespace {

GridOptions options_for(const benchmark::State& state) {
  return GridOptions{.max_points = static_cast<std::size_t>(state.range(0))};
}

// n-fold convolution power of an Erlang-8 grid of max_points points (n = 1000: staged FFTs).
void BM_SeriesPower(benchmark::State& state) {
  const GridOptions options = options_for(state);
  const Distribution task = discretise(erlang(8, 1.0), options);
  const auto n = state.range(1);
  for (auto _ : state) benchmark::DoNotOptimize(series_power(task, n, options));
  state.counters["points"] = static_cast<double>(grid_size(task));
}
BENCHMARK(BM_SeriesPower)
    ->ArgsProduct({benchmark::CreateRange(1 << 10, 1 << 16, 4), {10, 1000}})
    ->Unit(benchmark::kMillisecond);

// p-fold maximum (cdf^p) of an Erlang-8 grid.
void BM_ParallelPower(benchmark::State& state) {
  const GridOptions options = options_for(state);
  const Distribution task = discretise(erlang(8, 1.0), options);
  for (auto _ : state) benchmark::DoNotOptimize(parallel_power(task, 64, options));
}
BENCHMARK(BM_ParallelPower)->RangeMultiplier(4)->Range(1 << 10, 1 << 16)->Unit(benchmark::kMicrosecond);

// One series (convolution) and one parallel (max) of two grids.
void BM_SeriesTwoGrids(benchmark::State& state) {
  const GridOptions options = options_for(state);
  const Distribution a = discretise(erlang(8, 1.0), options);
  const Distribution b = discretise(uniform(0.0, 10.0), options);
  for (auto _ : state) benchmark::DoNotOptimize(series(a, b, options));
}
BENCHMARK(BM_SeriesTwoGrids)->RangeMultiplier(4)->Range(1 << 10, 1 << 16)->Unit(benchmark::kMicrosecond);

void BM_Discretise(benchmark::State& state) {
  const GridOptions options = options_for(state);
  for (auto _ : state) benchmark::DoNotOptimize(discretise(erlang(8, 1.0), options));
}
BENCHMARK(BM_Discretise)->RangeMultiplier(4)->Range(1 << 10, 1 << 16)->Unit(benchmark::kMicrosecond);

template <class MakeDistribution>
void sampler_throughput(benchmark::State& state, MakeDistribution make) {
  const Sampler sampler(make());
  Xoshiro256pp rng(1);
  constexpr int kBatch = 1024;
  for (auto _ : state) {
    double total = 0.0;
    for (int i = 0; i < kBatch; ++i) total += sampler(rng);
    benchmark::DoNotOptimize(total);
  }
  state.SetItemsProcessed(state.iterations() * kBatch);
}
void BM_SampleErlang8(benchmark::State& state) {
  sampler_throughput(state, [] { return erlang(8, 1.0); });
}
BENCHMARK(BM_SampleErlang8);
void BM_SampleExponential(benchmark::State& state) {
  sampler_throughput(state, [] { return exponential(1.0); });
}
BENCHMARK(BM_SampleExponential);
void BM_SampleErlang1000(benchmark::State& state) {
  sampler_throughput(state, [] { return erlang(1000, 1.0); });
}
BENCHMARK(BM_SampleErlang1000);
// The skewed laws (issue 50: within 1.5 times an Erlang's rate): one normal (polar method) and
// an exp; one log and a pow; one pow.
void BM_SampleLogNormal(benchmark::State& state) {
  sampler_throughput(state, [] { return lognormal(std::log(50.0), 1.2); });
}
BENCHMARK(BM_SampleLogNormal);
void BM_SampleWeibull(benchmark::State& state) {
  sampler_throughput(state, [] { return weibull(0.7, 40.0); });
}
BENCHMARK(BM_SampleWeibull);
void BM_SamplePareto(benchmark::State& state) {
  sampler_throughput(state, [] { return pareto(2.5, 30.0); });
}
BENCHMARK(BM_SamplePareto);
void BM_SampleNumericalGrid(benchmark::State& state) {
  sampler_throughput(state, [] { return discretise(erlang(8, 1.0)); });
}
BENCHMARK(BM_SampleNumericalGrid);

}  // namespace
}  // namespace distributions

BENCHMARK_MAIN();
