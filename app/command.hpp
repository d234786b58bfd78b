// One typed command (docs/cli.md): the command line is parsed once into Options (what was
// written), then made into exactly one mode of Command, each mode with its own options, checked
// together before anything is read, and run by one visit (commands.hpp). What a mode reads and
// writes is declared by it (inputs_of, outputs_of), so that "never replace an input" and "two
// outputs on one file" are checked once for every mode (destinations.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "analysis/calibration.hpp"
#include "analysis/failure.hpp"
#include "analysis/isoefficiency.hpp"
#include "analysis/isospeed.hpp"
#include "analysis/request.hpp"
#include "analysis/study.hpp"
#include "app/options.hpp"
#include "app/output_file.hpp"
#include "app/usage_error.hpp"
#include "pdl/file_reader.hpp"
#include "report/report.hpp"
#include "report/time_unit.hpp"

namespace app {

// What every mode that reads a program reads.
struct ProgramInputs {
  std::vector<std::string> programs;       // the FILE arguments in the order given; at least one
  std::vector<std::string> machine_files;  // --machine, repeatable; the built-in ideal machine when none
  std::vector<std::string> sets;           // --set NAME=VALUE, then the lines of every --set-file
  std::vector<std::string> set_files;      // --set-file: inputs of the run, never replaced
  pdl::FileReader read_file = pdl::read_file;

