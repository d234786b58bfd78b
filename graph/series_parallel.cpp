#include "graph/series_parallel.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
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
  std::size_t part;  // index in Reducer::parts_, or kEmpty
  bool alive = true;
};

// A part of the tree while reducing: a task, or the series or parallel of two parts. Kept
// binary and turned into the flattened SpTree once at the end: flattening at every reduction
// copies the children of the part being extended, so a chain of n tasks would hold 1 + 2 +
// ... + n children (quadratic memory).
struct Part {
  SpKind kind = SpKind::Leaf;
  std::size_t first = kEmpty;  // Leaf: the task-graph node; otherwise the two parts
  std::size_t second = kEmpty;
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
    parts_.reserve(2 * n);
    for (NodeId v = 0; v < n; ++v) {
      parts_.push_back({SpKind::Leaf, v, kEmpty});
      add_edge(in_vertex(v), out_vertex(v), v);
      if (graph.in_degree(v) == 0) add_edge(source_, in_vertex(v), kEmpty);
      if (graph.out_degree(v) == 0) add_edge(out_vertex(v), sink_, kEmpty);
      for (NodeId w : graph.successors(v)) add_edge(out_vertex(v), in_vertex(w), kEmpty);
    }
  }

  SpDecomposition run() {
    for (std::size_t v = 0; v < vertex_count_; ++v) worklist_.push_back(v);
    search_budget_ = 64 * edges_.size() + 1'000'000;
    do {
      while (!worklist_.empty()) {
        const std::size_t v = worklist_.back();
        worklist_.pop_back();
        try_series(v);
      }
    } while (identify_events(Side::In) || identify_events(Side::Out) || drop_implied_edges());
    SpDecomposition result;
    const std::vector<std::size_t> alive = alive_edges();
    if (alive.size() == 1 && edges_[alive.front()].from == source_ && edges_[alive.front()].to == sink_) {
      result.tree = to_tree(edges_[alive.front()].part);
    } else {
      result.residual = describe_residual(alive);
    }
    return result;
  }

 private:
  enum class Side { In, Out };

  static std::size_t in_vertex(NodeId v) { return 2 * v; }
  static std::size_t out_vertex(NodeId v) { return 2 * v + 1; }

  static std::uint64_t key(std::size_t from, std::size_t to) {
    return (static_cast<std::uint64_t>(from) << 32) | static_cast<std::uint64_t>(to);
  }

  // A vertex is an event: "every edge into it has finished". Two vertices whose edges on one
  // side are all empty and come from (go to) the same vertices are the same event, so they
  // can be one vertex. Series and parallel reduction alone miss this on activity-on-node
  // graphs: tasks a1, a2 both before b1, b2 give vertices in(b1), in(b2) with the same empty
  // predecessors, and only after identifying them do the reductions go through.
  bool identify_events(Side side) {
    std::map<std::vector<std::size_t>, std::size_t> first_with;
    bool changed = false;
    for (std::size_t v = 0; v < vertex_count_; ++v) {
      if (v == source_ || v == sink_) continue;
      const auto& near = side == Side::In ? in_[v] : out_[v];
      if (near.empty()) continue;
      std::vector<std::size_t> signature;
      bool all_empty = true;
      for (std::size_t id : near) {
        all_empty = all_empty && edges_[id].part == kEmpty;
        signature.push_back(side == Side::In ? edges_[id].from : edges_[id].to);
      }
      if (!all_empty) continue;
      std::sort(signature.begin(), signature.end());
      const auto [found, inserted] = first_with.emplace(std::move(signature), v);
      if (inserted) continue;
      merge_into(found->second, v, side);
      changed = true;
    }
    return changed;
  }

  // An empty edge x -> y is implied when another path leads from x to y: every edge takes
  // non-negative time, so the other path finishes no earlier and the empty edge can go (an arc
  // like a -> c beside a -> b -> c, while b has other successors too). Each search is a
  // depth-first walk; the walks share a work limit proportional to the graph, past which the
  // graph is reported as not recognised.
  bool drop_implied_edges() {
    bool changed = false;
    if (visited_.size() < vertex_count_) visited_.assign(vertex_count_, 0);
    for (std::size_t id = 0; id < edges_.size(); ++id) {
      const Edge e = edges_[id];
      if (!e.alive || e.part != kEmpty || e.from == source_ || e.to == sink_) continue;
      if (!reachable_without(e.from, e.to, id)) continue;
      remove_edge(id);
      worklist_.push_back(e.from);
      worklist_.push_back(e.to);
      changed = true;
    }
    return changed;
  }

  bool reachable_without(std::size_t from, std::size_t to, std::size_t skipped_edge) {
    ++stamp_;
    std::vector<std::size_t> stack{from};
    visited_[from] = stamp_;
    while (!stack.empty()) {
      const std::size_t v = stack.back();
      stack.pop_back();
      for (std::size_t id : out_[v]) {
        if (id == skipped_edge) continue;
        if (search_budget_ == 0) {
          budget_exhausted_ = true;
          return false;
        }
        --search_budget_;
        const std::size_t w = edges_[id].to;
        if (w == to) return true;
        if (visited_[w] != stamp_) {
          visited_[w] = stamp_;
          stack.push_back(w);
        }
      }
    }
    return false;
  }

  // Moves the far side of `v` onto `x` and drops v's identified side.
  void merge_into(std::size_t x, std::size_t v, Side side) {
    const std::vector<std::size_t> same(side == Side::In ? in_[v].begin() : out_[v].begin(),
                                        side == Side::In ? in_[v].end() : out_[v].end());
    for (std::size_t id : same) {
      worklist_.push_back(edges_[id].from);
      worklist_.push_back(edges_[id].to);
      remove_edge(id);
    }
    const std::vector<std::size_t> other(side == Side::In ? out_[v].begin() : in_[v].begin(),
                                         side == Side::In ? out_[v].end() : in_[v].end());
    for (std::size_t id : other) {
      const Edge e = edges_[id];
      remove_edge(id);
      if (side == Side::In) {
        add_edge(x, e.to, e.part);
        worklist_.push_back(e.to);
      } else {
        add_edge(e.from, x, e.part);
        worklist_.push_back(e.from);
      }
    }
    worklist_.push_back(x);
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

  std::size_t combine(SpKind kind, std::size_t a, std::size_t b) {
    if (a == kEmpty) return b;
    if (b == kEmpty) return a;
    parts_.push_back({kind, a, b});
    return parts_.size() - 1;
  }
  std::size_t parallel_of(std::size_t a, std::size_t b) { return combine(SpKind::Parallel, a, b); }
  std::size_t series_of(std::size_t a, std::size_t b) { return combine(SpKind::Series, a, b); }

  // The parts of the same kind as `part` that its binary nesting joins, left to right: the
  // children of one flattened node.
  void flattened_children(std::size_t part, std::vector<std::size_t>& children) const {
    const SpKind kind = parts_[part].kind;
    std::vector<std::size_t> stack{parts_[part].second, parts_[part].first};
    while (!stack.empty()) {
      const std::size_t p = stack.back();
      stack.pop_back();
      if (parts_[p].kind == kind) {
        stack.push_back(parts_[p].second);
        stack.push_back(parts_[p].first);
      } else {
        children.push_back(p);
      }
    }
  }

  // The decomposition tree rooted at `root`: leaves first (tree node v is task v, as every
  // caller's vertex numbering expects nothing else), then each flattened series or parallel
  // node after its children. Iterative: a chain of 10^6 tasks nests 10^6 deep.
  SpTree to_tree(std::size_t root) const {
    SpTree tree;
    const std::size_t n = graph_.node_count();
    for (NodeId v = 0; v < n; ++v) tree.leaf(graph_.node(v), v);
    std::vector<std::size_t> id(parts_.size(), kEmpty);
    for (NodeId v = 0; v < n; ++v) id[v] = v;
    struct Frame {
      std::size_t part;
      std::vector<std::size_t> children;
      std::size_t next = 0;
    };
    std::vector<Frame> stack;
    auto open = [&](std::size_t part) {
      Frame frame{part, {}, 0};
      flattened_children(part, frame.children);
      stack.push_back(std::move(frame));
    };
    if (parts_[root].kind != SpKind::Leaf) open(root);
    while (!stack.empty()) {
      Frame& top = stack.back();
      if (top.next < top.children.size()) {
        const std::size_t child = top.children[top.next++];
        if (id[child] == kEmpty) open(child);
        continue;
      }
      std::vector<std::size_t> children;
      children.reserve(top.children.size());
      for (std::size_t child : top.children) children.push_back(id[child]);
      id[top.part] = parts_[top.part].kind == SpKind::Series ? tree.series(std::move(children))
                                                             : tree.parallel(std::move(children));
      stack.pop_back();
    }
    tree.set_root(id[root]);
    return tree;
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

  // The tasks inside a part of the tree, in order (iteratively: parts nest deeply).
  void collect_leaves(std::size_t part, std::vector<NodeId>& leaves) const {
    if (part == kEmpty) return;
    std::vector<std::size_t> stack{part};
    while (!stack.empty()) {
      const Part& p = parts_[stack.back()];
      stack.pop_back();
      if (p.kind == SpKind::Leaf) {
        leaves.push_back(p.first);
      } else {
        stack.push_back(p.second);
        stack.push_back(p.first);
      }
    }
  }

  std::string block_name(const std::vector<NodeId>& leaves) const {
    if (leaves.size() == 1) return graph_.node(leaves.front()).label;
    std::string name = "{";
    for (std::size_t i = 0; i < leaves.size() && i < 3; ++i) {
      if (i > 0) name += ", ";
      name += graph_.node(leaves[i]).label;
    }
    if (leaves.size() > 3) name += ", ... (" + std::to_string(leaves.size()) + " tasks)";
    return name + "}";
  }

  // The residual as a graph of blocks: each remaining non-empty edge is a block of tasks that
  // did reduce; block A precedes block B when A ends where B starts, directly or through one
  // plain dependency. An arc between blocks joins the last task of A to the first of B.
  NonSeriesParallel describe_residual(const std::vector<std::size_t>& alive) const {
    std::vector<std::size_t> blocks;
    std::vector<std::vector<NodeId>> leaves;
    std::map<std::size_t, std::vector<std::size_t>> starting_at;
    for (std::size_t id : alive) {
      if (edges_[id].part == kEmpty) continue;
      blocks.push_back(id);
      leaves.emplace_back();
      collect_leaves(edges_[id].part, leaves.back());
      starting_at[edges_[id].from].push_back(blocks.size() - 1);
    }
    auto blocks_from = [&](std::size_t vertex) {
      const auto found = starting_at.find(vertex);
      return found == starting_at.end() ? std::vector<std::size_t>{} : found->second;
    };
    NonSeriesParallel residual;
    std::set<NodeId> nodes;
    std::set<std::pair<std::size_t, std::size_t>> precedes;
    for (std::size_t a = 0; a < blocks.size(); ++a) {
      nodes.insert(leaves[a].begin(), leaves[a].end());
      const std::size_t end = edges_[blocks[a]].to;
      for (std::size_t b : blocks_from(end)) precedes.emplace(a, b);
      for (std::size_t id : out_[end]) {
        if (edges_[id].part != kEmpty) continue;
        for (std::size_t b : blocks_from(edges_[id].to)) precedes.emplace(a, b);
      }
    }
    residual.nodes.assign(nodes.begin(), nodes.end());
    std::string text =
        "the graph is not series-parallel: after every series and parallel reduction these "
        "dependencies remain: ";
    std::size_t shown = 0;
    for (const auto& [a, b] : precedes) {
      residual.arcs.emplace_back(leaves[a].back(), leaves[b].front());
      if (shown < 12) {
        text += (shown > 0 ? ", " : "") + block_name(leaves[a]) + " -> " + block_name(leaves[b]);
      }
      ++shown;
    }
    if (shown > 12) text += " and " + std::to_string(shown - 12) + " more";
    if (budget_exhausted_) {
      text +=
          " (the search for implied arcs stopped at its work limit: the graph may still be "
          "series-parallel once its redundant arcs are removed)";
    }
    residual.description = std::move(text);
    return residual;
  }

  const TaskGraph& graph_;
  std::vector<Part> parts_;
  std::size_t vertex_count_ = 0;
  std::size_t source_ = 0;
  std::size_t sink_ = 0;
  std::vector<Edge> edges_;
  std::vector<std::set<std::size_t>> in_;
  std::vector<std::set<std::size_t>> out_;
  std::unordered_map<std::uint64_t, std::size_t> between_;
  std::vector<std::size_t> worklist_;
  std::vector<std::uint64_t> visited_;
  std::uint64_t stamp_ = 0;
  std::uint64_t search_budget_ = 0;
  bool budget_exhausted_ = false;
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
