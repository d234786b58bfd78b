// Graphviz DOT export of task graphs and series-parallel trees.
#pragma once

#include <string>

#include "graph/sp_tree.hpp"
#include "graph/task_graph.hpp"

namespace graph {

// One DOT node per task (label, kind by shape, runtime distribution), tasks of one processor
// in a cluster "processor N", one edge per arc.
std::string to_dot(const TaskGraph& graph, const std::string& title);

// The tree itself: leaves with their runtimes, inner nodes "series", "parallel",
// "series x n", "parallel x p", "branch" (edges labelled with probabilities).
std::string to_dot(const SpTree& tree, const std::string& title);

}  // namespace graph
