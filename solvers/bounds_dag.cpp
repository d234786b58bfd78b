// The compact form of a task graph the bounds work on: topological positions, CSR arcs with
// the transitive ones removed, longest-path levels and one discretised law per distinct task
// runtime.
#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "distributions/queries.hpp"
#include "solvers/bounds_detail.hpp"
#include "solvers/law_key.hpp"

namespace solvers::bounds_detail {

namespace {

bool is_static(graph::NodeKind kind) {
  switch (kind) {
    case graph::NodeKind::Task:
    case graph::NodeKind::Communication:
    case graph::NodeKind::Barrier:
    case graph::NodeKind::Contention:
    case graph::NodeKind::Join: return true;
    default: return false;  // DynamicPool and anything added later: not a fixed runtime
  }
}

TaskLaw make_law(const distributions::Distribution& runtime, std::size_t points,
                 const distributions::GridOptions& grid) {
  namespace d = distributions;
  TaskLaw law;
  law.runtime = runtime;
  const d::Bracket bracket = d::mean_bracket(runtime);
  law.mean_low = bracket.lower;
  law.mean_high = bracket.upper;
  d::GridOptions options = grid;
  options.max_points = std::max<std::size_t>(points, 16);
  const d::Distribution grid_law = d::discretise(runtime, options);
  const d::LatticeView view = d::lattice(grid_law);
  law.origin = view.origin;
  law.step = view.step;
  law.lower.assign(view.lower.begin(), view.lower.end());
  law.upper.assign(view.upper.begin(), view.upper.end());
  law.slack = view.slack;
  law.support_max = view.origin + view.step * static_cast<double>(view.upper.size() - 1);
  law.zero = d::is_closed_form(runtime) && bracket.upper == 0.0 && law.support_max == 0.0;
  return law;
}

// Refuses what the bounds cannot work on, before any work.
void check_supported(const graph::TaskGraph& graph) {
  if (graph.node_count() == 0) throw std::invalid_argument("bounds: the task graph is empty");
  if (graph.node_count() >= std::size_t{1} << 31) {
    throw std::invalid_argument("bounds: the task graph has too many nodes");
  }
  for (graph::NodeId v = 0; v < graph.node_count(); ++v) {
    const graph::TaskNode& node = graph.node(v);
    if (!is_static(node.kind)) {
      throw UnsupportedGraph("bounds: node '" + node.label + "' is a " + std::string(graph::to_string(node.kind)) +
                             ", which has no fixed runtime distribution (dynamic scheduling); "
                             "use Monte Carlo for this graph");
    }
  }
}

// Each position's processor, step and law; distinct laws (equal closed forms share one, see
// law_key.hpp).
void assign_laws(const graph::TaskGraph& graph, std::size_t lattice_points, const distributions::GridOptions& grid,
                 Dag& dag) {
  detail::LawMap<std::uint32_t> law_index;
  dag.law.resize(dag.n);
  dag.processor.resize(dag.n);
  dag.step.resize(dag.n);
  for (std::size_t i = 0; i < dag.n; ++i) {
    const graph::TaskNode& node = graph.node(dag.original[i]);
    dag.processor[i] = node.processor;
    dag.step[i] = node.step;
    const auto [law, added] = law_index.try_emplace(node.runtime);
    if (added) {
      *law = static_cast<std::uint32_t>(dag.laws.size());
      dag.laws.push_back(make_law(node.runtime, lattice_points, grid));
    }
    dag.law[i] = *law;
  }
}

// The backward searches' marks, stamped per task so that none is cleared between tasks.
struct TransitiveSearch {
  explicit TransitiveSearch(std::size_t n) : visited(n, 0), in_set(n, 0), dropped(n, 0) {}
  std::vector<std::uint32_t> visited;
  std::vector<std::uint32_t> in_set;
  std::vector<char> dropped;
  std::vector<std::uint32_t> stack;
  std::uint32_t stamp = 0;
};

// Marks `dropped` the predecessors (of a task at `level`) that are ancestors of another of
// them; false when the search went over its budget (the marks are then incomplete).
bool mark_transitive_predecessors(const Dag& dag, const std::vector<std::uint32_t>& preds, std::uint32_t level,
                                  std::size_t transitive_search_budget, TransitiveSearch& search) {
  std::uint32_t& stamp = search.stamp;
  std::vector<std::uint32_t>& visited = search.visited;
  std::vector<std::uint32_t>& stack = search.stack;
  ++stamp;
  std::uint32_t lowest = level;
  for (std::uint32_t u : preds) {
    lowest = std::min(lowest, dag.level[u]);
    search.in_set[u] = stamp;
    search.dropped[u] = 0;
  }
  stack.clear();
  for (std::uint32_t w : preds) {
    for (std::uint32_t k = dag.pred_begin[w]; k < dag.pred_begin[w + 1]; ++k) {
      const std::uint32_t x = dag.pred[k];
      if (dag.level[x] >= lowest && visited[x] != stamp) {
        visited[x] = stamp;
        stack.push_back(x);
      }
    }
  }
  std::size_t work = 0;
  while (!stack.empty()) {
    if (++work > transitive_search_budget) return false;
    const std::uint32_t x = stack.back();
    stack.pop_back();
    if (search.in_set[x] == stamp) search.dropped[x] = 1;
    for (std::uint32_t k = dag.pred_begin[x]; k < dag.pred_begin[x + 1]; ++k) {
      const std::uint32_t y = dag.pred[k];
      if (dag.level[y] >= lowest && visited[y] != stamp) {
        visited[y] = stamp;
        stack.push_back(y);
      }
    }
  }
  return true;
}

// Levels, then predecessor lists without transitive arcs: a predecessor u of v is dropped
// when it is an ancestor of another predecessor. The backward search from v's other
// predecessors only visits tasks whose level is at least the lowest level among v's
// predecessors (an ancestor has a strictly smaller level), with a budget per task.
void levels_and_reduced_predecessors(const graph::TaskGraph& graph, const std::vector<std::uint32_t>& position,
                                     std::size_t transitive_search_budget, Dag& dag) {
  dag.level.assign(dag.n, 0);
  dag.pred_begin.assign(dag.n + 1, 0);
  TransitiveSearch search(dag.n);
  std::vector<std::uint32_t> preds;
  dag.antichain.assign(dag.n, 1);
  for (std::size_t v = 0; v < dag.n; ++v) {
    preds.clear();
    for (graph::NodeId u : graph.predecessors(dag.original[v])) preds.push_back(position[u]);
    std::sort(preds.begin(), preds.end());
    preds.erase(std::unique(preds.begin(), preds.end()), preds.end());
    dag.original_arcs += preds.size();
    std::uint32_t level = 0;
    for (std::uint32_t u : preds) level = std::max(level, dag.level[u] + 1);
    dag.level[v] = level;
    if (preds.size() >= 2) {
      if (!mark_transitive_predecessors(dag, preds, level, transitive_search_budget, search)) {
        // Keep every arc: the graph's paths are unchanged, only Fulkerson's step at v has to
        // fall back to the critical-path step.
        dag.antichain[v] = 0;
        ++dag.unresolved_tasks;
      } else {
        const std::size_t before = preds.size();
        const std::vector<char>& dropped = search.dropped;
        preds.erase(std::remove_if(preds.begin(), preds.end(), [&](std::uint32_t u) { return dropped[u] != 0; }),
                    preds.end());
        dag.transitive_arcs += before - preds.size();
      }
    }
    dag.pred.insert(dag.pred.end(), preds.begin(), preds.end());
    dag.pred_begin[v + 1] = static_cast<std::uint32_t>(dag.pred.size());
  }
}

// Successors (CSR) from the reduced predecessor lists; ascending positions.
void successors_from_predecessors(Dag& dag) {
  dag.succ_begin.assign(dag.n + 1, 0);
  for (std::uint32_t u : dag.pred) ++dag.succ_begin[u + 1];
  for (std::size_t v = 0; v < dag.n; ++v) dag.succ_begin[v + 1] += dag.succ_begin[v];
  dag.succ.resize(dag.pred.size());
  std::vector<std::uint32_t> fill(dag.succ_begin.begin(), dag.succ_begin.end() - 1);
  for (std::size_t v = 0; v < dag.n; ++v) {
    for (std::uint32_t k = dag.pred_begin[v]; k < dag.pred_begin[v + 1]; ++k) {
      dag.succ[fill[dag.pred[k]]++] = static_cast<std::uint32_t>(v);
    }
  }
}

// Positions grouped by level, ascending within a level.
void group_by_level(Dag& dag) {
  const std::uint32_t levels = *std::max_element(dag.level.begin(), dag.level.end()) + 1;
  dag.by_level_begin.assign(levels + 1, 0);
  for (std::uint32_t l : dag.level) ++dag.by_level_begin[l + 1];
  for (std::uint32_t l = 0; l < levels; ++l) dag.by_level_begin[l + 1] += dag.by_level_begin[l];
  dag.by_level.resize(dag.n);
  std::vector<std::uint32_t> next(dag.by_level_begin.begin(), dag.by_level_begin.end() - 1);
  for (std::size_t v = 0; v < dag.n; ++v) dag.by_level[next[dag.level[v]]++] = static_cast<std::uint32_t>(v);
}

}  // namespace

Dag build_dag(const graph::TaskGraph& graph, std::size_t lattice_points, const distributions::GridOptions& grid,
              std::size_t transitive_search_budget) {
  check_supported(graph);
  Dag dag;
  dag.n = graph.node_count();
  dag.original = graph::topological_order(graph);  // throws on a cycle
  std::vector<std::uint32_t> position(dag.n);
  for (std::size_t i = 0; i < dag.n; ++i) position[dag.original[i]] = static_cast<std::uint32_t>(i);
  assign_laws(graph, lattice_points, grid, dag);
  levels_and_reduced_predecessors(graph, position, transitive_search_budget, dag);
  successors_from_predecessors(dag);
  group_by_level(dag);
  return dag;
}

}  // namespace solvers::bounds_detail
