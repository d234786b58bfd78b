#include "app/cli.hpp"

#include "app/command.hpp"
#include "app/import.hpp"
#include "app/set_file.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>
#include <ostream>
#include <cstdint>
#include <limits>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "app/suggest.hpp"
#include "solvers/solver.hpp"

namespace app {

namespace {

// A value refused by an option's callback (a duration, a size, a --fit range, a --set-file line),
// with the whole text of its refusal: thrown through CLI11's parse as CLI11's own refusals are
// (a ParseError), and caught beside them.
class RefusedValue : public CLI::ParseError {
 public:
  explicit RefusedValue(const Refusal& refusal)
      : CLI::ParseError("RefusedValue", refusal.error.text, CLI::ExitCodes::ValidationError), refusal_(refusal.error) {}
  const UsageError& refusal() const { return refusal_; }

 private:
  UsageError refusal_;
};

// Counts may be written in scientific notation (--samples 1e9): a whole number so written is
// rewritten in digits before CLI11 converts it to an integer and checks its range, so that
// the range's message is about the value given; a fraction is refused as such. Anything else
// is left for CLI11 to refuse.
CLI::Validator whole_number_notation() {
  return CLI::Validator(
      [](std::string& input) -> std::string {
        double value = 0;
        const auto [end, ec] = std::from_chars(input.data(), input.data() + input.size(), value);
        if (ec != std::errc() || end != input.data() + input.size() || !std::isfinite(value)) return {};
        if (value != std::floor(value)) return fmt::format("{} is not a whole number", input);
        if (std::abs(value) < 0x1p63) input = fmt::format("{:.0f}", value);
        return {};
      },
      "");
}

// --seed: a whole number in [0, 2^64 - 1], written in digits. CLI11 alone wraps -1 to 2^64 - 1
// and clamps larger values to it, silently.
CLI::Validator seed_range() {
  return CLI::Validator(
      [](std::string& input) -> std::string {
        std::uint64_t value = 0;
        const char* begin = input.data() + (input.starts_with('+') ? 1 : 0);
        const auto [end, ec] = std::from_chars(begin, input.data() + input.size(), value);
        if (begin == input.data() + input.size() || ec != std::errc() || end != input.data() + input.size()) {
          return fmt::format("'{}' is not a seed: a whole number in [0, {}]", input,
                             std::numeric_limits<std::uint64_t>::max());
        }
        return {};
      },
      "");
}

// A CLI11 transformer from names to an enum's values: fills the enum option, and refuses any
// other word (numbers too) with the list of names.
template <typename Enum>
CLI::Validator names_of(const std::vector<std::pair<std::string, Enum>>& names) {
  std::string list;
  for (std::size_t k = 0; k < names.size(); ++k) {
    list += k == 0 ? "" : k + 1 == names.size() ? " or " : ", ";
    list += names[k].first;
  }
  return CLI::Validator(
      [names, list](std::string& input) -> std::string {
        for (const auto& [name, value] : names) {
          if (input == name) {
            input = std::to_string(static_cast<int>(value));
            return {};
          }
        }
        return "unknown value '" + input + "' (" + list + ")";
      },
      "");
}

// "5.8G", "512M": a budget as --memory takes it.
std::string size_text(std::uint64_t bytes) {
  if (bytes >= (std::uint64_t{1} << 30)) return fmt::format("{:.1f}G", static_cast<double>(bytes) / (1 << 30));
  return fmt::format("{:.0f}M", static_cast<double>(bytes) / (1 << 20));
}

void add_inputs(CLI::App& cli, Options& options) {
  // Every positional argument is a program: `pdl-scale a.pdl b.pdl` analyses them side by side.
  cli.add_option_function<std::vector<std::string>>(
         "file",
         [&options](const std::vector<std::string>& files) {
           options.file = files.front();
           options.other_files.assign(files.begin() + 1, files.end());
         },
         "the PDL program; give several to compare them side by side")
      ->type_name("FILE");
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
}

std::string methods_help(const analysis::Request& request) {
  std::string text = "methods for every p, comma-separated:";
  for (solvers::Method method : solvers::all_methods()) {
    text += fmt::format(" {} ({}),", solvers::info(method).name, solvers::info(method).description);
  }
  text += " auto (approx,bounds,exact), all (default: ";
  for (std::size_t k = 0; k < request.methods.size(); ++k) {
    text += (k == 0 ? "" : ",") + std::string(solvers::to_string(request.methods[k]));
  }
  return text + ")";
}

// A duration option's callback: DURATION (90s, 10m, 2h) into `seconds`, or refused with `expected`;
// "0" too where `zero` is allowed.
std::function<void(const std::string&)> duration_into(double& seconds, const char* option, const char* expected,
                                                      bool zero) {
  return [&seconds, option, expected, zero](const std::string& text) {
    const auto parsed = zero && text == "0" ? std::optional<double>(0.0) : parse_duration(text);
    if (!parsed) throw RefusedValue(refuse(fmt::format("{} {}: {}", option, as_written(text), expected)));
    seconds = *parsed;
  };
}

void add_processors_and_output(CLI::App& cli, Options& options) {
  auto* pmax = cli.add_option("--pmax", options.pmax,
                              fmt::format("analyse p = 1..N processors (default {})", analysis::kDefaultPmax))
                   ->type_name("N");
  cli.add_option("--p", options.processors, "analyse these processor counts, e.g. 1,2,4,8")
      ->type_name("LIST")
      ->excludes(pmax);
  cli.add_option("--format", options.format,
                 "output format: table (default), csv, json, or jsonl (JSON Lines as Extra-P reads them)")
      ->type_name("FORMAT")
      ->transform(names_of<report::Format>({{"table", report::Format::Table},
                                            {"csv", report::Format::Csv},
                                            {"json", report::Format::Json},
                                            {"jsonl", report::Format::Jsonl}}));
  cli.add_option_function<std::string>(
         "--time-unit", [&options](const std::string& name) { options.time_unit = report::time_unit_named(name); },
         "print times in ns, us (the default: the program's unit), ms or s")
      ->type_name("UNIT")
      ->check(CLI::IsMember({"ns", "us", "ms", "s"}));
  cli.add_option("-o,--output", options.output, "write the report to FILE (whole or not at all) instead of stdout")
      ->type_name("FILE");
  cli.add_option("--threads", options.request.threads, "worker threads for the analysis (0: every core)")
      ->type_name("N")
      ->check(CLI::Range(0, 1024))
      ->capture_default_str();
  auto* quiet = cli.add_flag("--quiet", options.quiet, "no progress bar, nor the time estimate of a long run");
  cli.add_flag("--progress", options.progress,
               "say the time estimate before the analysis, and off a terminal (a log, a batch job) a progress line "
               "every few seconds")
      ->excludes(quiet);
  cli.add_option_function<std::string>(
         "--time-limit",
         duration_into(options.time_limit_seconds, "--time-limit", "expected a duration > 0, such as 90s, 10m or 2h",
                       false),
         fmt::format("refuse to start an analysis estimated to take longer than DURATION on the reference "
                     "machine, e.g. 90s, 10m, 2h (default {:.0f}m)",
                     kDefaultTimeLimitSeconds / 60.0))
      ->type_name("DURATION");
  cli.add_flag("--allow-long", options.allow_long, "run the analysis however long it is estimated to take");
  cli.add_option_function<std::string>(
         "--prediction-budget",
         duration_into(options.request.prediction.seconds_per_model, "--prediction-budget",
                       "expected 0 or a duration > 0, such as 0.5s or 2s", true),
         fmt::format("time on the reference machine each p may spend on the prediction's own solve (the exact "
                     "mean, else Monte Carlo) when --method does not give one, e.g. 0.5s; 0: the prediction "
                     "comes from --method alone (default {:g}s)",
                     analysis::PredictionOptions{}.seconds_per_model))
      ->type_name("DURATION");
  cli.add_option("--efficiency", options.efficiency,
                 "the summary's efficiency thresholds, each in (0, 1], e.g. 0.7,0.9 (default 0.8,0.5)")
      ->type_name("LIST");
}

void add_studies(CLI::App& cli, Options& options) {
  cli.add_option("--sweep", options.sweeps,
                 "analyse every value of a program variable (repeatable: every combination); LIST is comma-separated "
                 "v, a..b, a..b:step or a..b*factor, e.g. columns=10,20,40..160*2")
      ->type_name("NAME=LIST")
      ->allow_extra_args(false);
  cli.add_flag("--loss", options.loss,
               "loss analysis (paper section 5): per phase, its speedup with every other phase costing 0, and its "
               "share of the runtime");
  cli.add_option("--isoefficiency", options.isoefficiency,
                 "per p, the smallest size of --iso-variable whose efficiency (approximate model) "
                 "is at least E, in (0, 1]; replaces the speedup table")
      ->type_name("E");
  cli.add_option("--isospeed", options.isospeed,
                 "per p, the smallest size of --iso-variable whose average speed per processor holds that of the "
                 "smallest p ('base') or the fraction A of one processor's speed, and Sun and Zhu's psi(p, p')")
      ->type_name("base|A");
  cli.add_flag("--scaling-laws", options.scaling_laws,
               "under the table, per p: the Karp-Flatt serial fraction and Amdahl's and Gustafson's speedups");
  cli.add_option("--iso-variable", options.iso_variable,
                 "the program variable --isoefficiency or --isospeed searches over (integers), or a machine constant "
                 "--isoefficiency searches over (reals)")
      ->type_name("NAME");
  cli.add_option(
         "--iso-range", options.iso_range,
         "with --isoefficiency over a machine constant: the values searched, 0 < LO < HI (default: a thousandth "
         "to a thousand times its value in the machine file)")
      ->type_name("LO..HI");
  cli.add_option("--iso-max", options.iso_max, "the largest size --isoefficiency tries")
      ->type_name("N")
      ->capture_default_str();
  cli.add_option("--plot", options.plot,
                 "also draw speedup and efficiency against p as an SVG chart into FILE (whole or not at all)")
      ->type_name("FILE.svg");
  cli.add_option("--quantiles", options.quantiles,
                 "also report these runtime quantiles in percent, e.g. 50,95,99, from approx (with their bracket) "
                 "and mc (with a 95% confidence interval) (default: none, 50,95,99 in JSON)")
      ->type_name("LIST");
  cli.add_option("--tail-plot", options.tail_plot,
                 "also draw p95 / mean against p for approx and mc as an SVG chart into FILE (whole or not at all)")
      ->type_name("FILE.svg");
  cli.add_flag("--breakdown", options.breakdown,
               "under the table, per p: the prediction per processor split into computation, communication, "
               "synchronisation and idle time (builds the exact model of every p)");
  cli.add_option("--breakdown-plot", options.breakdown_plot,
                 "also draw that split against p as a stacked SVG chart into FILE (whole or not at all; implies "
                 "--breakdown)")
      ->type_name("FILE.svg");
  cli.add_flag("--sensitivity", options.sensitivity,
               "under the table, per p: each constant's elasticity d ln T / d ln x with its interval and the "
               "factors it may grow by before T grows 1% and 5%, by the prediction's method (docs/sensitivity.md)");
  cli.add_option("--sensitivity-plot", options.sensitivity_plot,
                 "also draw each constant's elasticity against p as an SVG chart into FILE (whole or not at all; "
                 "implies --sensitivity)")
      ->type_name("FILE.svg");
  cli.add_flag("--log-axes", options.log_axes,
               "with --plot or --tail-plot: p (or the swept size) on a log2 axis, and speedup on a log2 axis too "
               "(p is log2 without it when every p is a power of two, at least three)");
}

// --memory SIZE's callback: the run's budget, at least 1M.
std::function<void(const std::string&)> memory_into(std::uint64_t& bytes) {
  return [&bytes](const std::string& text) {
    const auto parsed = parse_bytes(text);
    if (!parsed || *parsed < solvers::kSmallestMemoryBudget) {
      throw RefusedValue(refuse(
          fmt::format("--memory {}: expected a size of at least 1M, such as 4G, 512M or 100000000", as_written(text))));
    }
    bytes = *parsed;
  };
}

// The default a method option shows in --help: the request's, which applies when it is not given.
template <typename T>
std::string default_text(const T& value) {
  return CLI::detail::to_string(value);
}

void add_methods(CLI::App& cli, Options& options) {
  analysis::Request& request = options.request;
  const solvers::SolverOptions& solver = request.solver_options;
  cli.add_option("--method", options.methods, methods_help(request))->type_name("LIST");
  cli.add_option("--max-exact-tasks", request.max_exact_tasks,
                 "bounds, mc and exact skip a p whose exact model has more tasks than N")
      ->type_name("N")
      ->transform(whole_number_notation())
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{100'000'000}))
      ->capture_default_str();
  cli.add_option_function<std::string>(
         "--memory", memory_into(request.memory_budget_bytes),
         fmt::format("memory of the whole run, e.g. 4G, 512M or a byte count: a method whose estimate does "
                     "not fit beside its exact model is skipped with a note (default: a quarter of this "
                     "machine's, {})",
                     size_text(request.memory_budget_bytes)))
      ->type_name("SIZE");
  cli.add_option("--max-states", options.max_states, "exact: skip a p whose state space is estimated above N states")
      ->type_name("N")
      ->transform(whole_number_notation())
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 50))
      ->default_str(default_text(solver.state_space.max_states));
  auto* samples = cli.add_option("--samples", options.samples, "Monte Carlo: exactly N samples")
                      ->type_name("N")
                      ->transform(whole_number_notation())
                      ->check(CLI::Range(std::int64_t{2}, std::int64_t{1'000'000'000}));
  cli.add_option("--precision", options.precision,
                 "Monte Carlo: sample until the 95% half-width is at most R times the mean")
      ->type_name("R")
      ->check(CLI::Range(1e-6, 0.5))
      ->excludes(samples)
      ->default_str(default_text(solver.monte_carlo.relative_precision));
  cli.add_option("--seed", options.seed, "seed of every random figure, in [0, 2^64 - 1]: same seed, same results")
      ->type_name("S")
      ->check(seed_range())
      ->default_str(default_text(solver.monte_carlo.seed));
  cli.add_option("--grid-points", options.grid_points, "points of the numerical grids (more: tighter brackets, slower)")
      ->type_name("N")
      ->check(CLI::Range(std::size_t{16}, std::size_t{1} << 20))
      ->default_str(default_text(solver.series_parallel.grid.max_points));
}

void add_graph(CLI::App& cli, Options& options) {
  auto* graph = cli.add_option("--graph", options.graph,
                               "write the scaled model on P processors as Graphviz DOT instead of analysing")
                    ->type_name("P");
  cli.add_option("--model", options.model, "the model --graph draws: approx (default) or exact")
      ->type_name("MODEL")
      ->transform(names_of<GraphModel>({{"approx", GraphModel::Approximate}, {"exact", GraphModel::Exact}}))
      ->needs(graph);
}

// One entry of --fit: NAME, or NAME=LOW..HIGH (the range its fit keeps to, 0 < LOW < HIGH).
void take_fit_name(const std::string& entry, Options& options) {
  const std::size_t equals = entry.find('=');
  options.fit.push_back(entry.substr(0, equals));
  if (equals == std::string::npos) return;
  const std::string range = entry.substr(equals + 1);
  const std::size_t dots = range.find("..");
  const auto number = [](std::string_view text) -> std::optional<double> {
    double value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) return {};
    return value;
  };
  const auto lower = dots == std::string::npos ? std::nullopt : number(std::string_view(range).substr(0, dots));
  const auto upper = dots == std::string::npos ? std::nullopt : number(std::string_view(range).substr(dots + 2));
  if (!lower || !upper || !(*lower > 0.0) || !(*upper > *lower)) {
    throw RefusedValue(refuse(fmt::format("--fit {}: a range is NAME=LOW..HIGH with 0 < LOW < HIGH, e.g. {}=1..100",
                                          entry, options.fit.back())));
  }
  options.fit_ranges[options.fit.back()] = {*lower, *upper};
}

// --fit LIST: the names to fit, each with its range where one is given.
void add_fit(CLI::App& cli, Options& options) {
  cli.add_option_function<std::string>(
         "--fit",
         [&options](const std::string& list) {
           for (std::size_t start = 0; !list.empty() && start <= list.size();) {
             const std::size_t comma = std::min(list.find(',', start), list.size());
             take_fit_name(list.substr(start, comma - start), options);
             start = comma + 1;
           }
         },
         "the program variables or machine constants --calibrate fits, e.g. ts,tw; NAME=LOW..HIGH keeps one in a "
         "range, e.g. ts=1..100")
      ->type_name("LIST");
}

// --set-file FILE: the files' lines after the --set values (declared earlier, so bound first).
void add_set_files(CLI::App& cli, Options& options) {
  cli.add_option_function<std::vector<std::string>>(
         "--set-file",
         [&options](const std::vector<std::string>& files) {
           options.set_files = files;
           for (const std::string& file : files) {
             auto lines = read_set_file(file, options.read_file);
             if (!lines.ok()) throw RefusedValue(refuse(*lines.failure));
             options.sets.insert(options.sets.end(), lines.value->begin(), lines.value->end());
           }
         },
         "read --set lines (NAME=VALUE, as --write-fit writes them) from FILE")
      ->type_name("FILE")
      ->allow_extra_args(false);
}

void add_calibration(CLI::App& cli, Options& options) {
  cli.add_option("--calibrate", options.calibrate,
                 "fit the --fit names to the measured runs of this CSV file (docs/calibration.md)")
      ->type_name("RUNS.csv");
  add_fit(cli, options);
  cli.add_option("--write-fit", options.write_fit,
                 "write the fitted values: a machine file if FILE ends in .machine, else --set lines for --set-file")
      ->type_name("FILE");
  add_set_files(cli, options);
  cli.add_option("--validate", options.validate,
                 "score the model's predictions (fitted, with --calibrate) against the measured runs of this CSV file")
      ->type_name("RUNS.csv");
  cli.add_option("--validation-plot", options.validation_plot,
                 "--validate: draw predicted against measured to FILE.svg")
      ->type_name("FILE.svg");
  cli.add_option("--interval", options.interval_percent, "the prediction intervals' level in percent (default 95)")
      ->type_name("PERCENT");
  cli.add_option(
         "--draws", options.draws,
         fmt::format("draws of the fitted parameters behind each prediction interval (default {})", options.draws))
      ->type_name("N");
}

void build(CLI::App& cli, Options& options) {
  cli.set_version_flag("--version", std::string{"pdl-scale "} + PDL_SCALE_VERSION);
  cli.footer(
      "pdl-scale fit DATAFILE: the best fitting PDL distributions of measured runtimes (pdl-scale fit --help)\n"
      "pdl-scale import FORMAT FILE: a GOAL schedule, a WfCommons workflow or an OTF2 trace made into a PDL "
      "program (pdl-scale import --help)");
  add_inputs(cli, options);
  add_processors_and_output(cli, options);
  add_studies(cli, options);
  add_methods(cli, options);
  add_calibration(cli, options);
  add_graph(cli, options);
}

// Every name an option answers to: "--pmax", "-o", ...
std::vector<std::string> option_names(const CLI::App& cli) {
  std::vector<std::string> names;
  for (const CLI::Option* option : cli.get_options()) {
    for (const std::string& name : option->get_lnames()) names.push_back("--" + name);
    for (const std::string& name : option->get_snames()) names.push_back("-" + name);
  }
  return names;
}

// An argument CLI11 did not take that looks like an option ("-5" is a number, not an option).
bool looks_like_option(const std::string& argument) {
  if (argument.size() < 2 || argument[0] != '-') return false;
  return !(std::isdigit(static_cast<unsigned char>(argument[1])) != 0 || argument[1] == '.');
}

// The arguments CLI11 left over, refused: an unknown option with the known ones it may mean (a
// value after it is then left over too, and not worth a word), else the extra arguments.
Check check_no_extras(const CLI::App& cli) {
  const std::vector<std::string> extras = cli.remaining();
  if (extras.empty()) return passed();
  for (const std::string& extra : extras) {
    if (!looks_like_option(extra)) continue;
    const std::string name = extra.substr(0, extra.find('='));
    // "-pmax" and "pmax" are compared with the options' names as "--pmax" is.
    const std::size_t start = name.find_first_not_of('-');
    const std::string bare = start == std::string::npos ? std::string() : name.substr(start);
    std::vector<std::string> known;
    std::map<std::string, std::string> written;  // "pmax" -> "--pmax", "o" -> "-o"
    for (const std::string& option : option_names(cli)) {
      const std::string bare_option = option.substr(option.find_first_not_of('-'));
      if (written.emplace(bare_option, option).second) known.push_back(bare_option);
    }
    std::vector<std::string> meant = bare.empty() ? std::vector<std::string>() : nearest(bare, known);
    for (std::string& one : meant) one = written.at(one);
    if (meant.empty()) return refuse(fmt::format("unknown option '{}' (pdl-scale --help lists them)", name));
    return refuse(fmt::format("unknown option '{}'; did you mean {}?", name, quoted_alternatives(meant)));
  }
  std::string list;
  for (const std::string& extra : extras) list += (list.empty() ? "'" : " '") + extra + "'";
  return refuse(
      fmt::format("unexpected argument{} {}: pdl-scale takes one program FILE", extras.size() == 1 ? "" : "s", list));
}

// What one option implies of another: a chart of the breakdown or the sensitivities asks for them.
void add_implied(Options& options) {
  options.breakdown = options.breakdown || options.breakdown_plot.has_value();
  options.sensitivity = options.sensitivity || options.sensitivity_plot.has_value();
}

const char* kDescription = "pdl-scale: predict how a parallel program scales, from its PDL description";

// The command's memory budget unless --memory says otherwise: a quarter of the machine's
// physical memory, read here once and passed down in the request.
void set_machine_defaults(Options& options) {
  options.request.memory_budget_bytes = solvers::quarter_of(solvers::physical_memory_bytes());
}

}  // namespace

