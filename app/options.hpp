// What the command line says, as written: CLI11 binds every option straight into its field here
// (cli.cpp; or a test fills them), an option whose presence matters as a std::optional (given
// or not: no separate record of the options given), and command_from (command.hpp) makes them
// into one typed mode, checking the options against each other once. The analysis's own knobs
// live in `request`, whose defaults are the analysis library's: none is written here a second
// time.
#pragma once

#include <cstdint>
#include <map>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "analysis/calibration.hpp"
#include "analysis/isoefficiency.hpp"
#include "analysis/prediction_interval.hpp"
#include "analysis/request.hpp"
#include "analysis/study.hpp"
#include "pdl/file_reader.hpp"
#include "report/report.hpp"
#include "report/time_unit.hpp"
#include "app/usage_error.hpp"

namespace app {

// Exit statuses (docs/cli.md, "Exit status").
inline constexpr int kExitSuccess = 0;
inline constexpr int kExitInternal = 1;  // a bug: an exception escaped
inline constexpr int kExitInput = 2;     // bad usage or bad input: diagnostics say why

// Which scaled model --graph draws.
enum class GraphModel { Approximate, Exact };

// A run estimated to take longer than this is refused unless --allow-long (--time-limit).
inline constexpr double kDefaultTimeLimitSeconds = 600.0;
// A run estimated to take longer than this says so on stderr first, when stderr is a terminal.
inline constexpr double kAnnounceEstimateSeconds = 10.0;

struct Options {
  std::string file;  // the PDL program (the first, when several are given)
  // The further programs of `pdl-scale a.pdl b.pdl`: the analysis puts every program side by
  // side (docs/cli.md, "Programs side by side"); --check, --dump and --graph refuse them.
  std::vector<std::string> other_files;
  // --machine FILE, repeatable: the analysis compares the machines side by side; --check,
  // --dump and --graph take at most one. The built-in ideal machine when none is given.
  std::vector<std::string> machine_files;
  std::vector<std::string> sets;       // --set name=value, repeatable
  std::vector<std::string> set_files;  // --set-file FILE, repeatable: read into `sets`, inputs of the run
  bool check = false;                  // --check
  bool dump = false;                   // --dump

  // The analysis (neither --check nor --dump): the processor counts are 1..pmax, or the list
  // `processors` ("1,2,4,8"), or the request's default when neither is given.
  std::optional<int> pmax;                        // --pmax N
  std::string processors;                         // --p LIST
  std::optional<std::string> methods;             // --method LIST (default: the request's)
  report::Format format = report::Format::Table;  // --format table|csv|json|jsonl
  std::optional<std::string> output;              // -o FILE: written whole or not at all
  bool quiet = false;                             // --quiet: no progress bar (nor the time estimate)
  // --progress: the time estimate always, and progress lines every few seconds off a terminal.
  bool progress = false;
  std::optional<report::TimeUnit> time_unit;  // --time-unit ns|us|ms|s: the reports' times (default us)
  std::vector<std::string> command;           // argv as given, echoed by CSV and JSON
  // The analysis's estimated wall time (analysis/cost.hpp) beyond which the command refuses to
  // start (exit 2) unless --allow-long: --time-limit DURATION.
  double time_limit_seconds = kDefaultTimeLimitSeconds;
  bool allow_long = false;  // --allow-long
  // The options of one method (solvers::SolverInfo::own_options), refused when the run does not
  // use the method (method_option_notes), so kept apart from the request until it is made.
  std::optional<std::int64_t> samples;     // --samples N: exactly N Monte Carlo samples
  std::optional<double> precision;         // --precision R
  std::optional<std::int64_t> max_states;  // --max-states N
  std::optional<std::size_t> grid_points;  // --grid-points N
  std::optional<std::uint64_t> seed;       // --seed S (its note when no figure is random)
  // Every other analysis option: --threads, --max-exact-tasks, --memory, --prediction-budget.
  analysis::Request request;
  // False on every rank of an MPI job but rank 0 (docs/scale-out.md): such a rank writes no
  // file (-o, --plot, --write-fit, ...); what it prints main() sends to /dev/null.
  bool output_rank = true;
  // Ctrl-C and SIGTERM stop a study and keep its rows (app/interrupt.hpp): main() sets it, the
  // Python module, which leaves signals to Python, does not.
  bool catch_interrupts = false;
  // Told a study's progress as its bar is (the models done, fractional, of the total; at most
  // every 100 ms and after each model), from the thread that solves; false stops the study as
  // Ctrl-C does: its rows kept, marked as interrupted, exit status 130. The Python module's
  // progress= callback (docs/python.md); empty elsewhere.
  std::function<bool(double done, std::size_t total)> on_progress;
  // How every input file is read (the programs, machines, runs, --set-file and measured data):
  // from disk, or by rank 0 of a job for every rank (app/shared_input.hpp).
  pdl::FileReader read_file = pdl::read_file;

