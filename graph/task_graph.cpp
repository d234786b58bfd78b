#include "graph/task_graph.hpp"

#include "graph/adjacency_list.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace graph {

std::string_view to_string(NodeKind kind) {
  switch (kind) {
    case NodeKind::Task: return "task";
    case NodeKind::Communication: return "communication";
    case NodeKind::Barrier: return "barrier";
    case NodeKind::Contention: return "contention";
    case NodeKind::Join: return "join";
    case NodeKind::DynamicPool: return "dynamic pool";
  }
  return "unknown";
}

TaskGraph::TaskGraph() = default;
TaskGraph::TaskGraph(const TaskGraph& other)
    : graph_(other.graph_ ? std::make_unique<AdjacencyList>(*other.graph_) : nullptr) {}
TaskGraph::TaskGraph(TaskGraph&& other) noexcept = default;
TaskGraph& TaskGraph::operator=(const TaskGraph& other) {
  if (this != &other) graph_ = other.graph_ ? std::make_unique<AdjacencyList>(*other.graph_) : nullptr;
  return *this;
}
TaskGraph& TaskGraph::operator=(TaskGraph&& other) noexcept = default;
TaskGraph::~TaskGraph() = default;

std::size_t TaskGraph::node_count() const { return boost::num_vertices(view()); }
std::size_t TaskGraph::arc_count() const { return boost::num_edges(view()); }
std::size_t TaskGraph::in_degree(NodeId id) const { return boost::in_degree(id, view()); }
std::size_t TaskGraph::out_degree(NodeId id) const { return boost::out_degree(id, view()); }
const AdjacencyList& TaskGraph::boost_graph() const { return view(); }

const AdjacencyList& TaskGraph::view() const {
  static const AdjacencyList empty;
  return graph_ ? *graph_ : empty;
}

AdjacencyList& TaskGraph::edit() {
  if (!graph_) graph_ = std::make_unique<AdjacencyList>();
  return *graph_;
}

NodeId TaskGraph::add_node(TaskNode node) { return boost::add_vertex(std::move(node), edit()); }

void TaskGraph::check_id(NodeId id) const {
  if (id >= node_count()) {
    throw std::out_of_range("task graph: no node " + std::to_string(id) + " (the graph has " +
                            std::to_string(node_count()) + " nodes)");
  }
}

void TaskGraph::add_arc(NodeId from, NodeId to) {
  check_id(from);
  check_id(to);
  if (from == to) {
    throw std::invalid_argument("task graph: self-loop on node '" + node(from).label + "'");
  }
  if (!boost::edge(from, to, view()).second) boost::add_edge(from, to, edit());
}

void TaskGraph::remove_arc(NodeId from, NodeId to) {
  check_id(from);
  check_id(to);
  boost::remove_edge(from, to, edit());
}

const TaskNode& TaskGraph::node(NodeId id) const {
  check_id(id);
  return view()[id];
}

TaskNode& TaskGraph::node(NodeId id) {
  check_id(id);
  return edit()[id];
}

std::vector<NodeId> TaskGraph::successors(NodeId id) const {
  check_id(id);
  std::vector<NodeId> result;
  for (auto [it, end] = boost::adjacent_vertices(id, view()); it != end; ++it) result.push_back(*it);
  return result;
}

std::vector<NodeId> TaskGraph::predecessors(NodeId id) const {
  check_id(id);
  std::vector<NodeId> result;
  for (auto [it, end] = boost::in_edges(id, view()); it != end; ++it) {
    result.push_back(boost::source(*it, view()));
  }
  return result;
}

std::vector<NodeId> topological_order(const TaskGraph& graph) {
  // Kahn's algorithm: it also finds the nodes left on cycles when the graph has one.
  const std::size_t n = graph.node_count();
  std::vector<std::size_t> waiting(n);
  std::vector<NodeId> order;
  order.reserve(n);
  for (NodeId v = 0; v < n; ++v) {
    waiting[v] = graph.in_degree(v);
    if (waiting[v] == 0) order.push_back(v);
  }
  const auto& g = graph.boost_graph();
  for (std::size_t head = 0; head < order.size(); ++head) {
    for (auto [it, end] = boost::adjacent_vertices(order[head], g); it != end; ++it) {
      if (--waiting[*it] == 0) order.push_back(*it);
    }
  }
  if (order.size() == n) return order;

  // Walk backwards through unfinished predecessors until a node repeats: that is a cycle.
  NodeId v = 0;
  while (waiting[v] == 0) ++v;
  std::vector<NodeId> path;
  std::vector<std::size_t> seen_at(n, n);
  while (seen_at[v] == n) {
    seen_at[v] = path.size();
    path.push_back(v);
    for (NodeId u : graph.predecessors(v)) {
      if (waiting[u] != 0) {
        v = u;
        break;
      }
    }
  }
  std::vector<NodeId> cycle(path.begin() + static_cast<std::ptrdiff_t>(seen_at[v]), path.end());
  std::reverse(cycle.begin(), cycle.end());
  std::string names;
  for (NodeId u : cycle) names += graph.node(u).label + " -> ";
  names += graph.node(cycle.front()).label;
  throw std::invalid_argument("task graph has a cycle: " + names);
}

}  // namespace graph
