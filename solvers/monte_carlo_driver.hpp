// Internal to the Monte Carlo solver (monte_carlo.hpp): the sampling driver shared by every
// model (task graphs, mixtures of them, series-parallel trees). It draws blocks of
// kMonteCarloBlock samples in parallel until the options are met and summarises them.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "solvers/monte_carlo.hpp"
#include "solvers/monte_carlo_kernels.hpp"
#include "solvers/result.hpp"

namespace solvers::monte_carlo_detail {

// Fills samples [64 b, 64 b + 64) of block b.
using BlockSampler = std::function<void(std::uint64_t block, double* out, Scratch& scratch)>;

// Work of one block in task-samples, for the parallel grain.
std::int64_t block_cost(std::int64_t task_samples_per_sample);

// Samples blocks in order of their index (options.samples samples, or rounds of blocks until
// the precision asked for) and returns the result of the method MonteCarlo; `detail` names
// the model. Throws std::invalid_argument for invalid options.
Result simulate(const BlockSampler& sampler, std::int64_t cost_per_block, std::int64_t task_samples_per_sample,
                const MonteCarloOptions& options, std::string detail, MonteCarloSummary* summary);

}  // namespace solvers::monte_carlo_detail
