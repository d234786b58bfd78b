// Machine constants given a value from outside the machine file (--set ts=10, --sweep tw=...,
// an isoefficiency search over a constant): the machine as if the file had declared that value.
#pragma once

#include "models/machine.hpp"

#include <map>
#include <optional>
#include <string>

namespace models {

// True when `name` is a constant of the machine (VARIABLE name = ...; in its file).
bool declares_constant(const Machine& machine, const std::string& name);

// Where the machine file declares the constant `name` (empty when it is not declared there).
SourceLocation constant_location(const Machine& machine, const std::string& name);

struct MachineWithConstants {
  std::optional<Machine> machine;  // empty on error
  std::string error;               // why not, e.g. "RTFACTOR must be > 0, got -2"
};

// `machine` with each constant named in `values` set to its value instead of its definition
// (and each constant a previous call gave a value keeping it, unless `values` gives another);
// every constant declared after one of them, RTFACTOR and SIZEOF are evaluated again from
// their definitions (a machine built in code has none: its other figures stay). An error when a
// name is not a constant of the machine, a value is not finite, a re-evaluated definition
// cannot be evaluated, or RTFACTOR or a SIZEOF leaves the range the machine file is held to
// (docs/machine.md). The cost expressions are not evaluated here: they read the constants when
// the program is bound and are held to their range where they are incurred.
MachineWithConstants with_constants(const Machine& machine, const std::map<std::string, double>& values);

}  // namespace models
