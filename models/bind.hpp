// Binding a program's variables for one analysis: the step between a checked model and the
// scalers, which then add P (and L, T for machine expressions) to the environment.
#pragma once

#include "models/environment.hpp"
#include "models/machine.hpp"
#include "models/program.hpp"

#include <map>
#include <string>
#include <vector>

namespace models {

struct Binding {
  Environment environment;
  std::vector<std::string> errors;  // empty on success
  bool ok() const { return errors.empty(); }
};

// Builds the environment of `program` on `machine`: the machine's constants, "RTFactor" and
// its SIZEOF table, then the program's variables in declaration order, each from `sets`
// (--set name=value) when given there, else from its default evaluated in the variables
// before it. Errors name: a --set of a name the program does not declare, a variable with no
// default and no --set, a default that cannot be evaluated, a clash between a program
// variable and a machine constant.
Binding bind(const Program& program, const Machine& machine,
             const std::map<std::string, double>& sets);

}  // namespace models