  // Studies (docs/cli.md): --sweep NAME=LIST, repeatable: every combination of the values,
  // each analysed over the processor counts.
  std::vector<std::string> sweeps;
  bool loss = false;  // --loss: per phase, the others made free (paper section 5)
  // --isoefficiency E --iso-variable NAME [--iso-max N]: per p, the size that holds efficiency
  // E; replaces the speedup table.
  std::optional<double> isoefficiency;
  std::string iso_variable;
  double iso_max = analysis::IsoefficiencyOptions{}.max_size;
  // --iso-range LO..HI: the values of a machine constant --isoefficiency searches (default
  // v/1000..1000v around its value v in the machine file); empty when not given.
  std::string iso_range;
  // --isospeed base|A --iso-variable NAME (docs/scaling.md): per p, the size and work that hold
  // the average speed per processor; "base" holds the smallest p's at the bound size, a number
  // holds that fraction of one processor's speed. Replaces the speedup table.
  std::optional<std::string> isospeed;
  bool scaling_laws = false;        // --scaling-laws: Karp-Flatt, Amdahl, Gustafson per p
  std::optional<std::string> plot;  // --plot FILE.svg: the speedup and efficiency chart
  // --quantiles LIST: percent levels in (0, 100), e.g. "50,95,99"; when absent, a JSON report
  // gets analysis::kJsonQuantileLevels and the other formats none.
  std::optional<std::string> quantiles;
  // --efficiency LIST: the summary's thresholds, e.g. "0.7,0.9" (analysis::PredictionOptions).
  std::optional<std::string> efficiency;
  std::optional<std::string> tail_plot;  // --tail-plot FILE.svg: p95 / mean against p
  // --breakdown: each p's prediction split into computation, communication, synchronisation and
  // idle time (analysis/breakdown.hpp); --breakdown-plot FILE.svg draws it (and implies it).
  bool breakdown = false;
  std::optional<std::string> breakdown_plot;
  // --sensitivity: each p's elasticities and tolerances per constant (analysis/sensitivity.hpp);
  // --sensitivity-plot FILE.svg draws the elasticities against p (and implies it).
  bool sensitivity = false;
  std::optional<std::string> sensitivity_plot;
  bool log_axes = false;  // --log-axes: the charts' p axis (and speedup axis) log2

  // Calibration and validation (docs/calibration.md): --calibrate RUNS.csv --fit a,b fits the
  // named variables or constants to the runs; --validate RUNS.csv scores the (fitted) model's
  // predictions against the runs; --write-fit FILE writes the fitted values (a machine file when
  // FILE ends in .machine, else --set lines that --set-file reads back); --validation-plot
  // FILE.svg draws predicted against measured; --interval PERCENT is the prediction intervals'
  // level and --draws N the parameter draws behind them.
  std::optional<std::string> calibrate;
  std::vector<std::string> fit;
  std::map<std::string, analysis::ParameterRange> fit_ranges;  // --fit name=LOW..HIGH
  std::optional<std::string> write_fit;
  std::optional<std::string> validate;
  std::optional<std::string> validation_plot;
  double interval_percent = analysis::PredictionIntervalOptions{}.level * 100.0;
  int draws = analysis::PredictionIntervalOptions{}.parameter_draws;

