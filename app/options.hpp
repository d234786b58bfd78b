// What the command line asked for, parsed by main.cpp with CLI11 and executed by the app
// library (commands.cpp), so that the commands are testable without a process.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "solvers/result.hpp"

namespace app {

// Exit statuses (DESIGN.md section 7).
inline constexpr int kExitSuccess = 0;
inline constexpr int kExitInternal = 1;  // a bug: an exception escaped
inline constexpr int kExitInput = 2;     // bad usage or bad input: diagnostics say why

struct Options {
  std::string file;                 // the PDL program
  // --machine FILE, repeatable: the analysis compares the machines side by side; --check,
  // --dump and --graph take at most one. The built-in ideal machine when none is given.
  std::vector<std::string> machine_files;
  std::vector<std::string> sets;    // --set name=value, repeatable
  bool check = false;               // --check
  bool dump = false;                // --dump

  // The analysis (neither --check nor --dump): the processor counts are 1..pmax, or the list
  // `processors` ("1,2,4,8"), or 1..kDefaultPmax when neither is given.
  std::optional<int> pmax;               // --pmax N
  std::string processors;                // --p LIST
  std::string format = "table";          // --format table|csv|json|jsonl
  std::optional<std::string> output;     // -o FILE: written whole or not at all
  int threads = 0;                       // --threads N; 0: every core
  bool quiet = false;                    // --quiet: no progress bar
  std::size_t grid_points = 4096;        // --grid-points N: distributions::GridOptions::max_points
  std::string methods = "approx,bounds";  // --method LIST: approx, bounds, mc, all
  std::int64_t max_exact_tasks = 200'000;  // --max-exact-tasks N: larger exact models are skipped
  std::optional<std::uint64_t> state_budget;  // --state-budget BYTES (default: a quarter of memory)
  std::int64_t max_states = 20'000'000;       // --max-states N: larger state spaces are skipped
  std::optional<std::int64_t> samples;   // --samples N: Monte Carlo sample count
  double precision = 1e-3;               // --precision R: Monte Carlo target half-width / mean
  std::uint64_t seed = 1;                // --seed S: fixes every random figure

  // Studies (docs/cli.md): --sweep NAME=LIST, repeatable: every combination of the values,
  // each analysed over the processor counts.
  std::vector<std::string> sweeps;
  bool loss = false;                     // --loss: per phase, the others made free (paper section 5)
  // --isoefficiency E --iso-variable NAME: per p, the size that holds efficiency E; replaces
  // the speedup table.
  std::optional<double> isoefficiency;
  std::string iso_variable;
  double iso_max = 1e9;                  // --iso-max N: the largest size the search tries
  std::optional<std::string> plot;       // --plot FILE.svg: the speedup and efficiency chart

  // --graph P: instead of the analysis, the scaled model on P processors as Graphviz DOT.
  std::optional<int> graph;
  std::string model = "approx";          // --model exact|approx: which scaled model --graph draws
};

inline constexpr int kDefaultPmax = 16;
// Processor counts analysed in one run, at most: a sweep beyond this is a typo, not a study.
inline constexpr std::size_t kMaxProcessorCounts = 65536;

// The methods of --method ("approx,mc", "auto", "all") in the order given, without repeats; on failure
// returns nullopt and sets *error.
std::optional<std::vector<solvers::Method>> parse_methods(const std::string& list, std::string* error);

// "4G", "512M", "64K" or a plain byte count (binary multiples); nullopt when malformed, zero or
// beyond 2^60.
std::optional<std::uint64_t> parse_bytes(const std::string& text);

// The processor counts the options ask for, ascending and without repeats; on failure
// returns nullopt and sets *error.
std::optional<std::vector<int>> processor_counts(const Options& options, std::string* error);

// Parses "name=value" strings; on failure returns nullopt and sets *error.
std::optional<std::map<std::string, double>> parse_sets(const std::vector<std::string>& sets, std::string* error);

}  // namespace app