  const std::string& program() const { return programs.front(); }
};

// Where and how a mode's report goes.
struct ReportDestination {
  report::Format format = report::Format::Table;
  std::optional<std::string> output;  // -o FILE: written whole or not at all; stdout when empty
  report::TimeUnit time_unit;
  std::vector<std::string> command;  // argv as given, echoed by JSON
  // False on every rank of an MPI job but rank 0, which alone writes (docs/scale-out.md).
  bool output_rank = true;
  // The ranks of the job, whose checks of the destinations are rank 0's; null for a process alone.
  const distributed::Communicator* ranks = nullptr;
};

// --help, --version, or no FILE at all: a text for standard output, exit 0.
struct TextCommand {
  std::string text;
};

// `pdl-scale fit ...`: the fitting tool (tools/fit_command.hpp) on its own arguments.
struct FitCommand {
  std::vector<std::string> arguments;  // "pdl-scale fit" first
};

// `pdl-scale import FORMAT FILE`: a foreign description of a program (a GOAL schedule, a
// WfCommons workflow instance) made into a PDL program and the files it reads (docs/import.md).
struct ImportCommand {
  std::string format;                     // a name of importers::formats()
  std::string input;                      // FILE
  std::optional<std::string> output;      // -o PROGRAM: the program, its data files beside it; stdout when absent
  bool keep_auxiliary = true;             // --drop-auxiliary sets false
  std::uint64_t memory_budget_bytes = 0;  // --memory, else a quarter of the machine's memory
};

// --check of programs and machine files, each with its diagnostics.
struct CheckCommand {
  ProgramInputs inputs;
};

// --check of a runs file alone (docs/calibration.md).
struct CheckRunsCommand {
  std::string runs_file;
  pdl::FileReader read_file = pdl::read_file;
};

// --dump: the normalized model of one program or machine file.
struct DumpCommand {
  ProgramInputs inputs;
};

// --graph P --model exact|approx: one scaled model as Graphviz DOT.
struct GraphCommand {
  ProgramInputs inputs;
  ReportDestination report;
  int processors = 1;
  GraphModel model = GraphModel::Approximate;
};

// The files of the speedup study's charts, and their axes.
struct ChartFiles {
  std::optional<std::string> speedup;      // --plot
  std::optional<std::string> tail;         // --tail-plot
  std::optional<std::string> breakdown;    // --breakdown-plot
  std::optional<std::string> sensitivity;  // --sensitivity-plot
  bool log_axes = false;                   // --log-axes
};

// The wall-time guard of a study (analysis/cost.hpp) and its announcement.
struct TimeBudget {
  double limit_seconds = kDefaultTimeLimitSeconds;  // --time-limit
  bool allow_long = false;                          // --allow-long
  bool quiet = false;                               // --quiet: no progress bar nor estimate
  bool progress = false;                            // --progress: the estimate, and lines off a terminal
};

// The analysis: every program on every machine and every swept combination over the processor
// counts (optionally per phase, --loss), with the prediction, speedups and charts.
struct StudyCommand {
  ProgramInputs inputs;
  ReportDestination report;
  analysis::Request request;  // processors, methods, stopping rule, quantiles, thresholds: checked
  std::vector<analysis::SweepVariable> sweeps;
  bool loss = false;
  bool scaling_laws = false;
  ChartFiles charts{};
  TimeBudget budget{};
  bool catch_interrupts = false;                                      // Options::catch_interrupts
  std::function<bool(double done, std::size_t total)> on_progress{};  // Options::on_progress
  std::vector<std::string> notes{};  // said on stderr before the run ("--seed has no effect ...")
};

// --isoefficiency E --iso-variable NAME: per p, the size that holds efficiency E.
struct IsoefficiencyCommand {
  ProgramInputs inputs;
  ReportDestination report;
  analysis::Request request;
  analysis::IsoefficiencyOptions search{};
  bool range_given = false;  // --iso-range: only for a machine constant
  TimeBudget budget{};       // the search's evaluations estimated before any (analysis/solves_cost.hpp)
  std::vector<std::string> notes{};
};

// --isospeed base|A --iso-variable NAME: per p, the size that holds the speed per processor.
struct IsospeedCommand {
  ProgramInputs inputs;
  ReportDestination report;
  analysis::Request request;
  analysis::IsospeedOptions search{};
  TimeBudget budget{};  // as IsoefficiencyCommand's
  std::vector<std::string> notes{};
};

// --calibrate RUNS.csv --fit NAMES and/or --validate RUNS.csv (docs/calibration.md).
struct CalibrationCommand {
  ProgramInputs inputs;
  ReportDestination report;
  analysis::Request request;                                     // approx and bounds only
  std::optional<std::string> calibrate{};                        // the runs to fit
  std::vector<std::string> fit{};                                // the names fitted
  std::map<std::string, analysis::ParameterRange> fit_ranges{};  // --fit name=LOW..HIGH
  std::optional<std::string> write_fit{};
  std::optional<std::string> validate{};  // the runs to score
  std::optional<std::string> validation_plot{};
  bool predict = false;          // --pmax or --p: predictions with intervals at those p
  bool bound_runs = false;       // --method with bounds: each validated run's RatioLB and RatioUB
  double interval_level = 0.95;  // in (0, 1)
  // --time-unit when given; else the table picks one and CSV and JSON print µs.
  std::optional<report::TimeUnit> time_unit{};
  int draws = 0;        // parameter draws behind each interval
  TimeBudget budget{};  // the solves estimated before any (analysis/solves_cost.hpp)
  std::vector<std::string> notes{};
};

using Command = std::variant<TextCommand, FitCommand, ImportCommand, CheckCommand, CheckRunsCommand, DumpCommand,
                             GraphCommand, StudyCommand, IsoefficiencyCommand, IsospeedCommand, CalibrationCommand>;

// The one mode the options ask for, with every check that needs no file read (a study's
// sweeps against --set, an output given as '', an option of a method the run does not use, ...);
// the first problem as a UsageError otherwise.
analysis::Outcome<Command, UsageError> command_from(const Options& options);

// The files a mode writes, in the order of their options; the modes not listed write only their
// standard output.
std::vector<OutputFile> outputs_of(const GraphCommand& command);
std::vector<OutputFile> outputs_of(const StudyCommand& command);
std::vector<OutputFile> outputs_of(const IsoefficiencyCommand& command);
std::vector<OutputFile> outputs_of(const IsospeedCommand& command);
std::vector<OutputFile> outputs_of(const CalibrationCommand& command);
std::vector<OutputFile> outputs_of(const Command& command);

// A file a run reads, and how a message names it.
struct RunInput {
  std::string path;
  std::string role;  // "the program", "the runs of --calibrate", "a --set-file"
};

// The files a mode reads besides the first program and what loading it reads (its machine files
// and measured data: destinations.hpp, run_inputs): the further programs, every --set-file and
// the runs files.
std::vector<RunInput> inputs_of(const ProgramInputs& inputs);
std::vector<RunInput> inputs_of(const CalibrationCommand& command);
std::vector<RunInput> inputs_of(const Command& command);

}  // namespace app
