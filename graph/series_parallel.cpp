#include "graph/series_parallel.hpp"

#include <algorithm>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <unordered_map>

namespace graph {
namespace {

// The node-weighted graph becomes a two-terminal multigraph whose edges carry parts of the
// tree: node v is the edge in(v) -> out(v) holding its leaf; an arc u -> v is an empty edge
// out(u) -> in(v); a source s feeds every entry node and every exit node feeds a sink t.
// Empty edges take no time, and since runtimes are non-negative, an empty edge is neutral
// under both series (X + 0) and parallel (max(X, 0)) composition. Reductions:
//   series:   a vertex other than s, t with one edge in and one out merges them;
//   parallel: two edges between the same pair of vertices merge.
// The graph is series-parallel iff this ends with the single edge s -> t.
constexpr std::size_t kEmpty = static_cast<std::size_t>(-1);

struct Edge {
  std::size_t from;
  std::size_t to;
  std::size_t part;  // index in the tree, or kEmpty
  bool alive = true;
};

class Reducer {
 public:
  explicit Reducer(const TaskGraph& graph) : graph_(graph) {
    const std::size_t n = graph.node_count();
    vertex_count_ = 2 * n + 2;
    source_ = 2 * n;
    sink_ = 2 * n + 1;
    in_.resize(vertex_count_);
    out_.resize(vertex_count_);
    for (NodeId v = 0; v < n; ++v) {
      const std::size_t leaf = tree_.leaf(graph.node(v), v);
      add_edge(in_vertex(v), out_vertex(v), leaf);
      if (graph.in_degree(v) == 0) add_edge(source_, in_vertex(v), kEmpty);
      if (graph.out_degree(v) == 0) add_edge(out_vertex(v), sink_, kEmpty);
      for (NodeId w : graph.successors(v)) add_edge(out_vertex(v), in_vertex(w), kEmpty);
    }
  }

  SpDecomposition run() {
    for (std::size_t v = 0; v < vertex_count_; ++v) worklist_.push_back(v);
    while (!worklist_.empty()) {
      const std::size_t v = worklist_.back();
      worklist_.pop_back();
      try_series(v);
    }
    SpDecomposition result;
    const std::vector<std::size_t> alive = alive_edges();
    if (alive.size() == 1 && edges_[alive.front()].from == source_ &&
        edges_[alive.front()].to == sink_) {
      tree_.set_root(edges_[alive.front()].part);
      result.tree = std::move(tree_);
    } else {
      result.residual = describe_residual(alive);
    }
    return result;
  }

 private:
  static std::size_t in_vertex(NodeId v) { return 2 * v; }
  static std::size_t out_vertex(NodeId v) { return 2 * v + 1; }

  static std::uint64_t key(std::size_t from, std::size_t to) {
    return (static_cast<std::uint64_t>(from) << 32) | static_cast<std::uint64_t>(to);
  }

  // Adds an edge, merging it at once with a parallel edge between the same vertices.
  void add_edge(std::size_t from, std::size_t to, std::size_t part) {
    const auto found = between_.find(key(from, to));
    if (found != between_.end()) {
      Edge& twin = edges_[found->second];
      twin.part = parallel_of(twin.part, part);
      // The merge removed one edge at each end: they may now admit a series reduction.
      worklist_.push_back(from);
      worklist_.push_back(to);
      return;
    }
    const std::size_t id = edges_.size();
    edges_.push_back({from, to, part});
    out_[from].insert(id);
    in_[to].insert(id);
    between_.emplace(key(from, to), id);
  }

  void remove_edge(std::size_t id) {
    Edge& e = edges_[id];
    e.alive = false;
    out_[e.from].erase(id);
    in_[e.to].erase(id);
    between_.erase(key(e.from, e.to));
  }

  std::size_t parallel_of(std::size_t a, std::size_t b) {
    if (a == kEmpty) return b;
    if (b == kEmpty) return a;
    return tree_.parallel({a, b});
  }

  std::size_t series_of(std::size_t a, std::size_t b) {
    if (a == kEmpty) return b;
    if (b == kEmpty) return a;
    return tree_.series({a, b});
  }

  void try_series(std::size_t v) {
    if (v == source_ || v == sink_ || in_[v].size() != 1 || out_[v].size() != 1) return;
    const std::size_t first = *in_[v].begin();
    const std::size_t second = *out_[v].begin();
    const Edge a = edges_[first];
    const Edge b = edges_[second];
    remove_edge(first);
    remove_edge(second);
    add_edge(a.from, b.to, series_of(a.part, b.part));
    worklist_.push_back(a.from);
    worklist_.push_back(b.to);
  }

  std::vector<std::size_t> alive_edges() const {
    std::vector<std::size_t> alive;
    for (std::size_t id = 0; id < edges_.size(); ++id)
      if (edges_[id].alive) alive.push_back(id);
    return alive;
  }

  // A residual vertex in(v) or out(v) stands for task v.
  bool is_task_vertex(std::size_t vertex) const { return vertex != source_ && vertex != sink_; }
  static NodeId task_of(std::size_t vertex) { return vertex / 2; }

  NonSeriesParallel describe_residual(const std::vector<std::size_t>& alive) const {
    NonSeriesParallel residual;
    std::set<NodeId> nodes;
    std::set<std::pair<NodeId, NodeId>> arcs;
    for (std::size_t id : alive) {
      const Edge& e = edges_[id];
      // Edges still joining two different tasks are the offending dependencies.
      if (!is_task_vertex(e.from) || !is_task_vertex(e.to)) continue;
      if (task_of(e.from) != task_of(e.to)) {
        nodes.insert(task_of(e.from));
        nodes.insert(task_of(e.to));
        arcs.emplace(task_of(e.from), task_of(e.to));
      }
    }
    residual.nodes.assign(nodes.begin(), nodes.end());
    residual.arcs.assign(arcs.begin(), arcs.end());
    std::string text = "the graph is not series-parallel: no series or parallel reduction removes "
                       "the dependencies ";
    const std::size_t shown = std::min<std::size_t>(residual.arcs.size(), 12);
    for (std::size_t i = 0; i < shown; ++i) {
      if (i > 0) text += ", ";
      text += graph_.node(residual.arcs[i].first).label + " -> " +
              graph_.node(residual.arcs[i].second).label;
    }
    if (shown < residual.arcs.size()) {
      text += " and " + std::to_string(residual.arcs.size() - shown) + " more";
    }
    residual.description = std::move(text);
    return residual;
  }

  const TaskGraph& graph_;
  SpTree tree_;
  std::size_t vertex_count_ = 0;
  std::size_t source_ = 0;
  std::size_t sink_ = 0;
  std::vector<Edge> edges_;
  std::vector<std::set<std::size_t>> in_;
  std::vector<std::set<std::size_t>> out_;
  std::unordered_map<std::uint64_t, std::size_t> between_;
  std::vector<std::size_t> worklist_;
};

}  // namespace

SpDecomposition decompose(const TaskGraph& graph) {
  if (graph.node_count() == 0) throw std::invalid_argument("series-parallel recognition: empty graph");
  topological_order(graph);  // throws on a cycle, naming it
  if (graph.node_count() >= (std::size_t{1} << 30)) {
    throw std::length_error("series-parallel recognition: graph too large");
  }
  return Reducer(graph).run();
}

}  // namespace graph
