// The first stage of the GOAL reader: the text into a Schedule, as LogGOPSim's txt2bin.re reads
// it (docs/import.md, "What the GOAL reader reads"), with every error located: a statement it
// cannot read, a number that is negative, not whole or too large, a rank outside num_ranks, a
// label given twice, a dependency naming a label its rank does not have, a truncated file; and
// the bounds of ImportLimits, refused at the operation that crosses one.
#pragma once

#include "importers/goal_schedule.hpp"

#include <vector>

namespace importers::goal {

struct Parsed {
  Schedule schedule;
  std::vector<pdl::Diagnostic> diagnostics;  // errors (at most pdl::kMaxErrors) and warnings
  std::vector<pdl::Diagnostic> notes;        // what the reader decided (a cpu or nic it ignores)
};

Parsed parse_schedule(const ImportInput& input, const ImportLimits& limits, Holdings& holdings);

}  // namespace importers::goal
