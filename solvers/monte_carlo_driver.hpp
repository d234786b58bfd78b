// Internal to the Monte Carlo solver (monte_carlo.hpp): the sampling driver shared by every
// model (task graphs, mixtures of them, series-parallel trees). It draws blocks of
// kMonteCarloBlock samples in parallel until the options are met and summarises them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <functional>
#include <string>

#include "solvers/monte_carlo.hpp"
#include "solvers/monte_carlo_kernels.hpp"
#include "solvers/progress.hpp"
#include "solvers/result.hpp"

namespace solvers::monte_carlo_detail {

// Fills samples [64 b, 64 b + 64) of block b.
using BlockSampler = std::function<void(std::uint64_t block, double* out, Scratch& scratch)>;

// Work of one block in task-samples, for the parallel grain.
std::int64_t block_cost(std::int64_t task_samples_per_sample);

// Blocks drawn at once into one buffer before their samples are folded into the statistics:
// 4096 blocks of 64 samples, 2 MiB.
inline constexpr std::int64_t kRoundBlocks = 4096;

// The mean, the sum of squared deviations, the smallest and the largest of the samples added
// so far, a block at a time.
struct RunningMoments {
  std::int64_t samples = 0;
  double mean = 0.0;
  double squares = 0.0;
  double minimum = std::numeric_limits<double>::infinity();
  double maximum = -std::numeric_limits<double>::infinity();
  void add(const double* x, std::int64_t count);
  double variance() const;  // unbiased
};

// Memory simulate() holds besides the model and the workers' scratch: the round buffer and
// the kept samples (twice: sorted for the quantiles).
inline double simulation_bytes(const MonteCarloOptions& options) {
  const std::int64_t most = options.relative_precision > 0.0 ? options.max_samples : options.samples;
  return 8.0 * static_cast<double>(kRoundBlocks * kMonteCarloBlock) +
         16.0 * static_cast<double>(std::min(most, options.summary_samples));
}

// Samples blocks in order of their index (options.samples samples, or rounds of blocks until
// the precision asked for) and returns the result of the method MonteCarlo; `detail` names
// the model. At most thread_limit threads when > 0 (their scratch must fit the memory budget).
// Throws std::invalid_argument for invalid options. `progress` hears the samples drawn over the
// samples planned, as the blocks finish (in precision mode the plan is the current round's
// and the fraction stays below 1 until the last round is folded).
Result simulate(const BlockSampler& sampler, std::int64_t cost_per_block, std::int64_t task_samples_per_sample,
                const MonteCarloOptions& options, std::string detail, MonteCarloSummary* summary, int thread_limit = 0,
                const ProgressFunction& progress = {});

}  // namespace solvers::monte_carlo_detail
