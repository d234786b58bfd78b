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

// The analysis: loads and checks the program and machine, binds the variables, runs the sweep
// over the processor counts and prints (or writes with -o) the report. A progress bar goes to
// stderr when `terminal` and not --quiet. Returns kExitSuccess or kExitInput (bad input, with
// compiler-style diagnostics on `err`).
int run_analysis(const Options& options, std::ostream& out, std::ostream& err, bool terminal);

// --graph P --model exact|approx: the scaled model on P processors as Graphviz DOT, on `out`
// or into -o FILE. The approximate model is drawn as its series-parallel tree (powers and
// maxima as labelled nodes), the exact model as its task graph with one cluster per
// processor (one digraph per scenario when the pattern has alternatives).
int run_graph(const Options& options, std::ostream& out, std::ostream& err);

}  // namespace app
