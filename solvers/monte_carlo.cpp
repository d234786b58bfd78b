#include "solvers/monte_carlo.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "distributions/random.hpp"
#include "solvers/monte_carlo_compiled_graph.hpp"
#include "solvers/monte_carlo_driver.hpp"
#include "solvers/monte_carlo_kernels.hpp"
#include "solvers/monte_carlo_lanes.hpp"

namespace solvers {

using monte_carlo_detail::BlockSampler;
using monte_carlo_detail::FlatGraph;
using monte_carlo_detail::kLanes;
using monte_carlo_detail::kRounds;
using monte_carlo_detail::LaneState;
using monte_carlo_detail::Pass;
using monte_carlo_detail::Scratch;

namespace {

const char* isa_name(MonteCarloIsa isa) {
  switch (isa) {
    case MonteCarloIsa::Auto: return "Auto";
    case MonteCarloIsa::Sse2: return "SSE2";
    case MonteCarloIsa::Avx2: return "AVX2";
    case MonteCarloIsa::Avx512: return "AVX-512";
  }
  return "unknown";
}

// The compiled graph per node (CSR offsets, output slots, operations, the compiler's
// topological order and release lists) and per arc (a predecessor slot), rounded up from
// bench/solvers/memory_bench.cpp; a worker's scratch per finish-time slot (8 lanes).
constexpr double kCompiledPerNode = 100.0;
constexpr double kCompiledPerArc = 12.0;
constexpr double kScratchPerSlot = 8.0 * kLanes;

double compiled_bytes(std::span<const WeightedGraph> mixture) {
  double bytes = 0.0;
  for (const WeightedGraph& scenario : mixture) {
    if (scenario.graph == nullptr) continue;
    bytes += kCompiledPerNode * static_cast<double>(scenario.graph->node_count()) +
             kCompiledPerArc * static_cast<double>(scenario.graph->arc_count());
  }
  return bytes;
}

// The scenarios compiled, with their cumulative probabilities.
struct CompiledMixture {
  std::vector<FlatGraph> flats;
  std::vector<double> cumulative;
  double total = 0.0;
  std::int64_t largest = 0;  // task-samples per sample of the largest scenario
};

CompiledMixture compile_mixture(std::span<const WeightedGraph> mixture) {
  CompiledMixture m;
  for (std::size_t i = 0; i < mixture.size(); ++i) {
    const WeightedGraph& scenario = mixture[i];
    if (scenario.graph == nullptr)
      throw std::invalid_argument("Monte Carlo: scenario " + std::to_string(i) + " has no graph");
    if (!(scenario.probability >= 0.0) || !std::isfinite(scenario.probability)) {
      throw std::invalid_argument("Monte Carlo: scenario " + std::to_string(i) + " has probability " +
                                  std::to_string(scenario.probability));
    }
    m.flats.push_back(monte_carlo_detail::compile(*scenario.graph));
    m.largest = std::max(m.largest, m.flats.back().task_samples_per_sample);
    m.total += scenario.probability;
    m.cumulative.push_back(m.total);
  }
  if (std::abs(m.total - 1.0) > 1e-9) {
    throw std::invalid_argument("Monte Carlo: scenario probabilities sum to " + std::to_string(m.total) + ", not 1");
  }
  return m;
}

// The largest scratch a worker needs for any of the scenarios.
double worker_scratch_bytes(const std::vector<FlatGraph>& flats) {
  double worker_scratch = 0.0;
  for (const FlatGraph& flat : flats) {
    double pool_heap = 0.0;
    for (const auto& pool : flat.pools) pool_heap = std::max(pool_heap, 8.0 * pool.processors);
    worker_scratch = std::max(worker_scratch, kScratchPerSlot * static_cast<double>(flat.slots) + pool_heap);
  }
  return worker_scratch;
}

// Expected task-samples per sample, for the throughput figure.
double expected_task_samples(std::span<const WeightedGraph> mixture, const std::vector<FlatGraph>& flats) {
  double expected_tasks = 0.0;
  for (std::size_t i = 0; i < flats.size(); ++i) {
    expected_tasks += mixture[i].probability * static_cast<double>(flats[i].task_samples_per_sample);
  }
  return expected_tasks;
}

// The samples of one block of a mixture of several scenarios, from the lanes' streams in rng.
void sample_mixture_block(const CompiledMixture& m, Pass pass, std::uint64_t seed, std::uint64_t block, LaneState& rng,
                          double* out, Scratch& scratch) {
  // Each sample's scenario from the block's own choice stream (separate from the lanes').
  distributions::Xoshiro256pp choice(seed ^ 0x6d69787475726573ULL, block);
  std::vector<std::size_t> scenario(kMonteCarloBlock);
  for (auto& s : scenario) {
    const double u = distributions::uniform_closed_open(choice) * m.total;
    s = static_cast<std::size_t>(std::upper_bound(m.cumulative.begin(), m.cumulative.end(), u) - m.cumulative.begin());
    s = std::min(s, m.flats.size() - 1);
  }
  // Every scenario a round needs runs for all 8 lanes; each lane keeps its own scenario's value.
  for (std::int64_t round = 0; round < kRounds; ++round) {
    const std::size_t* chosen = scenario.data() + round * kLanes;
    for (std::size_t f = 0; f < m.flats.size(); ++f) {
      if (std::find(chosen, chosen + kLanes, f) == chosen + kLanes) continue;
      double makespan[kLanes];
      pass(m.flats[f], rng, scratch, makespan);
      for (int l = 0; l < kLanes; ++l) {
        if (chosen[l] == f) out[round * kLanes + l] = makespan[l];
      }
    }
  }
}

}  // namespace

double estimate_monte_carlo_memory(std::span<const WeightedGraph> mixture, const MonteCarloOptions& options,
                                   int threads) {
  double widest = 0.0;
  for (const WeightedGraph& scenario : mixture) {
    if (scenario.graph != nullptr) widest = std::max(widest, static_cast<double>(scenario.graph->node_count()));
  }
  return compiled_bytes(mixture) + monte_carlo_detail::simulation_bytes(options) +
         static_cast<double>(std::max(threads, 0)) * kScratchPerSlot * widest;
}

bool MonteCarloOptions::IsValid(std::string* why) const {
  auto fail = [&](const std::string& message) {
    if (why != nullptr) *why = message;
    return false;
  };
  if (!(relative_precision >= 0.0) || !std::isfinite(relative_precision)) {
    return fail("relative_precision must be finite and >= 0, got " + std::to_string(relative_precision));
  }
  if (relative_precision == 0.0 && samples < 2) return fail("samples must be >= 2, got " + std::to_string(samples));
  if (relative_precision > 0.0) {
    if (min_samples < 2) return fail("min_samples must be >= 2, got " + std::to_string(min_samples));
    if (max_samples < min_samples) {
      return fail("max_samples (" + std::to_string(max_samples) + ") must be >= min_samples (" +
                  std::to_string(min_samples) + ")");
    }
  }
  const std::int64_t most = relative_precision > 0.0 ? max_samples : samples;
  if (most > (std::int64_t{1} << 40)) return fail("at most 2^40 samples, got " + std::to_string(most));
  if (threads < 0) return fail("threads must be >= 0 (0: all cores), got " + std::to_string(threads));
  if (!valid_quantile_levels(quantiles, why)) return false;
  if (summary_samples < 1) return fail("summary_samples must be >= 1, got " + std::to_string(summary_samples));
  if (memory_budget_bytes < kSmallestMemoryBudget) {
    return fail("memory_budget_bytes must be >= 1 MiB, got " + std::to_string(memory_budget_bytes));
  }
  if (histogram_bins < 1 || histogram_bins > 1'000'000) {
    return fail("histogram_bins must be in [1, 1000000], got " + std::to_string(histogram_bins));
  }
  if (!monte_carlo_detail::cpu_supports(isa)) {
    return fail(std::string("isa: this CPU has no ") + isa_name(isa) + " (Auto picks the widest it has)");
  }
  return true;
}

Result solve_monte_carlo(const graph::TaskGraph& graph, const MonteCarloOptions& options, MonteCarloSummary* summary,
                         const ProgressFunction& progress) {
  const WeightedGraph one{1.0, &graph};
  return solve_monte_carlo(std::span<const WeightedGraph>(&one, 1), options, summary, progress);
}

Result solve_monte_carlo(std::span<const WeightedGraph> mixture, const MonteCarloOptions& options,
                         MonteCarloSummary* summary, const ProgressFunction& progress) {
  std::string why;
  if (!options.IsValid(&why)) throw std::invalid_argument("Monte Carlo options: " + why);
  if (mixture.empty()) throw std::invalid_argument("Monte Carlo: the mixture has no scenario");
  const auto budget = static_cast<double>(options.memory_budget_bytes);
  const double fixed = compiled_bytes(mixture) + monte_carlo_detail::simulation_bytes(options);
  if (fixed > budget) throw MemoryBudgetExceeded("Monte Carlo: the compiled task graph", fixed, budget);
  const CompiledMixture compiled = compile_mixture(mixture);
  // One worker's scratch must fit; more workers run while theirs fit too.
  const double worker_scratch = worker_scratch_bytes(compiled.flats);
  if (fixed + worker_scratch > budget) {
    throw MemoryBudgetExceeded("Monte Carlo: the compiled task graph and a worker's scratch", fixed + worker_scratch,
                               budget);
  }
  const int thread_limit =
      worker_scratch > 0.0 ? static_cast<int>(std::min(1024.0, std::floor((budget - fixed) / worker_scratch))) : 0;
  const std::uint64_t seed = options.seed;
  const bool single = compiled.flats.size() == 1;
  const double expected_tasks = expected_task_samples(mixture, compiled.flats);
  const Pass pass = monte_carlo_detail::choose_pass(options.isa);
  BlockSampler sampler = [&](std::uint64_t block, double* out, Scratch& scratch) {
    LaneState rng;
    rng.seed(seed, block);
    if (single) {
      for (std::int64_t round = 0; round < kRounds; ++round) {
        pass(compiled.flats.front(), rng, scratch, out + round * kLanes);
      }
      return;
    }
    sample_mixture_block(compiled, pass, seed, block, rng, out, scratch);
  };
  std::string detail =
      single ? "Monte Carlo simulation of the task graph"
             : "Monte Carlo simulation of a mixture of " + std::to_string(compiled.flats.size()) + " task graphs";
  return monte_carlo_detail::simulate(sampler, monte_carlo_detail::block_cost(compiled.largest),
                                      static_cast<std::int64_t>(std::llround(expected_tasks)), options,
                                      std::move(detail), summary, thread_limit, progress);
}

}  // namespace solvers
