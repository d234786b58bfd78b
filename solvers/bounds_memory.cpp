// The bounds' memory plan: what each method holds at its peak, estimated from the graph's size
// before any work, and which methods fit the budget. The per-task figures are measured by
// bench/solvers/memory_bench.cpp (docs/performance.md, "Memory") and rounded up.
#include <algorithm>
#include <map>
#include <numeric>
#include <vector>

#include "solvers/bounds_detail.hpp"
#include "solvers/law_key.hpp"
#include "solvers/memory.hpp"

namespace solvers::bounds_detail {

namespace {

// The compact graph (topological positions, levels, CSR arcs both ways, the search marks of
// the transitive reduction) per task and per arc, and one law's bookkeeping besides its
// lattices.
constexpr double kDagPerTask = 100.0;
constexpr double kDagPerArc = 16.0;
constexpr double kPerLaw = 256.0;
// Start times (critical path, Fulkerson).
constexpr double kStartsPerTask = 16.0;
// Kleindorfer's per-task arrays (path counts, pending successors, an empty window each); its
// live finish-time windows come on top, bounded by kleindorfer_window_bytes below.
constexpr double kKleindorferPerTask = 48.0;
constexpr double kKleindorferWindowsPerTask = 256.0;
constexpr double kKleindorferWindowsFixed = 16e6;
// Arc deletion's processors' chains (the chains' leaves and the compressed tree).
constexpr double kChainsPerTask = 24.0;
// The spanning forests (one tree node and one grid law per task; grids of `points` points).
constexpr double kForestPerTask = 1024.0;
constexpr double kForestPerTaskPoint = 4.0;
// Node duplication: the activity-on-arc network's maps and a grid law per arc.
constexpr double kDuplicationPerTask = 1536.0;
constexpr double kDuplicationPerTaskPoint = 6.0;
// Barrier insertion: the candidate partitions and their block lists, per task; recognising one
// block as series-parallel (its own task graph, the reducer's edge sets, the decomposition tree),
// per task of the block. A block may be the whole graph (one processor), so the plan allows for
// that and, when it does not fit, recognises the blocks that fit what is left.
constexpr double kBarrierPerTask = 40.0;
constexpr double kBlockRecognitionPerTask = 1200.0;
constexpr double kBlockRecognitionPerArc = 320.0;

std::size_t index(BoundMethod method) { return static_cast<std::size_t>(method); }

bool requested(const BoundsOptions& options, BoundMethod method) {
  return std::find(options.methods.begin(), options.methods.end(), method) != options.methods.end();
}

// Recognising a block as series-parallel: per task of a block, with the graph's arcs per task.
double recognition_per_task(double n, double arcs) {
  return kBlockRecognitionPerTask + kBlockRecognitionPerArc * arcs / std::max(n, 1.0);
}

// The budget, the compact graph and each method's own peak.
MemoryPlan method_peaks(const graph::TaskGraph& graph, const BoundsOptions& options, std::size_t lattice_points) {
  const auto n = static_cast<double>(graph.node_count());
  const auto arcs = static_cast<double>(graph.arc_count());
  std::map<detail::LawKey, int> laws;
  for (graph::NodeId v = 0; v < graph.node_count(); ++v) laws.emplace(detail::law_key(graph.node(v).runtime), 0);
  const double points = static_cast<double>(per_task_grid(options, graph.node_count()).max_points);
  const bool small = graph.node_count() <= options.max_reduction_tasks;

  MemoryPlan plan;
  plan.left_when_skipped.fill(-1.0);
  plan.budget = static_cast<double>(options.memory_budget_bytes);
  plan.base = kDagPerTask * n + kDagPerArc * arcs +
              static_cast<double>(laws.size()) * (kPerLaw + 16.0 * static_cast<double>(lattice_points));
  plan.bytes[index(BoundMethod::CriticalPath)] = kStartsPerTask * n;
  plan.bytes[index(BoundMethod::Fulkerson)] = kStartsPerTask * n;
  plan.bytes[index(BoundMethod::Kleindorfer)] =
      kKleindorferPerTask * n + kKleindorferWindowsPerTask * n + kKleindorferWindowsFixed;
  plan.bytes[index(BoundMethod::ArcDeletion)] =
      kChainsPerTask * n + (small ? (kForestPerTask + kForestPerTaskPoint * points) * n : 0.0);
  plan.bytes[index(BoundMethod::NodeDuplication)] =
      small ? (kDuplicationPerTask + kDuplicationPerTaskPoint * points) * n : 0.0;
  const double block_bytes = recognition_per_task(n, arcs) * n;
  plan.bytes[index(BoundMethod::BarrierInsertion)] = kBarrierPerTask * n + block_bytes;
  return plan;
}

// The methods that must run: throws when they do not fit.
void plan_required(MemoryPlan& plan, const BoundsOptions& options, double n) {
  const auto budget = static_cast<double>(options.memory_budget_bytes);
  double required = plan.base;
  if (requested(options, BoundMethod::CriticalPath)) required += plan.bytes[index(BoundMethod::CriticalPath)];
  if (requested(options, BoundMethod::BarrierInsertion)) required += kBarrierPerTask * n;
  if (required > budget) throw MemoryBudgetExceeded("bounds: the compact task graph", required, budget);
  plan.total = required;
  plan.run[index(BoundMethod::CriticalPath)] = requested(options, BoundMethod::CriticalPath);
  plan.run[index(BoundMethod::BarrierInsertion)] = requested(options, BoundMethod::BarrierInsertion);
}

// The other methods, and barrier insertion's recognition of blocks, each while it fits.
void plan_optional(MemoryPlan& plan, const BoundsOptions& options, double block_bytes) {
  const auto budget = static_cast<double>(options.memory_budget_bytes);
  std::vector<BoundMethod> optional;
  for (BoundMethod method : options.methods) {
    if (method != BoundMethod::CriticalPath && method != BoundMethod::BarrierInsertion) optional.push_back(method);
  }
  if (requested(options, BoundMethod::BarrierInsertion)) optional.push_back(BoundMethod::BarrierInsertion);
  std::stable_sort(optional.begin(), optional.end(), [&](BoundMethod a, BoundMethod b) {
    const double extra_a = a == BoundMethod::BarrierInsertion ? block_bytes : plan.bytes[index(a)];
    const double extra_b = b == BoundMethod::BarrierInsertion ? block_bytes : plan.bytes[index(b)];
    return extra_a < extra_b;
  });
  for (BoundMethod method : optional) {
    const bool blocks = method == BoundMethod::BarrierInsertion;
    const double extra = blocks ? block_bytes : plan.bytes[index(method)];
    if (plan.total + extra > budget) {
      plan.left_when_skipped[index(method)] = budget - plan.total;
      // Barrier insertion recognises the blocks that fit what is left.
      if (blocks) {
        plan.barrier_block_bytes = budget - plan.total;
        plan.total = budget;
      }
      continue;
    }
    plan.total += extra;
    if (blocks) {
      plan.barrier_block_bytes = block_bytes;
    } else {
      plan.run[index(method)] = true;
    }
  }
}

}  // namespace

MemoryPlan plan_memory(const graph::TaskGraph& graph, const BoundsOptions& options, std::size_t lattice_points) {
  const auto n = static_cast<double>(graph.node_count());
  const double recognition = recognition_per_task(n, static_cast<double>(graph.arc_count()));
  MemoryPlan plan = method_peaks(graph, options, lattice_points);
  // What must fit: the compact graph, the critical path and barrier insertion by levels (a
  // level has no arc inside, so it needs no recognition): then both a lower and an upper
  // bound exist. Everything else runs when it fits, the cheapest first.
  plan_required(plan, options, n);
  plan_optional(plan, options, recognition * n);
  plan.recognisable_tasks = static_cast<std::size_t>(plan.barrier_block_bytes / recognition);
  plan.kleindorfer_window_bytes = kKleindorferWindowsPerTask * n + kKleindorferWindowsFixed;
  return plan;
}

}  // namespace solvers::bounds_detail
