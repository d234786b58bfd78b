// The normalized model as PDL text: every default explicit, variables
// bound, and the value of every expression that can be computed without P as a comment. The
// output is itself a valid PDL program (the machine is appended as comments).
#pragma once

#include "models/environment.hpp"
#include "models/machine.hpp"
#include "models/program.hpp"

#include <map>
#include <string>

namespace models {

// How the caller names itself and the values it gave, for the dump's comments.
struct DumpNotes {
  std::string produced_by;         // the header's note: the command that asked for it; empty: none
  std::string given_by = "given";  // the comment of a variable whose value is in `given`
};

// `environment` comes from models::bind; `given` says which variables were given a value
// (rather than taking their default).
std::string dump(const Program& program, const Machine& machine, const Environment& environment,
                 const std::map<std::string, double>& given, const DumpNotes& notes = {});
// A machine as machine-file text.
std::string dump(const Machine& machine);

}  // namespace models
