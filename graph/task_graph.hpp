// The stochastic task graph: an activity-on-node DAG whose nodes carry runtime distributions.
//
// Nodes are tasks of the program and the overhead the machine adds (communication, barrier,
// contention). An arc u -> v means v starts only after u has finished. The runtimes of the
// nodes are independent random variables, so the program's runtime is the longest path.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "distributions/distribution.hpp"

namespace graph {

// DynamicPool: a set of independent tasks taken from a shared queue by idle processors
// (DYNAMIC scheduling). It is not a static graph: its runtime is the makespan of greedy list
// scheduling of `pool_tasks` tasks of distribution `runtime` on `pool_processors` processors,
// which Monte Carlo simulates (solvers/monte_carlo.hpp).
enum class NodeKind { Task, Communication, Barrier, Contention, Join, DynamicPool };

std::string_view to_string(NodeKind kind);

// A DynamicPool's master (docs/semantics.md I6): its pool's processors are workers that each
// ask it for the next task; it serves the requests one at a time, first come first served,
// each for `service` (its time per task, with the messages' overheads on its side), and a
// worker's task starts `dispatch_seconds` after its service ends; the worker's next request
// (its result) reaches the master `result_seconds` after the task. The pool ends when the last
// result arrives.
struct PoolMaster {
  distributions::Distribution service;
  double dispatch_seconds = 0.0;
  double result_seconds = 0.0;
};

struct TaskNode {
  std::string label;
  NodeKind kind = NodeKind::Task;
  distributions::Distribution runtime;  // the point mass at 0 unless set
  int processor = -1;                   // -1: not bound to one processor
  // The iteration / wavefront / level index of the node in the exact scaled model (-1: none).
  // The builders' arcs go from a step to the same or a later step, so a barrier may be inserted
  // between any two consecutive steps (Kleinöder's upper bound); a port's order (M12, first come
  // first served) may not, and the bounds then partition otherwise (steps_go_forward).
  std::int64_t step = -1;
  // DynamicPool only: the number of tasks and of processors sharing the queue.
  std::int64_t pool_tasks = 0;
  int pool_processors = 0;
  std::shared_ptr<const PoolMaster> pool_master = nullptr;  // none: a shared queue without a master
  // Communication only: a message in transit (the machine's latency), which delays its
  // receiver but keeps no processor busy; the breakdown counts the wait for it as idle.
  bool in_flight = false;
};

using NodeId = std::size_t;

// The Boost adjacency list that holds a TaskGraph (graph/adjacency_list.hpp): only the files
// that run Boost's algorithms include it, so that the hundred others do not compile the Boost
// Graph Library's 1,300 headers (a third of the build's time).
struct AdjacencyList;

class TaskGraph {
 public:
  // Boost 1.74's adjacency_list declares a copy but no move, so moving one copies every node:
  // the graph lives behind a pointer, which moves in O(1) (a 2e5-task exact model was copied
  // several times on its way from the builder to the solvers). A moved-from graph is empty.
  TaskGraph();
  TaskGraph(const TaskGraph& other);
  TaskGraph(TaskGraph&& other) noexcept;
  TaskGraph& operator=(const TaskGraph& other);
  TaskGraph& operator=(TaskGraph&& other) noexcept;
  ~TaskGraph();

  NodeId add_node(TaskNode node);
  // Adds u -> v once; a repeated arc is ignored. Throws std::out_of_range for unknown ids and
  // std::invalid_argument for a self-loop.
  void add_arc(NodeId from, NodeId to);
  // Removes u -> v if present (the scaler splices a node into a processor's order).
  void remove_arc(NodeId from, NodeId to);

  std::size_t node_count() const;
  std::size_t arc_count() const;
  const TaskNode& node(NodeId id) const;
  TaskNode& node(NodeId id);
  std::vector<NodeId> successors(NodeId id) const;
  std::vector<NodeId> predecessors(NodeId id) const;
  std::size_t in_degree(NodeId id) const;
  std::size_t out_degree(NodeId id) const;

  // The Boost graph, for Boost's algorithms (its type is complete in graph/adjacency_list.hpp).
  const AdjacencyList& boost_graph() const;

 private:
  void check_id(NodeId id) const;
  // Null until the first node (and after a move).
  const AdjacencyList& view() const;
  AdjacencyList& edit();
  std::unique_ptr<AdjacencyList> graph_;
};

// The nodes in an order where every arc goes forward. Throws std::invalid_argument naming
// the nodes of one cycle when the graph has one.
std::vector<NodeId> topological_order(const TaskGraph& graph);

}  // namespace graph
