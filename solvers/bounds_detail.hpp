// Internals of the bounds solver (solvers/bounds.hpp), shared by its source files.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "distributions/distribution.hpp"
#include "graph/task_graph.hpp"
#include "solvers/bounds.hpp"

namespace solvers::bounds_detail {

// A distinct task runtime (tasks sharing one Distribution value share one TaskLaw).
struct TaskLaw {
  distributions::Distribution runtime;
  double mean_low = 0.0;  // the exact mean lies in [mean_low, mean_high]
  double mean_high = 0.0;
  bool zero = false;  // the point mass at 0
  // The library's discretisation: positions origin + i * step; `lower` <=st truth <=st `upper`
  // up to a transport distance `slack` (docs/distributions.md).
  double origin = 0.0;
  double step = 0.0;
  std::vector<double> lower;
  std::vector<double> upper;
  double slack = 0.0;
  double support_max = 0.0;  // the largest position of `upper`
};

// The task graph in topological order with its transitive arcs removed (they change no
// longest path, but Fulkerson's bound needs predecessor sets in which no task precedes
// another). Positions 0..n-1 are topological.
struct Dag {
  std::size_t n = 0;
  std::vector<graph::NodeId> original;    // position -> graph node
  std::vector<std::uint32_t> pred_begin;  // CSR, size n + 1
  std::vector<std::uint32_t> pred;
  std::vector<std::uint32_t> succ_begin;
  std::vector<std::uint32_t> succ;
  std::vector<char> antichain;                // pred list proven free of transitive arcs
  std::vector<std::uint32_t> level;           // longest number of arcs from a source
  std::vector<std::uint32_t> by_level_begin;  // positions grouped by level (CSR over levels)
  std::vector<std::uint32_t> by_level;
  std::vector<int> processor;
  std::vector<std::int64_t> step;
  std::vector<std::uint32_t> law;  // position -> index into laws
  std::vector<TaskLaw> laws;
  std::size_t original_arcs = 0;
  std::size_t transitive_arcs = 0;
  std::size_t unresolved_tasks = 0;  // transitive search over budget

  std::size_t preds_of(std::size_t v) const { return pred_begin[v + 1] - pred_begin[v]; }
  std::size_t succs_of(std::size_t v) const { return succ_begin[v + 1] - succ_begin[v]; }
  const TaskLaw& law_of(std::size_t v) const { return laws[law[v]]; }
};

// Throws UnsupportedGraph for a node that is not a static task, std::invalid_argument for an
// empty or cyclic graph.
Dag build_dag(const graph::TaskGraph& graph, std::size_t lattice_points, const distributions::GridOptions& grid,
              std::size_t transitive_search_budget);

// The grid of the reductions that spend one grid operation per task: max_points reduced so
// that tasks x points stays within options.reduction_work (but no fewer than 256 points).
distributions::GridOptions per_task_grid(const BoundsOptions& options, std::size_t tasks);

// What the bounds hold at their peak, planned from the graph's size before any work
// (bounds_memory.cpp), and which methods fit options.memory_budget_bytes. The methods run
// concurrently, so the plan adds them up.
struct MemoryPlan {
  double budget = 0.0;
  double base = 0.0;                                    // the compact graph and its laws
  std::array<double, kAllBoundMethods.size()> bytes{};  // each method's own peak, by BoundMethod
  std::array<bool, kAllBoundMethods.size()> run{};      // requested and within the budget
  // Requested but beyond the budget: what was left for it (>= 0); -1 otherwise. For barrier
  // insertion: what was left to recognise its blocks as series-parallel.
  std::array<double, kAllBoundMethods.size()> left_when_skipped{};
  // Barrier insertion recognises blocks of up to recognisable_tasks tasks (in
  // barrier_block_bytes) as series-parallel; larger ones get barriers between their levels
  // (still an upper bound).
  double barrier_block_bytes = 0.0;
  std::size_t recognisable_tasks = 0;
  // Kleindorfer's live finish-time windows stop it (skipped) beyond this.
  double kleindorfer_window_bytes = 0.0;
  double total = 0.0;  // base + every method that runs
};
// Throws MemoryBudgetExceeded when the compact graph with the critical path and barrier
// insertion by levels alone exceeds the budget. `lattice_points`: Fulkerson's points per law.
MemoryPlan plan_memory(const graph::TaskGraph& graph, const BoundsOptions& options, std::size_t lattice_points);

// What one method produced.
struct Outcome {
  bool computed = false;
  double value = 0.0;
  std::string note;
};

// Critical path of the lower ends of the mean brackets: start times (a lower bound of each
// task's mean start time) and the bound on the makespan.
std::vector<double> critical_path_starts(const Dag& dag);
Outcome critical_path(const Dag& dag);
Outcome fulkerson(const Dag& dag, bool parallel);
// Stops (not computed) when its live finish-time windows would exceed window_bytes.
Outcome kleindorfer(const Dag& dag, const BoundsOptions& options, double window_bytes);
Outcome arc_deletion(const graph::TaskGraph& graph, const Dag& dag, const BoundsOptions& options);
// Recognises blocks of at most largest_recognised tasks as series-parallel.
Outcome barrier_insertion(const Dag& dag, const BoundsOptions& options, std::size_t largest_recognised);
Outcome node_duplication(const Dag& dag, const BoundsOptions& options);

// E[max_k (start_k + Y_k)] for independent lattice variables Y_k with atoms start_k + i * step_k
// of probability pmf_k[i]: exact for the lattices (the cdf of the maximum is a step function).
struct ShiftedLattice {
  double start = 0.0;
  double step = 0.0;
  const double* pmf = nullptr;
  std::size_t size = 0;
};
double expected_maximum(std::vector<ShiftedLattice>& terms);

// A method's detail text: `pattern` (printf, up to two doubles) filled in.
std::string format(const char* pattern, double a, double b = 0.0);

}  // namespace solvers::bounds_detail
