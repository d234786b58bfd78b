// Bounds on the mean runtime of any stochastic task graph (activity-on-node DAG, independent
// non-negative node runtimes, runtime = longest path), for graphs too large or too tangled for
// an exact solution.
//
// Lower bounds
//   critical path of means   max over paths of the sum of means (Jensen: E max >= max E)
//   Fulkerson (1962)         s_v = E[max_{u in pred(v)} (s_u + X_u)] with numbers s_u
//   arc deletion             delete arcs until series-parallel, reduce exactly
// Upper bounds
//   barrier insertion        insert barriers (Kleinöder 1982) between the graph's steps, between
//                            processor synchronisations or between longest-path levels
//   node duplication         Dodin (1985): duplicate nodes until series-parallel
//   Kleindorfer (1971)       product of the predecessors' finish-time cdfs in topological order
//
// Every figure is a valid bound on the exact mean: numerical results use the outer end of their
// discretisation bracket. docs/methods.md ("Bounds") gives the argument for each method.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "distributions/distribution.hpp"
#include "graph/task_graph.hpp"
#include "solvers/memory.hpp"
#include "solvers/progress.hpp"
#include "solvers/result.hpp"

namespace solvers {

enum class BoundMethod {
  CriticalPath,      // lower: longest path of the means
  Fulkerson,         // lower
  ArcDeletion,       // lower
  BarrierInsertion,  // upper (Kleinöder)
  NodeDuplication,   // upper (Dodin)
  Kleindorfer,       // upper
};

inline constexpr std::array<BoundMethod, 6> kAllBoundMethods = {
    BoundMethod::CriticalPath,     BoundMethod::Fulkerson,       BoundMethod::ArcDeletion,
    BoundMethod::BarrierInsertion, BoundMethod::NodeDuplication, BoundMethod::Kleindorfer};

// "critical-path", "fulkerson", "arc-deletion", "barrier-insertion", "node-duplication",
// "kleindorfer".
std::string_view to_string(BoundMethod method);
std::optional<BoundMethod> bound_method_from_string(std::string_view name);
// True for the three lower-bound methods.
bool is_lower_bound(BoundMethod method);

struct BoundsOptions {
  // The methods to run. A method whose work would exceed the limits below is skipped (and
  // says so in the summary); the critical path of means and barrier insertion by levels are
  // never skipped, so with the defaults both a lower and an upper bound always exist.
  std::vector<BoundMethod> methods{kAllBoundMethods.begin(), kAllBoundMethods.end()};

  // Grid of the series-parallel reductions (arc deletion, barrier insertion, node
  // duplication). Each grid operation costs O(max_points) to O(max_points log max_points).
  distributions::GridOptions grid;
  // The reductions that spend one grid operation per task (node duplication, the spanning
  // forests of arc deletion) use max_points reduced to keep tasks x points within this (but
  // no fewer than 256 points).
  std::int64_t reduction_work = 500'000;

  // Points per distinct task runtime in Fulkerson's bound. Its lattices put each cell's mass
  // at the cell's left end, so the bound loses up to about one cell per join on the critical
  // path: more points, tighter bound; the work is O(points) per arc.
  std::size_t fulkerson_points = 1024;
  // Fulkerson's points are reduced (to no fewer than 64) so that points x arcs stays within
  // this number of merge steps.
  std::int64_t fulkerson_work = 60'000'000;

  // Kleindorfer's common grid: its step is the tasks' average standard deviation divided by
  // this. Each task's mean is rounded up by up to one step, so finer is tighter.
  std::size_t kleindorfer_points_per_sd = 8;
  // Kleindorfer doubles its step (up to 6 times, then it is reported as skipped) when a
  // finish-time window would exceed this many points or the multiply-adds kleindorfer_work.
  std::size_t kleindorfer_max_window = std::size_t{1} << 15;
  std::int64_t kleindorfer_work = 400'000'000;

