// `pdl-scale import FORMAT FILE [-o PROGRAM]`: the command line of the import parsed into an
// ImportCommand, and the import run (docs/import.md). Its options are its own: the study's
// options mean nothing to it.
#pragma once

#include <cstdint>
#include <ostream>

#include "analysis/failure.hpp"
#include "app/command.hpp"

namespace app {

// `argv[0]` is "import"; `memory_budget_bytes` is the budget without --memory.
analysis::Outcome<Command, UsageError> parse_import_command(int argc, char** argv, std::uint64_t memory_budget_bytes);

// Reads the input (as much of it as the memory budget holds), imports it, prints the
// diagnostics and notes on `err`, and writes the program (to -o or `out`) and the files it
// reads beside it, after checking that every one can be written and none replaces the input.
int run_import(const ImportCommand& command, std::ostream& out, std::ostream& err);

}  // namespace app