  // --graph P: instead of the analysis, the scaled model on P processors as Graphviz DOT.
  std::optional<int> graph;
  GraphModel model = GraphModel::Approximate;  // --model exact|approx
};

// The methods of --method ("approx,mc", "auto", "all") in the order given, without repeats.
Checked<std::vector<solvers::Method>> parse_methods(const std::string& list);

// "4G", "512M", "64K" or a plain byte count (binary multiples); nullopt when malformed, zero or
// beyond 2^60.
std::optional<std::uint64_t> parse_bytes(const std::string& text);

// Every program file, in the order given: `file` and then `other_files`.
std::vector<std::string> program_files(const Options& options);

// The options a run of several programs refuses (--graph, --dump, --loss, --isoefficiency,
// --isospeed): refused with the first given named.
Check check_one_program(const Options& options);

// The processor counts the options ask for, ascending and without repeats.
Checked<std::vector<int>> processor_counts(const Options& options);

// "90", "90s", "10m", "2h": a duration in seconds, > 0; nullopt when malformed.
std::optional<double> parse_duration(const std::string& text);

// The values of --set, by name: a number, or else an expression (e.g. "100*P", docs/pdl.md)
// that the checker parses as the variable's default.
struct SetValues {
  std::map<std::string, double> numbers;
  std::map<std::string, std::string> expressions;
};

// Parses "name=value" strings; a name given twice, a value that is empty or a number that is
// not finite (inf, nan) refused.
Checked<SetValues> parse_sets(const std::vector<std::string>& sets);

// Parses "name=LIST". LIST is comma-separated items, each
//   v          a number
//   a..b       a, a+1, ..., up to b
//   a..b:s     a, a+s, a+2s, ..., up to b (s > 0)
//   a..b*f     a, a*f, a*f^2, ..., up to b (f > 1, a > 0)
// e.g. "columns=10,20,40..160*2" is 10, 20, 40, 80, 160. Refused with a message that quotes the
// option.
Checked<analysis::SweepVariable> parse_sweep(const std::string& text);

// At most this many values per --sweep, and configurations (their cross product) in all.
inline constexpr std::size_t kMaxSweepValues = 10'000;

// Options given for a method the run does not use (docs/cli.md, "Options of one method"):
// --samples and --precision without mc, --max-states without exact, --grid-points without
// approx, and --method with --isoefficiency (which solves the approximate model alone) are
// refused: the message, worded for the command line, names the method the option needs.
// --seed without mc is a note (returned): no figure is random, so it changes nothing, and a
// script may pass it to every run. `methods` are the run's, as analysis_request made them.
Checked<std::vector<std::string>> method_option_notes(const Options& options,
                                                      const std::vector<solvers::Method>& methods);

// A chart destination (--plot, --tail-plot, --breakdown-plot, --sensitivity-plot) that is not an
// SVG file (FILE.svg, any case) refused: the charts are SVG only, and a .png or .pdf name would
// hold an SVG.
Check check_chart_paths(const Options& options);

// The levels of --quantiles ("50,95,99" -> 0.5, 0.95, 0.99), ascending without repeats, each
// percentage in (0, 100).
Checked<std::vector<double>> parse_quantiles(const std::string& list);
// The thresholds of --efficiency ("0.7,0.9"), in the order given without repeats, each in (0, 1].
Checked<std::vector<double>> parse_efficiency_thresholds(const std::string& list);

// The analysis request the options make: processor counts, methods and the Monte Carlo
// stopping rule filled in, checked with Request::IsValid (its message worded for the command
// line).
Checked<analysis::Request> analysis_request(const Options& options);

}  // namespace app