  // Dodin's node duplication stops (skipped) after this many duplicated arcs.
  std::int64_t duplication_budget = 20'000;
  // Largest task graph for node duplication and for the spanning-forest arc deletions (one
  // grid operation per task each).
  std::size_t max_reduction_tasks = 20'000;

  // Nodes visited per task when looking for transitive arcs (needed by Fulkerson's bound;
  // a task whose search exceeds it falls back to the critical-path step, still valid).
  std::size_t transitive_search_budget = 4096;

  // Memory the bounds may use besides the graph. Before any work they plan each method's peak
  // from the graph's size (tasks, arcs, distinct runtimes): the compact graph,
  // the critical path and barrier insertion by levels must fit, or compute_bounds throws
  // MemoryBudgetExceeded; every other method runs when it fits too, the cheapest first, and
  // says so when it does not ("skipped: needs about ..."). Barrier insertion then gives blocks
  // too large to recognise barriers between their levels, and Kleindorfer stops when its
  // finish-time windows outgrow their share. The figures of the other methods that run do
  // not depend on the budget.
  std::uint64_t memory_budget_bytes = kDefaultMemoryBudget;

  // Run the methods concurrently with TBB. The figures do not depend on it.
  bool parallel = true;

  // True when the options are usable; otherwise false and, if why != nullptr, a message.
  bool IsValid(std::string* why) const;
};

// One method's figure.
struct BoundValue {
  BoundMethod method = BoundMethod::CriticalPath;
  bool computed = false;  // false: skipped (see note)
  double value = 0.0;     // a lower or an upper bound on the exact mean
  double seconds = 0.0;
  std::string note;  // how it was obtained, or why it was skipped
};

struct BoundsSummary {
  std::vector<BoundValue> values;  // one per requested method, in the order requested
  // The tightest valid pair: lower = 0 (runtimes are >= 0) and upper = +inf when no method of
  // that side was computed.
  double lower = 0.0;
  double upper = 0.0;
  std::optional<BoundMethod> lower_method;
  std::optional<BoundMethod> upper_method;
  std::size_t tasks = 0;
  std::size_t arcs = 0;
  std::size_t transitive_arcs = 0;  // arcs implied by other paths (ignored by every method)
  double memory_bytes = 0.0;        // the planned peak of the methods that ran, with the compact graph
  double seconds = 0.0;

  // "lower 23.71 (fulkerson), upper 24.02 (barrier-insertion)".
  std::string BriefReport() const;
  // One line per method with its value (or why it was skipped) and its time.
  std::string FullReport() const;
};

// The graph has a node the bounds cannot handle (a dynamically scheduled pool: simulate it).
class UnsupportedGraph : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// Every requested bound. Throws std::invalid_argument for invalid options, an empty graph or
// a cycle, UnsupportedGraph for nodes that are not static tasks, MemoryBudgetExceeded when
// not even the cheapest bounds fit options.memory_budget_bytes (within a fraction of a second:
// before any work). `progress`, when set, hears the fraction of the steps done (the graph's
// preparation, then each method as it finishes, equal steps; progress.hpp); the figures are
// the same with or without it.
BoundsSummary compute_bounds(const graph::TaskGraph& graph, const BoundsOptions& options,
                             const ProgressFunction& progress = {});

// The planned peak memory of compute_bounds on this graph (what its summary's memory_bytes
// will say), from the graph's size alone; throws as compute_bounds does when over budget.
double estimate_bounds_memory(const graph::TaskGraph& graph, const BoundsOptions& options);

// The tightest pair as a Result: method Bounds, lower/upper the bounds, mean their midpoint
// (the lower bound when no upper bound was computed), detail = which methods gave them and
// every method's figure and time. Over the memory budget: a Result whose `unsolved` says so
// (Reason::OverMemoryBudget, with the estimate), instead of MemoryBudgetExceeded. `progress`
// as for compute_bounds.
Result solve_bounds(const graph::TaskGraph& graph, const BoundsOptions& options, const ProgressFunction& progress = {});

}  // namespace solvers