analysis::Outcome<Command, UsageError> parse_command_line(int argc, char** argv, Options options) {
  // `pdl-scale fit FILE`: the fitting tool as a subcommand. A program file named "fit" is still
  // reachable as ./fit.
  if (argc >= 2 && std::string_view(argv[1]) == "fit") {
    FitCommand fit{{"pdl-scale fit"}};
    fit.arguments.insert(fit.arguments.end(), argv + 2, argv + argc);
    return {std::move(fit), std::nullopt};
  }
  set_machine_defaults(options);
  // `pdl-scale import FORMAT FILE`: its own options (app/import.hpp).
  if (argc >= 2 && std::string_view(argv[1]) == "import") {
    return parse_import_command(argc - 1, argv + 1, options.request.memory_budget_bytes);
  }
  CLI::App cli{kDescription};
  build(cli, options);
  // Left-over arguments are collected rather than refused, so that an unknown option is named
  // with the options it may mean (no_extras).
  cli.allow_extras();
  try {
    cli.parse(argc, argv);
  } catch (const RefusedValue& refused) {
    return refuse(refused.refusal());
  } catch (const CLI::ParseError& error) {
    if (error.get_exit_code() == 0) {  // --help, --version
      std::ostringstream out;
      std::ostringstream ignored;
      cli.exit(error, out, ignored);
      return {TextCommand{out.str()}, std::nullopt};
    }
    // A usage error, worded as every other error of an option is.
    return refuse(error.what());
  }
  if (Check extras = check_no_extras(cli); !extras.ok()) return refuse(*extras.failure);
  add_implied(options);
  options.command.assign(argv, argv + argc);
  return command_from(options);
}

std::string help_text() {
  CLI::App cli{kDescription};
  Options options;
  set_machine_defaults(options);
  build(cli, options);
  return cli.help();
}

}  // namespace app
