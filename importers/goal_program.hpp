// The last stage of the GOAL reader: the PDL program of a checked schedule, one ARBITRARY work
// phase whose tasks are pinned to their ranks, with short generated names (docs/import.md,
// "The program"): c (calc), s (send), r (recv) or p (the start of a receive that an irequires
// names), then the rank, '_' and the operation's place in its rank's block, e.g. r3_12.
#pragma once

#include "importers/goal_graph.hpp"

#include <optional>
#include <string>

namespace importers::goal {

// The bytes of an operation's TASK line and of a dependency's ARC line, which the parser adds
// up as it reads, so that an input whose program would pass the PDL reader's limit is refused at
// the operation where it does.
std::size_t task_bytes(const Operation& operation);
std::size_t arc_bytes(const Operation& from, const Operation& to);

// The program; or, when it passes `max_program_bytes`, the error at the operation where it does.
struct Written {
  std::string program;
  std::optional<pdl::Diagnostic> refusal;
};

Written write_program(const ImportInput& input, const Schedule& schedule, const Graph& graph,
                      std::size_t max_program_bytes);

}  // namespace importers::goal
