#include "solvers/bounds.hpp"

#include <tbb/task_group.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <mutex>

#include "solvers/bounds_detail.hpp"

namespace solvers {

std::string_view to_string(BoundMethod method) {
  switch (method) {
    case BoundMethod::CriticalPath: return "critical-path";
    case BoundMethod::Fulkerson: return "fulkerson";
    case BoundMethod::ArcDeletion: return "arc-deletion";
    case BoundMethod::BarrierInsertion: return "barrier-insertion";
    case BoundMethod::NodeDuplication: return "node-duplication";
    case BoundMethod::Kleindorfer: return "kleindorfer";
  }
  return "unknown";
}

std::optional<BoundMethod> bound_method_from_string(std::string_view name) {
  for (BoundMethod method : kAllBoundMethods) {
    if (to_string(method) == name) return method;
  }
  return std::nullopt;
}

bool is_lower_bound(BoundMethod method) {
  return method == BoundMethod::CriticalPath || method == BoundMethod::Fulkerson || method == BoundMethod::ArcDeletion;
}

bool BoundsOptions::IsValid(std::string* why) const {
  auto complain = [why](const std::string& message) {
    if (why != nullptr) *why = message;
    return false;
  };
  if (methods.empty()) return complain("BoundsOptions.methods must name at least one method");
  for (std::size_t i = 0; i < methods.size(); ++i) {
    if (std::find(methods.begin(), methods.begin() + static_cast<std::ptrdiff_t>(i), methods[i]) !=
        methods.begin() + static_cast<std::ptrdiff_t>(i)) {
      return complain("BoundsOptions.methods names " + std::string(to_string(methods[i])) + " twice");
    }
  }
  std::string grid_why;
  if (!grid.IsValid(&grid_why)) return complain("BoundsOptions.grid: " + grid_why);
  if (fulkerson_points < 16 || fulkerson_points > (std::size_t{1} << 20)) {
    return complain("BoundsOptions.fulkerson_points must lie in [16, 2^20], got " + std::to_string(fulkerson_points));
  }
  if (fulkerson_work < 1) return complain("BoundsOptions.fulkerson_work must be >= 1");
  if (kleindorfer_points_per_sd < 1 || kleindorfer_points_per_sd > 4096) {
    return complain("BoundsOptions.kleindorfer_points_per_sd must lie in [1, 4096], got " +
                    std::to_string(kleindorfer_points_per_sd));
  }
  if (reduction_work < 1) return complain("BoundsOptions.reduction_work must be >= 1");
  if (kleindorfer_max_window < 16) return complain("BoundsOptions.kleindorfer_max_window must be >= 16");
  if (kleindorfer_work < 1) return complain("BoundsOptions.kleindorfer_work must be >= 1");
  if (duplication_budget < 0) return complain("BoundsOptions.duplication_budget must be >= 0");
  if (memory_budget_bytes < kSmallestMemoryBudget) {
    return complain("BoundsOptions.memory_budget_bytes must be >= 1 MiB, got " + std::to_string(memory_budget_bytes));
  }
  return true;
}

namespace {

std::string number(double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.6g", value);
  return buffer;
}

}  // namespace

std::string BoundsSummary::BriefReport() const {
  std::string text = "lower " + number(lower) + " (" +
                     (lower_method ? std::string(to_string(*lower_method)) : std::string("none: 0")) + "), upper " +
                     number(upper) + " (" +
                     (upper_method ? std::string(to_string(*upper_method)) : std::string("none")) + ")";
  return text;
}

std::string BoundsSummary::FullReport() const {
  std::string text = BriefReport() + "\n";
  text += number(static_cast<double>(tasks)) + " tasks, " + number(static_cast<double>(arcs)) + " arcs (" +
          number(static_cast<double>(transitive_arcs)) + " transitive), " + number(seconds) + " s, planned memory " +
          memory_text(memory_bytes) + "\n";
  for (const BoundValue& v : values) {
    text += "  " + std::string(to_string(v.method)) + (is_lower_bound(v.method) ? " (lower): " : " (upper): ");
    text += v.computed ? number(v.value) : std::string("-");
    text += ", " + number(v.seconds) + " s";
    if (!v.note.empty()) text += "; " + v.note;
    text += "\n";
  }
  return text;
}

namespace {

// Fulkerson's lattices: as fine as fulkerson_points, coarser if the merges over every arc
// would exceed fulkerson_work.
std::size_t lattice_points(const graph::TaskGraph& graph, const BoundsOptions& options) {
  const std::size_t arcs = graph.arc_count() + graph.node_count();
  const auto affordable =
      static_cast<std::size_t>(options.fulkerson_work / static_cast<std::int64_t>(std::max<std::size_t>(arcs, 1)));
  return std::min(std::clamp<std::size_t>(affordable, 64, options.fulkerson_points), options.fulkerson_points);
}

bounds_detail::MemoryPlan plan(const graph::TaskGraph& graph, const BoundsOptions& options) {
  std::string why;
  if (!options.IsValid(&why)) throw std::invalid_argument("bounds options: " + why);
  return bounds_detail::plan_memory(graph, options, lattice_points(graph, options));
}

std::string skipped_note(const bounds_detail::MemoryPlan& plan, BoundMethod method) {
  const auto i = static_cast<std::size_t>(method);
  return "skipped: needs about " + memory_text(plan.bytes[i]) + ", and " +
         memory_text(std::max(plan.left_when_skipped[i], 0.0)) + " of the memory budget of " +
         memory_text(plan.budget) + " was left";
}

// One method's outcome, or why the memory plan skipped it.
bounds_detail::Outcome run_method(BoundMethod method, const graph::TaskGraph& graph, const bounds_detail::Dag& dag,
                                  const BoundsOptions& options, const bounds_detail::MemoryPlan& memory) {
  bounds_detail::Outcome outcome;
  if (!memory.run[static_cast<std::size_t>(method)]) {
    outcome.note = skipped_note(memory, method);
  } else {
    switch (method) {
      case BoundMethod::CriticalPath: outcome = bounds_detail::critical_path(dag); break;
      case BoundMethod::Fulkerson: outcome = bounds_detail::fulkerson(dag, options.parallel); break;
      case BoundMethod::ArcDeletion: outcome = bounds_detail::arc_deletion(graph, dag, options); break;
      case BoundMethod::BarrierInsertion:
        outcome = bounds_detail::barrier_insertion(dag, options, memory.recognisable_tasks);
        break;
      case BoundMethod::NodeDuplication: outcome = bounds_detail::node_duplication(dag, options); break;
      case BoundMethod::Kleindorfer:
        outcome = bounds_detail::kleindorfer(dag, options, memory.kleindorfer_window_bytes);
        break;
    }
  }
  return outcome;
}

// The summary's bounds: the largest lower and the smallest upper bound that were computed.
void choose_tightest(BoundsSummary& summary) {
  summary.lower = 0.0;
  summary.upper = std::numeric_limits<double>::infinity();
  for (const BoundValue& v : summary.values) {
    if (!v.computed) continue;
    if (is_lower_bound(v.method)) {
      if (!summary.lower_method || v.value > summary.lower) {
        summary.lower = std::max(v.value, 0.0);
        summary.lower_method = v.method;
      }
    } else if (!summary.upper_method || v.value < summary.upper) {
      summary.upper = v.value;
      summary.upper_method = v.method;
    }
  }
}
}  // namespace

double estimate_bounds_memory(const graph::TaskGraph& graph, const BoundsOptions& options) {
  return plan(graph, options).total;
}

BoundsSummary compute_bounds(const graph::TaskGraph& graph, const BoundsOptions& options,
                             const ProgressFunction& progress) {
  const auto begin = std::chrono::steady_clock::now();
  const bounds_detail::MemoryPlan memory = plan(graph, options);
  const bounds_detail::Dag dag =
      bounds_detail::build_dag(graph, lattice_points(graph, options), options.grid, options.transitive_search_budget);
  // Steps: the DAG above, then each method; every step shows (interval 0), there are few.
  ProgressReporter reporter(progress, std::chrono::milliseconds(0));
  const auto steps = static_cast<double>(options.methods.size() + 1);
  std::size_t steps_done = 1;
  std::mutex steps_lock;  // methods may finish side by side: count and report as one
  reporter(1.0 / steps);

  BoundsSummary summary;
  summary.memory_bytes = memory.total;
  summary.tasks = dag.n;
  summary.arcs = dag.original_arcs;
  summary.transitive_arcs = dag.transitive_arcs;
  summary.values.resize(options.methods.size());
  auto run = [&](std::size_t i) {
    const BoundMethod method = options.methods[i];
    const auto start = std::chrono::steady_clock::now();
    bounds_detail::Outcome outcome = run_method(method, graph, dag, options, memory);
    BoundValue& value = summary.values[i];
    value.method = method;
    value.computed = outcome.computed;
    value.value = outcome.value;
    value.note = std::move(outcome.note);
    value.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (reporter.active()) {
      std::lock_guard<std::mutex> guard(steps_lock);
      reporter(static_cast<double>(++steps_done) / steps);
    }
  };
  if (options.parallel) {
    tbb::task_group group;
    for (std::size_t i = 0; i < options.methods.size(); ++i) group.run([&run, i] { run(i); });
    group.wait();
  } else {
    for (std::size_t i = 0; i < options.methods.size(); ++i) run(i);
  }
  reporter.finish();

  choose_tightest(summary);
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  return summary;
}

Result solve_bounds(const graph::TaskGraph& graph, const BoundsOptions& options, const ProgressFunction& progress) {
  Result result;
  result.method = Method::Bounds;
  BoundsSummary summary;
  try {
    summary = compute_bounds(graph, options, progress);
  } catch (const MemoryBudgetExceeded& over) {
    Unsolved& why = result.unsolved.emplace();
    why.reason = Unsolved::Reason::OverMemoryBudget;
    why.bytes = over.bytes();
    why.limit = Unsolved::Limit::Memory;
    why.limit_value = over.budget();
    why.size = static_cast<double>(graph.node_count());
    why.explanation = over.needing();
    return result;
  }
  result.lower = summary.lower;
  result.upper = summary.upper;
  result.mean = std::isfinite(summary.upper) ? 0.5 * (summary.lower + summary.upper) : summary.lower;
  result.detail = summary.FullReport();
  if (!result.detail.empty() && result.detail.back() == '\n') result.detail.pop_back();
  result.statistics.seconds = summary.seconds;
  result.statistics.represented_tasks = static_cast<std::int64_t>(summary.tasks);
  return result;
}

}  // namespace solvers
