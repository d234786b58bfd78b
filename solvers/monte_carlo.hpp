// Monte Carlo simulation of a stochastic task graph: the reference method (docs/methods.md, section 4),
// valid for any graph, including dynamic scheduling (graph::NodeKind::DynamicPool).
//
// Each sample draws every node's runtime and computes the makespan (the longest path) along a
// topological order. The graph is compiled once into flat arrays (CSR predecessors over the
// topological order, one sampler per distinct distribution, finish times kept in a few
// recycled slots), and 8 samples advance through the graph together so the per-node loop is
// over 8 lanes and vectorises.
//
// Reproducibility: samples come in fixed blocks of kMonteCarloBlock samples; lane l of block b
// draws from its own stream distributions::Xoshiro256pp(seed, 8*b + l). Blocks are distributed
// over TBB threads but every statistic is folded from the samples in block order (a block's
// mean and squared deviations, merged pairwise into the running ones), so a given seed gives
// bit-identical results whatever the number of threads. No sample is stored beyond a round of
// blocks and the first summary_samples, so memory does not grow with the sample count.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "distributed/communicator.hpp"
#include "graph/sp_tree.hpp"
#include "graph/task_graph.hpp"
#include "solvers/memory.hpp"
#include "solvers/progress.hpp"
#include "solvers/result.hpp"

namespace solvers {

// The standard normal's 0.975 quantile: a 95% confidence interval is the mean +- kZ95 standard
// errors.
inline constexpr double kZ95 = 1.959963984540054;

// Samples per reproducibility block (8 lanes x 8 rounds).
inline constexpr std::int64_t kMonteCarloBlock = 64;

// The instruction set of the vector kernel that samples task graphs. Every kernel gives the
// same bits; choosing one is for tests that compare them and benchmarks that measure them.
enum class MonteCarloIsa {
  Auto,  // the widest the CPU runs: AVX-512, else AVX2, else SSE2
  Sse2,  // every x86-64 CPU has it
  Avx2,
  Avx512,  // AVX-512F
};

struct MonteCarloOptions {
  // Seed of every random stream.
  std::uint64_t seed = 1;
  // Number of samples when relative_precision is 0 (>= 2).
  std::int64_t samples = 10'000;
  // When > 0: sample until the half-width of the 95% confidence interval is at most
  // relative_precision * |mean|, with at least min_samples and at most max_samples samples
  // (the sample count is then a multiple of kMonteCarloBlock, chosen in rounds from the
  // observed variance; the rounds depend on the seed only, not on the thread count).
  double relative_precision = 0.0;
  std::int64_t min_samples = 1'000;
  std::int64_t max_samples = 10'000'000;
  // Worker threads; 0 = all cores (the TBB default).
  int threads = 0;
  // Bins of the histogram in the summary (between the smallest and largest sample).
  int histogram_bins = 40;
  // The summary's quantiles are those of the first summary_samples samples (in block order,
  // so the same whatever the threads), and its histogram's bins span them; every sample counts
  // in the mean, the variance, the range and the histogram. Memory does not grow with the
  // sample count beyond these (8 bytes each, twice). >= 1.
  std::int64_t summary_samples = std::int64_t{1} << 20;
  // Memory the simulation may use besides the graph: the compiled graph (about 100 bytes a
  // node and 12 an arc), a 2 MiB round of samples, the kept samples and each worker's scratch
  // (64 bytes per finish time live at once). A graph whose compiled form and one worker's
  // scratch do not fit is refused (MemoryBudgetExceeded); otherwise fewer workers run when
  // their scratch would not fit. The figures do not depend on it.
  std::uint64_t memory_budget_bytes = kDefaultMemoryBudget;
  // The kernel of task graphs and their mixtures (a series-parallel tree is sampled by scalar
  // code and ignores it). An instruction set the CPU lacks is not replaced by another: IsValid
  // rejects it, and the solvers throw std::invalid_argument.
  MonteCarloIsa isa = MonteCarloIsa::Auto;
  // Levels in (0, 1), ascending, of the quantiles the result reports (Result::quantiles): order
  // statistics of the first summary_samples samples with a distribution-free 95% confidence
  // interval (order_statistic_quantiles). None by default.
  std::vector<double> quantiles;
  // When true, Result::samples receives the first summary_samples samples in block order (the same whatever the
  // threads): two runs with the same seed and sample count draw the same random numbers for graphs of the same shape,
  // so their samples pair up (common random numbers; analysis/sensitivity.hpp).
  bool keep_samples = false;
  // The ranks that share the sampling (docs/scale-out.md); null or one rank: this process
  // alone. With several, the solve is collective: every rank calls it with the same graph and
  // options, each draws a contiguous share of every round of blocks, the rounds are gathered
  // on every rank and folded in block order there, so every rank returns the figures one
  // process gives, bit for bit, and the precision rule decides the same rounds everywhere.
  const distributed::Communicator* communicator = nullptr;

