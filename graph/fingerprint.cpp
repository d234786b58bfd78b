#include "graph/fingerprint.hpp"

#include <cstdint>

namespace graph {

void add_to(distributions::Fingerprint& fingerprint, const TaskNode& node) {
  fingerprint.add(static_cast<std::uint64_t>(node.kind));
  fingerprint.add(node.runtime);
  fingerprint.add(static_cast<std::uint64_t>(static_cast<std::int64_t>(node.processor)));
  fingerprint.add(static_cast<std::uint64_t>(node.step));
  fingerprint.add(static_cast<std::uint64_t>(node.pool_tasks));
  fingerprint.add(static_cast<std::uint64_t>(static_cast<std::int64_t>(node.pool_processors)));
  if (node.pool_master) {  // only then, so that every graph without a master keeps its fingerprint
    fingerprint.add(node.pool_master->service);
    fingerprint.add(node.pool_master->dispatch_seconds);
    fingerprint.add(node.pool_master->result_seconds);
  }
}

void add_to(distributions::Fingerprint& fingerprint, const TaskGraph& graph) {
  fingerprint.add(static_cast<std::uint64_t>(graph.node_count()));
  for (NodeId v = 0; v < graph.node_count(); ++v) {
    add_to(fingerprint, graph.node(v));
    const std::vector<NodeId> successors = graph.successors(v);
    fingerprint.add(static_cast<std::uint64_t>(successors.size()));
    for (NodeId w : successors) fingerprint.add(static_cast<std::uint64_t>(w));
  }
}

void add_to(distributions::Fingerprint& fingerprint, const SpTree& tree) {
  fingerprint.add(static_cast<std::uint64_t>(tree.nodes().size()));
  for (const SpNode& node : tree.nodes()) {
    fingerprint.add(static_cast<std::uint64_t>(node.kind));
    fingerprint.add(static_cast<std::uint64_t>(node.children.size()));
    for (std::size_t child : node.children) fingerprint.add(static_cast<std::uint64_t>(child));
    if (node.kind == SpKind::Leaf) {
      add_to(fingerprint, node.task);
      fingerprint.add(static_cast<std::uint64_t>(node.vertex));
    }
    fingerprint.add(static_cast<std::uint64_t>(node.count));
    fingerprint.add(static_cast<std::uint64_t>(node.probabilities.size()));
    for (double probability : node.probabilities) fingerprint.add(probability);
  }
  fingerprint.add(static_cast<std::uint64_t>(tree.nodes().empty() ? static_cast<std::size_t>(-1) : tree.root()));
}

}  // namespace graph
