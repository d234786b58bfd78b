// Structural fingerprints of the models the solvers take (distributions/fingerprint.hpp): every
// field a solver reads, in order, and none it does not (labels are left out).
#pragma once

#include "distributions/fingerprint.hpp"
#include "graph/sp_tree.hpp"
#include "graph/task_graph.hpp"

namespace graph {

void add_to(distributions::Fingerprint& fingerprint, const TaskNode& node);
// Nodes in index order with their arcs in adjacency order (the order the solvers visit them).
void add_to(distributions::Fingerprint& fingerprint, const TaskGraph& graph);
// Nodes bottom-up with their children, counts, probabilities and leaves, then the root.
void add_to(distributions::Fingerprint& fingerprint, const SpTree& tree);

}  // namespace graph
