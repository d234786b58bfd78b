// Series-parallel recognition of a task graph, with its decomposition tree.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "graph/sp_tree.hpp"
#include "graph/task_graph.hpp"

namespace graph {

// Why a graph is not series-parallel: what is left when no series or parallel reduction
// applies any more. Each residual arc joins two task nodes (the end of one reduced part and
// the start of the next); these tasks and arcs are the offending subgraph, e.g. the
// "N" u1 -> v1, u1 -> v2, u2 -> v2 that no reduction can remove.
struct NonSeriesParallel {
  std::vector<NodeId> nodes;                    // task nodes of the offending subgraph
  std::vector<std::pair<NodeId, NodeId>> arcs;  // its dependencies (u finishes before v)
  std::string description;                      // one line, naming the nodes
};

struct SpDecomposition {
  std::optional<SpTree> tree;                 // set iff the graph is series-parallel
  std::optional<NonSeriesParallel> residual;  // set iff it is not
};

// Recognises whether the activity-on-node graph is series-parallel (its runtime is then the
// value of a series/parallel expression over the node runtimes) in time linear in its size
// (with hashing). Transitive arcs are harmless. Throws std::invalid_argument on a cycle and
// for an empty graph.
SpDecomposition decompose(const TaskGraph& graph);

}  // namespace graph
