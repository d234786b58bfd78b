// The pdl-scale commands. Each returns an exit status (options.hpp) and writes its output to
// `out` (or -o FILE) and its diagnostics to `err`.
#pragma once

#include <ostream>

#include "app/options.hpp"

namespace app {

// --check: parses and checks the program (and the machine file, if given), prints the
// diagnostics to `err` and "FILE: ok" to `out` when there is no error. Returns kExitSuccess
// or kExitInput.
int run_check(const Options& options, std::ostream& out, std::ostream& err);

// --dump: like --check, then binds the variables (defaults and --set) on the machine and
// prints the normalized model to `out`.
int run_dump(const Options& options, std::ostream& out, std::ostream& err);

// The analysis: loads and checks the program on every machine, binds the variables, runs the
// study (sweep, loss analysis or isoefficiency) and prints (or writes with -o) the report. A
// progress bar goes to stderr when `terminal` and not --quiet. Returns kExitSuccess or
// kExitInput (bad input, with compiler-style diagnostics on `err`).
int run_analysis(const Options& options, std::ostream& out, std::ostream& err, bool terminal);

// --graph P --model exact|approx: the scaled model on P processors as Graphviz DOT, on `out`
// or into -o FILE. The approximate model is drawn as its series-parallel tree (powers and
// maxima as labelled nodes), the exact model as its task graph with one cluster per
// processor (one digraph per scenario when the pattern has alternatives).
int run_graph(const Options& options, std::ostream& out, std::ostream& err);

// True for a runs file (FILE.csv): --check reads it as one.
bool is_runs_file(const std::string& path);

// --check of a runs file alone: its format, without the names of a program (docs/calibration.md).
int run_check_runs(const Options& options, std::ostream& out, std::ostream& err);

// --calibrate RUNS.csv --fit NAMES and/or --validate RUNS.csv (docs/calibration.md): the fit,
// the predictions over --p with their intervals, the validation; --write-fit and
// --validation-plot written after all of them succeeded, each whole or not at all, then the report.
int run_calibration(const Options& options, std::ostream& out, std::ostream& err);

// The whole command line (pdl-scale's arguments, argv[0] first) on `options`, which may come
// with its read_file, communicator and output_rank set: parses it into `options` and runs the
// command it names, printing to `out` and `err`; the exit status. The command's main() and
// the Python module (python/) both run commands through it. `terminal`: stderr is a terminal
// (the progress bar).
int run_command(int argc, char** argv, Options options, std::ostream& out, std::ostream& err, bool terminal);

}  // namespace app
