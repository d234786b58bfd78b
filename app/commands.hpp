// The pdl-scale commands that work on one PDL file.
#pragma once

#include "app/options.hpp"

#include <ostream>

namespace app {

// True for a machine file (FILE.machine): --check and --dump then read it as one.
bool is_machine_file(const std::string& path);

// --check: parses and checks the program (and the machine file, if given), prints the
// diagnostics to `err` and "FILE: ok" to `out` when there is no error. Returns kExitSuccess
// or kExitInput.
int run_check(const Options& options, std::ostream& out, std::ostream& err);

// --dump: like --check, then binds the variables (defaults and --set) on the machine and
// prints the normalized model to `out`.
int run_dump(const Options& options, std::ostream& out, std::ostream& err);

}  // namespace app
