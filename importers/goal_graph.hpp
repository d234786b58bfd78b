// The second stage of the GOAL reader: the task graph of a parsed schedule. Sends are matched to
// receives as MPI matches them (the same source, destination and tag, in the order of their
// ranks' blocks), `requires` and `irequires` become arcs, and a cycle (operations that wait for
// each other: LogGOPSim would never finish them) is refused, named and located
// (docs/import.md, "The mapping").
#pragma once

#include "importers/goal_schedule.hpp"

#include <cstdint>
#include <limits>
#include <vector>

namespace importers::goal {

inline constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

// Nodes of the graph: node i < operations.size() is operation i; node operations.size() + k is
// the start of the k-th receive that an irequires names (a task of no time: what the dependent
// may start after, where a receive's own task ends only once its message is in).
struct Arc {
  std::uint64_t volume = 0;  // a message's bytes; 0 for a dependency
  std::uint32_t from = 0;
  std::uint32_t to = 0;
};

struct Graph {
  std::vector<std::uint32_t> start_of;  // per operation: the node of its start, or kNone
  std::vector<std::uint32_t> started;   // per start node (from operations.size()): its receive
  std::vector<Arc> arcs;                // in the order the program declares them: by their head
  std::size_t messages = 0;
};

struct Built {
  Graph graph;
  std::vector<pdl::Diagnostic> diagnostics;  // errors (at most pdl::kMaxErrors) and warnings
  std::vector<pdl::Diagnostic> notes;
};

Built build_graph(const ImportInput& input, const Schedule& schedule);

// Where the program declares a node: a receive's start just before the receive.
inline std::uint64_t declaration_key(const Graph& graph, std::uint32_t node, std::size_t operations) {
  if (node < operations) return 2 * std::uint64_t{node} + 1;
  return 2 * std::uint64_t{graph.started[node - operations]};
}

}  // namespace importers::goal
