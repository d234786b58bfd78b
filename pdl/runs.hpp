// Runs files, the measured runs that calibration fits and validation scores (docs/calibration.md,
// "Runs files"):
//
//   # unit: s              optional, before the header: the unit of every time (ns, us, ms, s)
//   p,n,time,repetition    the header: p and time required, repetition optional, the other
//   2,1000,0.52,1          columns variables of the program or constants of the machine
//
// `#` starts a comment; blank lines are ignored; fields are separated by commas, spaces around a
// field are ignored. Every problem is a diagnostic at its line and column.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "models/machine.hpp"
#include "models/program.hpp"
#include "models/runs.hpp"
#include "pdl/diagnostic.hpp"

namespace pdl {

struct RunsResult {
  std::optional<models::Runs> runs;  // set exactly when there is no error
  std::vector<Diagnostic> diagnostics;
};

// The program and machine whose names a runs file's variable columns must be (either may be
// null: no check of that side; both null: no check of the names).
struct RunsNames {
  const models::Program* program = nullptr;
  const models::Machine* machine = nullptr;
};

RunsResult parse_runs(const std::string& text, const std::string& filename, RunsNames names = {});

}  // namespace pdl
