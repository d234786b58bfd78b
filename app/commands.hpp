// The pdl-scale commands: one run function per mode of Command (command.hpp), and `run`, which
// visits the command to call it. Each writes its output to `out` (or -o FILE) and its
// diagnostics to `err`, and returns an exit status (options.hpp).
#pragma once

#include <ostream>

#include "app/command.hpp"

namespace app {

// --check: parses and checks each program and machine file (with the machine file, if given),
// prints the diagnostics to `err` and "FILE: ok" to `out` for each without error.
int run_check(const CheckCommand& command, std::ostream& out, std::ostream& err);

// --check of a runs file alone: its format, without the names of a program (docs/calibration.md).
int run_check_runs(const CheckRunsCommand& command, std::ostream& out, std::ostream& err);

// --dump: like --check, then binds the variables (defaults and --set) on the machine and
// prints the normalized model to `out`.
int run_dump(const DumpCommand& command, std::ostream& out, std::ostream& err);

// --graph P --model exact|approx: the scaled model on P processors as Graphviz DOT, on `out`
// or into -o FILE. The approximate model is drawn as its series-parallel tree (powers and
// maxima as labelled nodes), the exact model as its task graph with one cluster per
// processor (one digraph per scenario when the pattern has alternatives).
int run_graph(const GraphCommand& command, std::ostream& out, std::ostream& err);

// The analysis: loads and checks every program on every machine, binds the variables, runs the
// study (sweeps, loss analysis) and prints (or writes with -o) the report and charts. A
// progress bar goes to stderr when `terminal` and not --quiet.
int run_study(const StudyCommand& command, std::ostream& out, std::ostream& err, bool terminal);

// --isoefficiency and --isospeed: per p, the problem size the search finds, as their table.
int run_isoefficiency(const IsoefficiencyCommand& command, std::ostream& out, std::ostream& err, bool terminal);
int run_isospeed(const IsospeedCommand& command, std::ostream& out, std::ostream& err, bool terminal);

// --calibrate RUNS.csv --fit NAMES and/or --validate RUNS.csv (docs/calibration.md): the fit,
// the predictions over --p with their intervals, the validation; --write-fit and
// --validation-plot written after all of them succeeded, each whole or not at all, then the report.
int run_calibration(const CalibrationCommand& command, std::ostream& out, std::ostream& err, bool terminal);

// The command's mode run; the exit status. `terminal`: stderr is a terminal (the progress bar).
int run(const Command& command, std::ostream& out, std::ostream& err, bool terminal);

// The whole command line (argv[0] first) parsed with `defaults` (parse_command_line, cli.hpp)
// and run; a refusal printed on `err` (exit 2). The command's main() and the Python module
// (python/) both run commands through these two steps.
int run_command(int argc, char** argv, Options defaults, std::ostream& out, std::ostream& err, bool terminal);

}  // namespace app
