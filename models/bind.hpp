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

// Why a variable could not be bound: typed, so that the caller words it in its own vocabulary
// (the command names its own option).
struct BindError {
  enum class Code {
    UnknownVariable,   // a value was given for a name the program does not declare
    NoValue,           // the variable has no default and no value was given
    BadDefault,        // the default cannot be evaluated; `detail` says why
    ClashWithMachine,  // the variable has the name of a constant of the machine `detail`
  };
  Code code = Code::NoValue;
  std::string variable;
  std::string detail;
  SourceLocation location;  // the variable's declaration (empty for UnknownVariable)

  // The error in the model's own terms, e.g. "variable 'n' has no default value".
  std::string message() const;
};

struct Binding {
  Environment environment;
  std::vector<BindError> errors;  // empty on success
  bool ok() const { return errors.empty(); }
};

// Builds the environment of `program` on `machine`: the machine's constants, "RTFactor" and
// its SIZEOF table, then the program's variables in declaration order, each from `values`
// when given there, else from its default evaluated in the variables before it. A default that
// mentions P, or a variable that does, is not evaluated here: it goes to
// environment.per_processor, evaluated for each processor count by models::with_processors
// when the model is scaled (weak scaling). Every error
// is reported, in this order: values for names the program does not declare, then per
// variable a clash with a machine constant, a missing value or a default that cannot be
// evaluated.
Binding bind(const Program& program, const Machine& machine, const std::map<std::string, double>& values);

// True when the problem grows with P (weak scaling, docs/scaling.md): a variable of P reaches a
// size expression (models::size_expressions). A variable of P that reaches only rates (a
// runtime that depends on the block a processor holds) leaves the problem the same at every p.
bool is_weak_scaling(const Program& program, const Environment& environment);

}  // namespace models
