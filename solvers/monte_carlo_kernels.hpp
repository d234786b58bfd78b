// Internal to the Monte Carlo solver (monte_carlo.hpp): one pass of 8 samples over a compiled
// graph, with a kernel per instruction set.
#pragma once

#include <vector>

#include "solvers/monte_carlo.hpp"
#include "solvers/monte_carlo_compiled_graph.hpp"
#include "solvers/monte_carlo_lanes.hpp"

namespace solvers::monte_carlo_detail {

// Scratch memory of one worker: the slots of 8 lanes and a heap for pools.
struct Scratch {
  std::vector<double> slots;
  std::vector<double> heap;
};

// Samples the 8 lanes' makespans (makespan[0..8)) of one pass over the graph; each lane
// draws from its own stream in `state`, which advances.
using Pass = void (*)(const FlatGraph& flat, LaneState& state, Scratch& scratch, double* makespan);

// True when the CPU runs the kernel of isa (always for Auto and Sse2).
bool cpu_supports(MonteCarloIsa isa);

// The kernel of isa; Auto: the widest the CPU runs. isa must be supported (cpu_supports).
// Every kernel gives the same bits.
Pass choose_pass(MonteCarloIsa isa);

}  // namespace solvers::monte_carlo_detail
