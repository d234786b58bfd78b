// What the command line asked for, parsed by cli.cpp with CLI11 and executed by the app library
// (commands.cpp, analyse.cpp), so that the commands are testable without a process. The
// analysis's own knobs live in `request`, whose defaults are the analysis library's: none is
// written here a second time.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analysis/isoefficiency.hpp"
#include "analysis/request.hpp"
#include "analysis/study.hpp"
#include "app/report.hpp"

namespace app {

// Exit statuses (DESIGN.md section 7).
inline constexpr int kExitSuccess = 0;
inline constexpr int kExitInternal = 1;  // a bug: an exception escaped
inline constexpr int kExitInput = 2;     // bad usage or bad input: diagnostics say why

// Which scaled model --graph draws.
enum class GraphModel { Approximate, Exact };

struct Options {
  std::string file;  // the PDL program
  // --machine FILE, repeatable: the analysis compares the machines side by side; --check,
  // --dump and --graph take at most one. The built-in ideal machine when none is given.
  std::vector<std::string> machine_files;
  std::vector<std::string> sets;  // --set name=value, repeatable
  bool check = false;             // --check
  bool dump = false;              // --dump

  // The analysis (neither --check nor --dump): the processor counts are 1..pmax, or the list
  // `processors` ("1,2,4,8"), or the request's default when neither is given.
  std::optional<int> pmax;                // --pmax N
  std::string processors;                 // --p LIST
  std::optional<std::string> methods;     // --method LIST (default: the request's)
  Format format = Format::Table;          // --format table|csv|json|jsonl
  std::optional<std::string> output;      // -o FILE: written whole or not at all
  bool quiet = false;                     // --quiet: no progress bar
  std::optional<std::int64_t> samples;    // --samples N: exactly N Monte Carlo samples
  // Every other analysis option: --threads, --grid-points, --max-exact-tasks, --memory,
  // --max-states, --precision, --seed.
  analysis::Request request;

  // Studies (docs/cli.md): --sweep NAME=LIST, repeatable: every combination of the values,
  // each analysed over the processor counts.
  std::vector<std::string> sweeps;
  bool loss = false;                      // --loss: per phase, the others made free (paper section 5)
  // --isoefficiency E --iso-variable NAME [--iso-max N]: per p, the size that holds efficiency
  // E; replaces the speedup table.
  std::optional<double> isoefficiency;
  std::string iso_variable;
  double iso_max = analysis::IsoefficiencyOptions{}.max_size;
  std::optional<std::string> plot;        // --plot FILE.svg: the speedup and efficiency chart
  // --quantiles LIST: percent levels in (0, 100), e.g. "50,95,99"; when absent, a JSON report
  // gets analysis::kJsonQuantileLevels and the other formats none.
  std::optional<std::string> quantiles;
  std::optional<std::string> tail_plot;   // --tail-plot FILE.svg: p95 / mean against p

  // --graph P: instead of the analysis, the scaled model on P processors as Graphviz DOT.
  std::optional<int> graph;
  GraphModel model = GraphModel::Approximate;  // --model exact|approx
};

// The methods of --method ("approx,mc", "auto", "all") in the order given, without repeats; on
// failure returns nullopt and sets *error.
std::optional<std::vector<solvers::Method>> parse_methods(const std::string& list, std::string* error);

// "4G", "512M", "64K" or a plain byte count (binary multiples); nullopt when malformed, zero or
// beyond 2^60.
std::optional<std::uint64_t> parse_bytes(const std::string& text);

// The processor counts the options ask for, ascending and without repeats; on failure
// returns nullopt and sets *error.
std::optional<std::vector<int>> processor_counts(const Options& options, std::string* error);

// Parses "name=value" strings; on failure returns nullopt and sets *error.
std::optional<std::map<std::string, double>> parse_sets(const std::vector<std::string>& sets, std::string* error);

// Parses "name=LIST". LIST is comma-separated items, each
//   v          a number
//   a..b       a, a+1, ..., up to b
//   a..b:s     a, a+s, a+2s, ..., up to b (s > 0)
//   a..b*f     a, a*f, a*f^2, ..., up to b (f > 1, a > 0)
// e.g. "columns=10,20,40..160*2" is 10, 20, 40, 80, 160. On failure returns nullopt and sets
// *error to a message that quotes the option.
std::optional<analysis::SweepVariable> parse_sweep(const std::string& text, std::string* error);

// At most this many values per --sweep, and configurations (their cross product) in all.
inline constexpr std::size_t kMaxSweepValues = 10'000;

// The level --tail-plot draws against the mean; added to the levels when --tail-plot is given.
inline constexpr double kTailLevel = 0.95;

// The levels of --quantiles ("50,95,99" -> 0.5, 0.95, 0.99), ascending without repeats, each
// percentage in (0, 100); on failure returns nullopt and sets *error.
std::optional<std::vector<double>> parse_quantiles(const std::string& list, std::string* error);

// The analysis request the options make: processor counts, methods and the Monte Carlo
// stopping rule filled in, checked with Request::IsValid; nullopt with *error (worded for the
// command line) when they are invalid.
std::optional<analysis::Request> analysis_request(const Options& options, std::string* error);

}  // namespace app
