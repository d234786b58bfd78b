// The checks that make Options into a Command, moved here from the modes' run functions so
// that every one is done once, before anything is read.
#include "app/command_checks.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

#include "solvers/solver.hpp"

namespace app {

bool is_runs_file(const std::string& path) {
  static constexpr std::string_view kExtension = ".csv";
  return path.size() >= kExtension.size() &&
         path.compare(path.size() - kExtension.size(), kExtension.size(), kExtension) == 0;
}

namespace {

std::optional<double> fraction_of(const std::string& text) {
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

// --iso-variable and --iso-max of a search (`search` its option: "--isospeed"): the variable
// given, not bound by --set when `set_why` is given (what the search does with it), and the
// largest size in range.
Check check_iso_variable(const Options& options, const char* search, std::optional<std::string> set_why) {
  if (options.iso_variable.empty()) {
    return refuse(fmt::format("{} needs --iso-variable NAME: the variable that sets the problem size", search));
  }
  for (const std::string& set : options.sets) {
    if (set_why && set.substr(0, set.find('=')) == options.iso_variable) {
      return refuse(
          fmt::format("--iso-variable {}: the variable is also bound by --set{}", options.iso_variable, *set_why));
    }
  }
  if (!(options.iso_max >= 1.0 && options.iso_max <= 1e15)) {
    return refuse(fmt::format("--iso-max {}: the largest size must be in [1, 1e15]", options.iso_max));
  }
  return passed();
}

// The isospeed options against each other and the rest.
Check check_isospeed(const Options& options, bool sweeps) {
  if (options.isoefficiency) return refuse("--isospeed and --isoefficiency each make their own table: give one");
  const bool base = *options.isospeed == "base";
  if (!base) {
    const std::optional<double> fraction = fraction_of(*options.isospeed);
    if (!fraction || !(*fraction > 0.0 && *fraction <= 1.0)) {
      return refuse(fmt::format("--isospeed {}: expected 'base' or a fraction of one processor's speed in (0, 1]",
                                as_written(*options.isospeed)));
    }
  }
  const auto set_why = base ? std::nullopt
                            : std::optional<std::string>(
                                  " (with --isospeed A the search sets it; with --isospeed base, --set gives the base "
                                  "size)");
  if (Check variable = check_iso_variable(options, "--isospeed", set_why); !variable.ok()) return variable;
  if (sweeps || options.loss || options.plot || options.format == report::Format::Jsonl) {
    return refuse("--isospeed makes its own table: no --sweep, --loss, --plot or --format jsonl with it");
  }
  return passed();
}

// The isoefficiency options against each other and the rest.
Check check_isoefficiency(const Options& options, bool sweeps) {
  if (!options.iso_range.empty() && !options.isoefficiency) {
    return refuse("--iso-range needs --isoefficiency E with a machine constant as --iso-variable");
  }
  if (options.isospeed) return check_isospeed(options, sweeps);
  if (!options.isoefficiency) {
    if (!options.iso_variable.empty()) return refuse("--iso-variable needs --isoefficiency E or --isospeed");
    return passed();
  }
  const double target = *options.isoefficiency;
  if (!(target > 0.0 && target <= 1.0)) {
    return refuse(fmt::format("--isoefficiency {}: the efficiency must be in (0, 1]", target));
  }
  if (Check variable = check_iso_variable(options, "--isoefficiency", ""); !variable.ok()) return variable;
  if (!options.iso_range.empty() && !iso_range(options.iso_range)) {
    return refuse(fmt::format("--iso-range {}: give LO..HI with finite numbers 0 < LO < HI", options.iso_range));
  }
  if (sweeps || options.loss || options.plot || options.quantiles || options.tail_plot ||
      options.format == report::Format::Jsonl) {
    return refuse(
        "--isoefficiency makes its own table: no --sweep, --loss, --plot, --quantiles, --tail-plot or --format jsonl "
        "with it");
  }
  return passed();
}

// --fit's names and the files of --write-fit and --validation-plot against the runs given.
Check check_calibration_files(const Options& options) {
  if (!options.calibrate && !options.fit.empty())
    return refuse("--fit names what --calibrate RUNS.csv fits: give the runs");
  if (options.calibrate && options.fit.empty()) {
    return refuse("--calibrate needs --fit NAMES: the variables or constants to fit");
  }
  for (const std::string& name : options.fit) {
    if (name.empty()) return refuse("--fit: an empty name in the list");
  }
  if (options.write_fit && !options.calibrate)
    return refuse("--write-fit writes what --calibrate fits: give --calibrate");
  if (options.validation_plot && !options.validate) {
    return refuse("--validation-plot draws what --validate scores: give --validate");
  }
  if (options.validation_plot && !(options.validation_plot->size() > 4 &&
                                   options.validation_plot->substr(options.validation_plot->size() - 4) == ".svg")) {
    return refuse(
        fmt::format("--validation-plot {}: the chart is an SVG file: name it FILE.svg", *options.validation_plot));
  }
  return passed();
}

// What --calibrate and --validate refuse among the other options.
Check check_calibration(const Options& options) {
  if (Check files = check_calibration_files(options); !files.ok()) return files;
  if (!(options.interval_percent > 0.0 && options.interval_percent < 100.0)) {
    return refuse(fmt::format("--interval {}: the level is a percentage in (0, 100)", options.interval_percent));
  }
  if (options.draws < 10 || options.draws > 100000) {
    return refuse(fmt::format("--draws {}: the parameter draws must be in [10, 100000]", options.draws));
  }
  if (!options.other_files.empty() || options.machine_files.size() > 1) {
    return refuse("--calibrate and --validate take one program and at most one machine");
  }
  if (options.format == report::Format::Jsonl) {
    return refuse("--calibrate and --validate print a table, CSV or JSON (--format table|csv|json)");
  }
  if (!options.sweeps.empty() || options.loss || options.isoefficiency || options.isospeed || options.plot ||
      options.tail_plot || options.breakdown || options.scaling_laws || options.quantiles || options.sensitivity) {
    return refuse(
        "--calibrate and --validate make their own report: no --sweep, --loss, --isoefficiency, --isospeed, "
        "--plot, --tail-plot, --breakdown, --scaling-laws, --quantiles or --sensitivity with them");
  }
  return passed();
}

}  // namespace

// The --sweep options, checked against each other and --set (not yet against the program).
Checked<std::vector<analysis::SweepVariable>> parse_sweeps(const Options& options) {
  std::vector<analysis::SweepVariable> sweeps;
  std::size_t combinations = 1;
  for (const std::string& text : options.sweeps) {
    auto parsed = parse_sweep(text);
    if (!parsed.ok()) return refuse(*parsed.failure);
    const analysis::SweepVariable& variable = *parsed.value;
    for (const analysis::SweepVariable& known : sweeps) {
      if (known.name == variable.name) {
        return refuse(fmt::format("--sweep {}: the variable is swept twice", variable.name));
      }
    }
    for (const std::string& set : options.sets) {
      if (set.substr(0, set.find('=')) == variable.name) {
        return refuse(fmt::format("--sweep {}: the variable is also bound by --set", variable.name));
      }
    }
    combinations *= variable.values.size();
    if (combinations > kMaxSweepValues) {
      return refuse(fmt::format("--sweep: more than {} combinations of values", kMaxSweepValues));
    }
    sweeps.push_back(std::move(*parsed.value));
  }
  return {std::move(sweeps), std::nullopt};
}

// --iso-range LO..HI: both ends finite, 0 < LO < HI; empty when malformed.
std::optional<std::pair<double, double>> iso_range(const std::string& text) {
  const std::size_t dots = text.find("..");
  if (dots == std::string::npos) return std::nullopt;
  const auto low = fraction_of(text.substr(0, dots));
  const auto high = fraction_of(text.substr(dots + 2));
  if (!low || !high || !(*low > 0.0 && *low < *high)) return std::nullopt;
  return std::pair{*low, *high};
}

// --isospeed A: the fraction of one processor's speed; empty for "base" (or no --isospeed).
std::optional<double> isospeed_fraction(const Options& options) {
  if (!options.isospeed || *options.isospeed == "base") return std::nullopt;
  return fraction_of(*options.isospeed);
}

Check check_study(const Options& options, bool sweeps) {
  if (Check search = check_isoefficiency(options, sweeps); !search.ok()) return search;
  if (options.scaling_laws && (options.isoefficiency || options.isospeed || options.format == report::Format::Csv ||
                               options.format == report::Format::Jsonl)) {
    return refuse(
        "--scaling-laws: shown under the speedup table and in its JSON only (not with csv, jsonl, "
        "--isoefficiency or --isospeed)");
  }
  if (options.breakdown && (options.isoefficiency || options.isospeed || options.format == report::Format::Jsonl)) {
    return refuse(
        fmt::format("{}: the split of each p's prediction goes with the speedup table, its CSV and "
                    "JSON (not with jsonl, --isoefficiency or --isospeed)",
                    options.breakdown_plot ? "--breakdown-plot" : "--breakdown"));
  }
  if (options.sensitivity && (options.isoefficiency || options.isospeed || options.format == report::Format::Jsonl)) {
    return refuse(
        fmt::format("{}: the elasticities of each p's prediction go with the speedup table, its CSV and JSON (not "
                    "with jsonl, --isoefficiency or --isospeed)",
                    options.sensitivity_plot ? "--sensitivity-plot" : "--sensitivity"));
  }
  return passed();
}

Checked<NotedRequest> calibration_request(const Options& options) {
  if (Check usage = check_calibration(options); !usage.ok()) return refuse(*usage.failure);
  auto request = analysis_request(options);
  if (!request.ok()) return refuse(*request.failure);
  if (options.methods) {
    for (const solvers::Method method : request.value->methods) {
      if (method != solvers::Method::SeriesParallel && method != solvers::Method::Bounds) {
        return refuse(
            fmt::format("--method {}: --calibrate and --validate use approx (the fit, the "
                        "predictions) and bounds (RatioLB and RatioUB); give those",
                        solvers::to_string(method)));
      }
    }
  }
  // The options of methods this command does not run are refused as the analysis refuses them;
  // --seed is not a no-op here (it fixes the parameter draws), so its note is not kept.
  auto notes = method_option_notes(options, request.value->methods);
  if (!notes.ok()) return refuse(*notes.failure);
  NotedRequest noted{std::move(*request.value), {}};
  for (std::string& note : *notes.value) {
    if (!note.starts_with("--seed")) noted.notes.push_back(std::move(note));
  }
  return {std::move(noted), std::nullopt};
}

}  // namespace app
