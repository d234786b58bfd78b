// The normalized model as PDL text (pdl-scale --dump): every default explicit, variables
// bound, and the value of every expression that can be computed without P as a comment. The
// output is itself a valid PDL program (the machine is appended as comments).
#pragma once

#include "models/environment.hpp"
#include "models/machine.hpp"
#include "models/program.hpp"

#include <map>
#include <string>

namespace models {

// `environment` comes from models::bind; `sets` says which variables were given by --set.
std::string dump(const Program& program, const Machine& machine, const Environment& environment,
                 const std::map<std::string, double>& sets);
// A machine as machine-file text.
std::string dump(const Machine& machine);

}  // namespace models