  // True when the options are usable; otherwise false and, if why != nullptr, a message.
  bool IsValid(std::string* why) const;
};

struct MonteCarloSummary {
  std::int64_t samples = 0;
  double mean = 0.0;
  double variance = 0.0;        // unbiased sample variance
  double standard_error = 0.0;  // sqrt(variance / samples)
  double half_width = 0.0;      // of the 95% confidence interval: 1.959964 * standard_error
  // Empirical quantiles at 5, 25, 50, 75 and 95% (order statistics, linear interpolation).
  static constexpr std::array<double, 5> kQuantileLevels = {0.05, 0.25, 0.5, 0.75, 0.95};
  std::array<double, 5> quantiles{};
  double minimum = 0.0;
  double maximum = 0.0;
  // Equal-width bins over [minimum, maximum]; counts sum to samples.
  double histogram_low = 0.0;
  double histogram_width = 0.0;
  std::vector<std::int64_t> histogram;
  std::int64_t summarised_samples = 0;  // the first samples the quantiles come from
  std::int64_t task_samples = 0;        // node runtimes drawn (a pool counts each of its tasks)
  double seconds = 0.0;
  double task_samples_per_second = 0.0;
  int threads = 0;

  // One line: mean ± half-width, samples, throughput.
  std::string BriefReport() const;
  // Several lines: the above, variance, quantiles and the histogram.
  std::string FullReport() const;
};

// The q-quantile of the law the samples `sorted` (ascending, n of them, iid) come from, for
// each level q: the estimate is the order statistic x_(ceil(n q)) and [x_(r), x_(s)] a
// confidence interval of at least 95% whatever the law: with B ~ Binomial(n, q), r - 1 is the
// largest k with P(B <= k) <= 0.025 and s - 1 the smallest with P(B <= k) >= 0.975, so
// P(x_(r) <= Q(q) <= x_(s)) >= P(r <= B <= s - 1) >= 0.95 (docs/methods.md, "Quantiles").
// Where no such r exists the lower end is 0 (runtimes are >= 0); where no such s <= n exists
// the upper end is +infinity. Quantile::samples is n. Empty when `sorted` is.
std::vector<Quantile> order_statistic_quantiles(std::span<const double> sorted, const std::vector<double>& levels);

// A scenario of a mixture: a graph that runs with the given probability.
struct WeightedGraph {
  double probability = 1.0;
  const graph::TaskGraph* graph = nullptr;
};

// The makespan of the graph. The result's method is MonteCarlo, [lower, upper] the 95%
// confidence interval of the mean, statistics.samples the sample count; `summary`, when not
// null, receives the full statistics. Throws std::invalid_argument for invalid options or a
// graph with a cycle, MemoryBudgetExceeded when the compiled graph does not fit
// options.memory_budget_bytes (before sampling). `progress`, when set, hears the fraction of
// the samples drawn (progress.hpp); the figures are the same with or without it.
Result solve_monte_carlo(const graph::TaskGraph& graph, const MonteCarloOptions& options,
                         MonteCarloSummary* summary = nullptr, const ProgressFunction& progress = {});

// A mixture of graphs (the scenarios of an exact model with probabilistic alternatives): each
// sample picks its scenario by the probabilities (which must sum to 1 within 1e-9) from its
// own stream, then samples that graph.
Result solve_monte_carlo(std::span<const WeightedGraph> mixture, const MonteCarloOptions& options,
                         MonteCarloSummary* summary = nullptr, const ProgressFunction& progress = {});

// What solve_monte_carlo of the mixture would hold at its peak besides the graphs, from their
// sizes alone (before compiling them), with `threads` workers each holding scratch for every
// node at once (an upper bound: the scratch is the widest cut; 0: no worker's scratch, the
// part whose excess refuses the graph at once). Does not throw for the budget.
double estimate_monte_carlo_memory(std::span<const WeightedGraph> mixture, const MonteCarloOptions& options,
                                   int threads);

// A series-parallel tree (the approximate model), sampled node by node: series adds, parallel
// takes the maximum, a branch picks one child. A SeriesPower / ParallelPower of a single leaf
// draws once from the power's distribution (distributions::series_power / parallel_power:
// exact for closed forms, e.g. Erlang(k)^{*n} = Erlang(nk), otherwise the numerical grid);
// a power of a larger subtree draws its copies one by one up to 4096 copies, beyond that once
// from the reduced distribution of the subtree raised to the power (numerical). The
// approximations are documented in docs/methods.md.
Result solve_monte_carlo(const graph::SpTree& tree, const MonteCarloOptions& options,
                         MonteCarloSummary* summary = nullptr);

}  // namespace solvers
