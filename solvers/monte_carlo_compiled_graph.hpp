// Internal to the Monte Carlo solver (monte_carlo.hpp): a task graph compiled once into flat
// arrays that the kernels (monte_carlo_kernels.hpp) sweep for every 8 samples.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "distributions/distribution.hpp"
#include "distributions/sampler.hpp"
#include "graph/task_graph.hpp"
#include "solvers/law_key.hpp"

namespace solvers::monte_carlo_detail {

// ---- compiled distributions -------------------------------------------------------------------
// The common task distributions are drawn for all lanes at once (vector uniforms, a vector
// log); everything else goes through distributions::Sampler lane by lane.
struct LaneSampler {
  enum class Kind : std::uint8_t { Constant, Exponential, ErlangProduct, Uniform, General };
  Kind kind = Kind::Constant;
  int phases = 0;
  double a = 0.0;    // constant value, scale (1/rate) or low end
  double b = 0.0;    // width of a uniform
  int general = -1;  // index into the general samplers
};

class SamplerTable {
 public:
  // index and general_index are called while a graph is compiled, with its nodes' runtimes
  // (which the LawMaps require to be alive).
  // Index of the lane sampler of d; one per distinct representation.
  std::uint32_t index(const distributions::Distribution& d);
  const std::vector<LaneSampler>& samplers() const { return samplers_; }
  const std::vector<distributions::Sampler>& generals() const { return generals_; }
  // A general sampler for scalar draws (dynamic pools).
  int general_index(const distributions::Distribution& d);

 private:
  // Equal closed forms share a sampler (law_key.hpp).
  solvers::detail::LawMap<std::uint32_t> index_;
  solvers::detail::LawMap<int> general_index_;
  std::vector<LaneSampler> samplers_;
  std::vector<distributions::Sampler> generals_;
};

// ---- the compiled graph -----------------------------------------------------------------------
constexpr std::uint32_t kNoSlot = std::numeric_limits<std::uint32_t>::max();

struct Pool {
  int sampler = 0;  // general sampler of one task
  std::int64_t tasks = 0;
  int processors = 1;
  int master = -1;  // general sampler of the master's service per task (graph::PoolMaster); -1: none
  double dispatch_seconds = 0.0;
  double result_seconds = 0.0;
};

// The graph in topological order: predecessors as slots (CSR), the slot each node's finish
// time goes to (kNoSlot: a sink, folded into the makespan at once), its sampler or pool.
// Slots are recycled after a node's last successor, so the working set is the graph's widest
// cut, not its size.
struct FlatGraph {
  std::vector<std::uint32_t> first_predecessor;  // size nodes + 1
  std::vector<std::uint32_t> predecessor_slot;
  std::vector<std::uint32_t> output_slot;
  std::vector<std::int32_t> operation;  // >= 0: lane sampler; < 0: pool -(i + 1)
  std::vector<Pool> pools;
  SamplerTable samplers;
  std::uint32_t slots = 0;
  std::int64_t task_samples_per_sample = 0;
};

// Throws for a graph with a cycle (graph::topological_order).
FlatGraph compile(const graph::TaskGraph& g);

}  // namespace solvers::monte_carlo_detail
