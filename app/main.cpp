// pdl-scale: predicts how a parallel program described in PDL scales with the processor count.
// This file only reads the command line; the commands are in the app library.
#include "app/commands.hpp"
#include "app/options.hpp"

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <unistd.h>

#include <cstdint>
#include <exception>
#include <iostream>

int main(int argc, char** argv) {
  CLI::App cli{"pdl-scale: predict how a parallel program scales, from its PDL description"};
  cli.set_version_flag("--version", std::string{"pdl-scale "} + PDL_SCALE_VERSION);
  app::Options options;
  cli.add_option("file", options.file, "the PDL program");
  auto* check = cli.add_flag("--check", options.check,
                             "check the program (and machine) and print diagnostics; exit 0 when valid, 2 if not");
  cli.add_flag("--dump", options.dump, "print the normalized model: every default explicit, variables bound")
      ->excludes(check);
  // Repeatable options take one value per occurrence, so that `--machine A.machine prog.pdl`
  // leaves the program to the positional argument.
  cli.add_option("--set", options.sets, "bind a variable: --set name=value (repeatable)")
      ->type_name("NAME=VALUE")
      ->allow_extra_args(false);
  cli.add_option("--machine", options.machine_files,
                 "the machine file (default: the built-in ideal machine); repeat it to compare machines side by "
                 "side in one table and one chart")
      ->type_name("FILE")
      ->allow_extra_args(false);
  int pmax = 0;
  auto* pmax_option =
      cli.add_option("--pmax", pmax, "analyse p = 1..N processors (default 16)")->type_name("N");
  cli.add_option("--p", options.processors, "analyse these processor counts, e.g. 1,2,4,8")
      ->type_name("LIST")
      ->excludes(pmax_option);
  cli.add_option("--format", options.format,
                 "output format: table (default), csv, json, or jsonl (JSON Lines as Extra-P reads them)")
      ->type_name("FORMAT");
  cli.add_option("--sweep", options.sweeps,
                 "analyse every value of a program variable (repeatable: every combination); LIST is comma-separated "
                 "v, a..b, a..b:step or a..b*factor, e.g. columns=10,20,40..160*2")
      ->type_name("NAME=LIST")
      ->allow_extra_args(false);
  cli.add_flag("--loss", options.loss,
               "loss analysis (paper section 5): per phase, its speedup with every other phase costing 0, and its "
               "share of the runtime");
  double isoefficiency = 0;
  auto* iso_option = cli.add_option("--isoefficiency", isoefficiency,
                                    "per p, the smallest size of --iso-variable whose efficiency (approximate model) "
                                    "is at least E, in (0, 1]; replaces the speedup table")
                         ->type_name("E");
  cli.add_option("--iso-variable", options.iso_variable, "the program variable --isoefficiency searches over (integers)")
      ->type_name("NAME");
  cli.add_option("--iso-max", options.iso_max, "the largest size --isoefficiency tries (default 1e9)")->type_name("N");
  std::string plot;
  cli.add_option("--plot", plot,
                 "also draw speedup and efficiency against p as an SVG chart into FILE (whole or not at all)")
      ->type_name("FILE.svg");
  std::string output;
  cli.add_option("-o,--output", output, "write the report to FILE (whole or not at all) instead of stdout")
      ->type_name("FILE");
  cli.add_option("--threads", options.threads, "worker threads for the sweep (default: every core)")
      ->type_name("N")
      ->check(CLI::Range(0, 1024));
  cli.add_flag("--quiet", options.quiet, "no progress bar");
  cli.add_option("--method", options.methods,
                 "methods for every p, comma-separated: approx (the approximate barrier model), bounds "
                 "(lower and upper bounds on the exact model's mean), mc (Monte Carlo of the exact model), "
                 "exact (state-space analysis of the exact model, where it fits), auto (approx,bounds,exact), "
                 "all (default: approx,bounds)")
      ->type_name("LIST");
  cli.add_option("--max-exact-tasks", options.max_exact_tasks,
                 "bounds and mc skip a p whose exact model has more tasks than N (default 200000)")
      ->type_name("N")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{100'000'000}));
  std::string state_budget;
  cli.add_option("--state-budget", state_budget,
                 "memory for the state-space analysis, e.g. 4G or 512M (default: a quarter of the machine's)")
      ->type_name("BYTES");
  cli.add_option("--max-states", options.max_states,
                 "exact: skip a p whose state space is estimated above N states (default 20000000)")
      ->type_name("N")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 50));
  std::int64_t samples = 0;
  auto* samples_option = cli.add_option("--samples", samples, "Monte Carlo: exactly N samples")
                             ->type_name("N")
                             ->check(CLI::Range(std::int64_t{2}, std::int64_t{1'000'000'000}));
  cli.add_option("--precision", options.precision,
                 "Monte Carlo: sample until the 95% half-width is at most R times the mean (default 0.001)")
      ->type_name("R")
      ->check(CLI::Range(1e-6, 0.5))
      ->excludes(samples_option);
  int graph_processors = 0;
  auto* graph_option = cli.add_option("--graph", graph_processors,
                                      "write the scaled model on P processors as Graphviz DOT instead of analysing")
                           ->type_name("P");
  cli.add_option("--model", options.model, "the model --graph draws: approx (default) or exact")
      ->type_name("MODEL")
      ->needs(graph_option);
  cli.add_option("--seed", options.seed, "seed of every random figure (default 1): same seed, same results")
      ->type_name("S");
  cli.add_option("--grid-points", options.grid_points,
                 "points of the numerical grids (default 4096; more: tighter brackets, slower)")
      ->type_name("N")
      ->check(CLI::Range(std::size_t{16}, std::size_t{1} << 20));
  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    const int status = cli.exit(error);
    return status == 0 ? app::kExitSuccess : app::kExitInput;
  }
  if (iso_option->count() > 0) options.isoefficiency = isoefficiency;
  if (!plot.empty()) options.plot = plot;
  if (!output.empty()) options.output = output;
  if (pmax_option->count() > 0) options.pmax = pmax;
  if (samples_option->count() > 0) options.samples = samples;
  if (graph_option->count() > 0) options.graph = graph_processors;
  if (!state_budget.empty()) {
    const auto bytes = app::parse_bytes(state_budget);
    if (!bytes) {
      fmt::print(stderr, "pdl-scale: error: --state-budget {}: expected a size such as 4G, 512M or 1000000\n",
                 state_budget);
      return app::kExitInput;
    }
    options.state_budget = *bytes;
  }
  try {
    if (options.file.empty()) {
      if (options.check || options.dump) {
        fmt::print(stderr, "pdl-scale: error: --check and --dump need a FILE\n");
        return app::kExitInput;
      }
      fmt::print("{}", cli.help());
      return app::kExitSuccess;
    }
    if (options.dump) return app::run_dump(options, std::cout, std::cerr);
    if (options.check) return app::run_check(options, std::cout, std::cerr);
    if (options.graph) return app::run_graph(options, std::cout, std::cerr);
    return app::run_analysis(options, std::cout, std::cerr, ::isatty(STDERR_FILENO) == 1);
  } catch (const std::exception& error) {
    fmt::print(stderr, "pdl-scale: internal error: {}\n", error.what());
    return app::kExitInternal;
  }
}
