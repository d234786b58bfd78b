// The analysis command: the options made into a study, the study run by the analysis library,
// its result rendered.
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>

#include "analysis/cost.hpp"
#include "analysis/isoefficiency.hpp"
#include "analysis/isospeed.hpp"
#include "analysis/study.hpp"
#include "app/commands.hpp"
#include "app/destinations.hpp"
#include "app/load.hpp"
#include "app/output_file.hpp"
#include "report/plot.hpp"
#include "report/plot_breakdown.hpp"
#include "report/plot_tail.hpp"
#include "app/progress.hpp"
#include "report/report.hpp"
#include "report/isospeed.hpp"
#include "app/suggest.hpp"
#include "report/wording.hpp"
#include "models/bind.hpp"
#include "models/machine_constants.hpp"

namespace app {

namespace {

// The --sweep options, checked against each other and --set (not yet against the program).
std::optional<std::vector<analysis::SweepVariable>> parse_sweeps(const Options& options, std::string* error) {
  std::vector<analysis::SweepVariable> sweeps;
  std::size_t combinations = 1;
  for (const std::string& text : options.sweeps) {
    auto variable = parse_sweep(text, error);
    if (!variable) return std::nullopt;
    for (const analysis::SweepVariable& known : sweeps) {
      if (known.name == variable->name) {
        *error = fmt::format("--sweep {}: the variable is swept twice", variable->name);
        return std::nullopt;
      }
    }
    for (const std::string& set : options.sets) {
      if (set.substr(0, set.find('=')) == variable->name) {
        *error = fmt::format("--sweep {}: the variable is also bound by --set", variable->name);
        return std::nullopt;
      }
    }
    combinations *= variable->values.size();
    if (combinations > kMaxSweepValues) {
      *error = fmt::format("--sweep: more than {} combinations of values", kMaxSweepValues);
      return std::nullopt;
    }
    sweeps.push_back(std::move(*variable));
  }
  return sweeps;
}

std::optional<double> fraction_of(const std::string& text) {
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) return std::nullopt;
  return value;
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

// The isospeed options against each other and the rest; empty when fine.
std::optional<std::string> isospeed_usage(const Options& options, bool sweeps) {
  if (options.isoefficiency) return "--isospeed and --isoefficiency each make their own table: give one";
  if (*options.isospeed != "base") {
    const std::optional<double> fraction = fraction_of(*options.isospeed);
    if (!fraction || !(*fraction > 0.0 && *fraction <= 1.0)) {
      return fmt::format("--isospeed {}: expected 'base' or a fraction of one processor's speed in (0, 1]",
                         *options.isospeed);
    }
    for (const std::string& set : options.sets) {
      if (set.substr(0, set.find('=')) == options.iso_variable) {
        return fmt::format(
            "--iso-variable {}: the variable is also bound by --set (with --isospeed A the search "
            "sets it; with --isospeed base, --set gives the base size)",
            options.iso_variable);
      }
    }
  }
  if (options.iso_variable.empty())
    return "--isospeed needs --iso-variable NAME: the variable that sets the problem size";
  if (!(options.iso_max >= 1.0 && options.iso_max <= 1e15)) {
    return fmt::format("--iso-max {}: the largest size must be in [1, 1e15]", options.iso_max);
  }
  if (sweeps || options.loss || options.plot || options.format == report::Format::Jsonl) {
    return "--isospeed makes its own table: no --sweep, --loss, --plot or --format jsonl with it";
  }
  return std::nullopt;
}

// The isoefficiency options against each other and the rest; empty when fine.
std::optional<std::string> isoefficiency_usage(const Options& options, bool sweeps) {
  if (!options.iso_range.empty() && !options.isoefficiency) {
    return "--iso-range needs --isoefficiency E with a machine constant as --iso-variable";
  }
  if (options.isospeed) return isospeed_usage(options, sweeps);
  if (!options.isoefficiency) {
    if (!options.iso_variable.empty()) return "--iso-variable needs --isoefficiency E or --isospeed";
    return std::nullopt;
  }
  const double target = *options.isoefficiency;
  if (!(target > 0.0 && target <= 1.0))
    return fmt::format("--isoefficiency {}: the efficiency must be in (0, 1]", target);
  if (options.iso_variable.empty())
    return "--isoefficiency needs --iso-variable NAME: the variable that sets the problem size";
  for (const std::string& set : options.sets) {
    if (set.substr(0, set.find('=')) == options.iso_variable) {
      return fmt::format("--iso-variable {}: the variable is also bound by --set", options.iso_variable);
    }
  }
  if (!(options.iso_max >= 1.0 && options.iso_max <= 1e15)) {
    return fmt::format("--iso-max {}: the largest size must be in [1, 1e15]", options.iso_max);
  }
  if (!options.iso_range.empty() && !iso_range(options.iso_range)) {
    return fmt::format("--iso-range {}: give LO..HI with finite numbers 0 < LO < HI", options.iso_range);
  }
  if (sweeps || options.loss || options.plot || options.quantiles || options.tail_plot ||
      options.format == report::Format::Jsonl) {
    return "--isoefficiency makes its own table: no --sweep, --loss, --plot, --quantiles, --tail-plot or --format jsonl "
           "with it";
  }
  return std::nullopt;
}

// The name of each program in the reports when there are several: its file name without the
// directories; where two are equal, the path as given; where those are equal too (one file given
// twice), "#2", "#3", ... after the later ones.
std::vector<std::string> program_labels(const std::vector<std::string>& files) {
  std::vector<std::string> labels;
  for (const std::string& file : files) labels.push_back(std::filesystem::path(file).filename().string());
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (std::count(labels.begin(), labels.end(), labels[i]) > 1) {
      const std::string shared = labels[i];
      for (std::size_t j = 0; j < files.size(); ++j) {
        if (labels[j] == shared) labels[j] = files[j];
      }
    }
  }
  std::map<std::string, int> seen;
  for (std::string& label : labels) {
    const int count = ++seen[label];
    if (count > 1) label += "#" + std::to_string(count);
  }
  return labels;
}

// Every program on every machine (program-major: the program is the cases' outermost
// dimension), each checked there; two machines of one name are an error. With several
// programs, each is labelled and ignores the --set and swept names it does not declare.
std::optional<std::vector<Loaded>> load_machines(const Options& options,
                                                 const std::map<std::string, double>& check_values, std::ostream& err) {
  std::vector<std::optional<std::string>> files(options.machine_files.begin(), options.machine_files.end());
  if (files.empty()) files.emplace_back(std::nullopt);
  const std::vector<std::string> programs = program_files(options);
  const bool several = programs.size() > 1;
  const std::vector<std::string> labels = program_labels(programs);
  std::vector<Loaded> machines;
  for (std::size_t k = 0; k < programs.size(); ++k) {
    for (std::size_t m = 0; m < files.size(); ++m) {
      auto loaded = load(options, programs[k], files[m], check_values, several || files.size() > 1, err);
      if (!loaded) return std::nullopt;
      if (several) loaded->program_label = labels[k];
      loaded->program_index = k;
      auto ends = interval_machines(std::move(*loaded), check_values, err);
      if (!ends) return std::nullopt;
      for (Loaded& one : *ends) {
        for (const Loaded& known : machines) {
          if (known.program_index == k && known.machine.name == one.machine.name) {
            usage_error(err, fmt::format("--machine {}: a machine named '{}' is already given",
                                         files[m].value_or("(ideal)"), one.machine.name));
            return std::nullopt;
          }
        }
        machines.push_back(std::move(one));
      }
    }
  }
  return machines;
}

// The machines of one program: those given, a machine with interval-valued constants counting
// twice (its lower and upper machine).
std::size_t machines_per_program(const std::vector<Loaded>& machines) {
  return static_cast<std::size_t>(
      std::count_if(machines.begin(), machines.end(), [](const Loaded& loaded) { return loaded.program_index == 0; }));
}

// The first Loaded of each program (they repeat per machine).
std::vector<const Loaded*> one_per_program(const std::vector<Loaded>& machines, std::size_t machine_count) {
  std::vector<const Loaded*> programs;
  for (std::size_t i = 0; i < machines.size(); i += machine_count) programs.push_back(&machines[i]);
  return programs;
}

// A variable of the program or a constant of the machine.
bool declared_by(const Loaded& loaded, const std::string& name) {
  return models::declares_variable(*loaded.program, name) || models::declares_constant(loaded.machine, name);
}

// "OPTION NAME: ..." for a name no program and no machine declares, with what each declares and
// the names it may mean.
std::string declared_nowhere_text(const std::string& option, const std::string& name,
                                  const std::vector<Loaded>& machines, const std::vector<const Loaded*>& programs,
                                  std::size_t machine_count) {
  std::vector<std::string> every;
  std::string declared;
  for (const Loaded* program : programs) {
    std::string list;
    for (const models::Variable& variable : program->program->variables) {
      every.push_back(variable.name);
      list += (list.empty() ? "" : ", ") + variable.name;
    }
    declared += fmt::format("{}{} declares {}", declared.empty() ? "" : "; ",
                            program->program_label.empty() ? std::string("the program") : program->program_label,
                            list.empty() ? std::string("none") : list);
  }
  std::string constants;
  for (std::size_t m = 0; m < machine_count; ++m) {
    std::string list;
    for (const auto& [constant, value] : machines[m].machine.constants) {
      every.push_back(constant);
      list += (list.empty() ? "" : ", ") + constant;
    }
    if (!list.empty()) constants += fmt::format("; machine '{}' has {}", machines[m].machine.name, list);
  }
  std::sort(every.begin(), every.end());
  every.erase(std::unique(every.begin(), every.end()), every.end());
  const std::vector<std::string> meant = nearest(name, every);
  return fmt::format("{} {}: {} variable '{}'{}{} ({}{})", option, name,
                     programs.size() > 1 ? "no program declares a" : "the program declares no", name,
                     constants.empty() ? std::string() : fmt::format(" nor a machine a constant '{}'", name),
                     meant.empty() ? std::string() : "; did you mean " + quoted_alternatives(meant) + "?", declared,
                     constants);
}

// A note for each (program, machine) in `ignoring` that it ignores the name.
void note_ignored(const std::string& option, const std::string& name, const std::vector<const Loaded*>& ignoring,
                  std::size_t machine_count, std::ostream& err) {
  for (const Loaded* loaded : ignoring) {
    if (machine_count == 1) {
      err << fmt::format("pdl-scale: note: {} {}: {} declares no variable '{}' and ignores it\n", option, name,
                         loaded->program_label, name);
    } else {
      err << fmt::format(
          "pdl-scale: note: {} {}: {}machine '{}' has no constant '{}' (nor the program a variable "
          "of that name) and ignores it\n",
          option, name, loaded->program_label.empty() ? "" : loaded->program_label + " on ", loaded->machine.name,
          name);
    }
  }
}

// Every --set and --sweep name must be a variable of a program or a constant of a machine: an
// error naming what each declares when none has it; a note for each (program, machine) that
// lacks one that another has, and ignores it.
bool names_declared_somewhere(const Options& options, const std::vector<Loaded>& machines,
                              const std::vector<analysis::SweepVariable>& sweeps, std::ostream& err) {
  const std::size_t machine_count = machines_per_program(machines);
  const std::vector<const Loaded*> programs = one_per_program(machines, machine_count);
  std::vector<std::pair<std::string, std::string>> names;  // (option, name) in the order given
  for (const std::string& set : options.sets) names.emplace_back("--set", set.substr(0, set.find('=')));
  for (const analysis::SweepVariable& sweep : sweeps) names.emplace_back("--sweep", sweep.name);
  for (const auto& [option, name] : names) {
    std::vector<const Loaded*> ignoring;
    for (const Loaded& loaded : machines) {
      if (!declared_by(loaded, name)) ignoring.push_back(&loaded);
    }
    if (ignoring.size() == machines.size() && machines.size() == 1) {
      usage_error(err, unknown_variable_text(*machines.front().program, machines.front().machine, name, option));
      return false;
    }
    if (ignoring.size() == machines.size()) {
      usage_error(err, declared_nowhere_text(option, name, machines, programs, machine_count));
      return false;
    }
    note_ignored(option, name, ignoring, machine_count, err);
  }
  return true;
}

// An error unless `name` is a variable of the program (--isospeed), or of the program or a
// constant of every machine (--isoefficiency).
bool is_searchable(const Options& options, const std::vector<Loaded>& machines, std::ostream& err) {
  const std::string& name = options.iso_variable;
  const Loaded& first = machines.front();
  if (models::declares_variable(*first.program, name)) {
    if (options.iso_range.empty()) return true;
    usage_error(err, fmt::format("--iso-range: {} is a program variable, searched over the integers up to --iso-max; "
                                 "--iso-range is for a machine constant",
                                 name));
    return false;
  }
  if (options.isoefficiency) {
    const auto lacking = std::find_if(machines.begin(), machines.end(), [&](const Loaded& loaded) {
      return !models::declares_constant(loaded.machine, name);
    });
    if (lacking == machines.end()) return true;
    if (lacking != machines.begin()) {
      usage_error(err, fmt::format("--iso-variable {}: machine '{}' has no constant '{}' (a search over a machine "
                                   "constant needs it on every machine)",
                                   name, lacking->machine.name, name));
      return false;
    }
  }
  if (options.isospeed && models::declares_constant(first.machine, name)) {
    usage_error(err,
                fmt::format("--iso-variable {}: --isospeed searches a program variable (the problem size); '{}' is "
                            "a constant of machine '{}' (--isoefficiency can search it)",
                            name, name, first.machine.name));
    return false;
  }
  usage_error(
      err, unknown_variable_text(*first.program, options.isoefficiency ? first.machine : models::ideal_machine(), name,
                                 "--iso-variable"));
  return false;
}

// A program's variables as bound on the first machine, with the first swept value (or size 1) for
// a variable that is swept or searched, which may have no default: those not swept into
// `variables`, the expressions of P (weak scaling) into `per_processor`. False with the errors
// printed (named with the program's label when there are several).
bool bound_variables(const Options& options, const Loaded& loaded, const std::vector<analysis::SweepVariable>& sweeps,
                     const std::map<std::string, double>& check_values, std::map<std::string, double>& variables,
                     std::map<std::string, std::string>& per_processor, std::ostream& err) {
  const models::Program& program = *loaded.program;
  std::map<std::string, double> values = loaded.sets;
  for (const auto& [name, value] : check_values) {
    // Not a machine constant, nor a name another program has.
    if (models::declares_variable(program, name)) values[name] = value;
  }
  const bool searched =
      (options.isoefficiency || isospeed_fraction(options)) && models::declares_variable(program, options.iso_variable);
  if (searched) values[options.iso_variable] = 1;
  const models::Binding binding = models::bind(program, loaded.machine, values);
  if (!binding.ok()) {
    const std::string label = loaded.program_label.empty() ? std::string() : loaded.program_label + ": ";
    for (const models::BindError& error : binding.errors)
      err << "pdl-scale: error: " << label << report::bind_error_text(error) << '\n';
    return false;
  }
  for (const auto& variable : binding.environment.per_processor) {
    per_processor.emplace(variable.name, models::to_string(variable.value));
  }
  for (const models::Variable& variable : program.variables) {
    const auto found = binding.environment.values.find(variable.name);
    if (found != binding.environment.values.end()) variables[variable.name] = found->second;
  }
  for (const analysis::SweepVariable& sweep : sweeps) variables.erase(sweep.name);
  if (options.isoefficiency || isospeed_fraction(options)) variables.erase(options.iso_variable);
  return true;
}

// What the reports echo: the program(s), the machines and the variables as bound on the first
// machine. With several programs each has its own variables (report::ReportInputs::programs), and the
// weak-scaling expressions are those of every program (the first program's where two differ).
std::optional<report::ReportInputs> report_inputs(const Options& options, const std::vector<Loaded>& machines,
                                                  const std::vector<analysis::SweepVariable>& sweeps,
                                                  const std::map<std::string, double>& check_values,
                                                  std::ostream& err) {
  report::ReportInputs inputs;
  const std::size_t machine_count = machines_per_program(machines);
  const std::vector<const Loaded*> programs = one_per_program(machines, machine_count);
  const std::vector<std::string> files = program_files(options);
  for (std::size_t m = 0; m < machine_count; ++m) {
    inputs.machines.push_back(
        {machines[m].machine.name, machines[m].machine_file, machines[m].machine_sets, machines[m].band});
  }
  inputs.sweeps = sweeps;
  inputs.loss = options.loss;
  inputs.time_unit = options.time_unit;
  inputs.command = options.command;
  inputs.scaling_laws = options.scaling_laws;
  for (std::size_t k = 0; k < programs.size(); ++k) {
    report::ProgramInput program{programs[k]->program_label, programs[k]->program->name, files[k], {}};
    if (!bound_variables(options, *programs[k], sweeps, check_values, program.variables, inputs.per_processor_variables,
                         err)) {
      return std::nullopt;
    }
    inputs.programs.push_back(std::move(program));
  }
  inputs.program_name = inputs.programs.front().name;
  inputs.program_file = inputs.programs.front().file;
  inputs.variables = inputs.programs.front().variables;
  if (inputs.programs.size() > 1) {
    // The charts' titles name the programs as their legends do; their subtitles, which show
    // `variables`, show none rather than the first program's.
    inputs.variables.clear();
    inputs.program_name.clear();
    inputs.program_file.clear();
    for (const report::ProgramInput& program : inputs.programs) {
      inputs.program_name += (inputs.program_name.empty() ? "" : ", ") + program.label;
      inputs.program_file += (inputs.program_file.empty() ? "" : ", ") + program.file;
    }
  }
  return inputs;
}

std::vector<analysis::MachineInput> machine_inputs(const std::vector<Loaded>& machines) {
  std::vector<analysis::MachineInput> inputs;
  for (const Loaded& loaded : machines) {
    inputs.push_back(
        {loaded.program, loaded.machine, loaded.machine_file, loaded.sets, loaded.program_index, loaded.program_label});
  }
  return inputs;
}

int run_isoefficiency(const Options& options, const std::vector<Loaded>& machines, const report::ReportInputs& inputs,
                      std::ostream& out, std::ostream& err) {
  analysis::IsoefficiencyOptions iso;
  iso.target = *options.isoefficiency;
  iso.variable = options.iso_variable;
  iso.max_size = options.iso_max;
  if (const auto range = iso_range(options.iso_range)) {
    iso.constant_min = range->first;
    iso.constant_max = range->second;
  }
  iso.series_parallel.grid = inputs.request.solver_options.series_parallel.grid;
  const auto points =
      analysis::run_isoefficiency(machine_inputs(machines), inputs.request.processors, iso, inputs.request.threads);
  if (!points.ok()) {
    print_failure(*points.failure, machines, err);
    return kExitInput;
  }
  return emit(options, report::render_isoefficiency(*points.value, iso, inputs, options.format), out, err);
}

int run_isospeed(const Options& options, const std::vector<Loaded>& machines, const report::ReportInputs& inputs,
                 std::ostream& out, std::ostream& err) {
  if (!isospeed_fraction(options) && inputs.per_processor_variables.count(options.iso_variable) != 0) {
    return usage_error(err, fmt::format("--isospeed base: {} is an expression of P, so the smallest p has no one size "
                                        "to hold: give it with --set {}=N",
                                        options.iso_variable, options.iso_variable));
  }
  analysis::IsospeedOptions iso;
  iso.variable = options.iso_variable;
  iso.fraction = isospeed_fraction(options);
  iso.max_size = options.iso_max;
  iso.series_parallel.grid = inputs.request.solver_options.series_parallel.grid;
  std::vector<analysis::MachineInput> searched = machine_inputs(machines);
  const auto result = analysis::run_isospeed(searched, inputs.request.processors, iso, inputs.request.threads);
  if (!result.ok()) {
    print_failure(*result.failure, machines, err);
    return kExitInput;
  }
  return emit(options, report::render_isospeed(*result.value, iso, inputs, options.format), out, err);
}

// "10 min", "1 h", "90 s": --time-limit as given.
std::string limit_text(double seconds) {
  if (seconds >= 3600.0 && std::fmod(seconds, 3600.0) == 0.0) return fmt::format("{:g} h", seconds / 3600.0);
  if (seconds >= 60.0 && std::fmod(seconds, 60.0) == 0.0) return fmt::format("{:g} min", seconds / 60.0);
  return fmt::format("{:g} s", seconds);
}

// The run's estimated wall time against --time-limit: false (with the message, exit 2) when
// over it without --allow-long; said on stderr once when long and stderr is a terminal.
bool within_time_limit(const Options& options, const std::vector<analysis::Case>& cases,
                       const analysis::Request& request, std::ostream& err, bool terminal) {
  const bool announce = terminal && !options.quiet;
  if (options.allow_long && !announce) return true;
  const auto cost = analysis::estimate_cost(cases, request);
  if (!cost) return true;  // a model cannot be built: the study says why
  std::string largest;
  for (std::size_t k = 0; k < cost->parts.size() && k < 3; ++k) {
    largest += (k == 0 ? "" : "; ") + analysis::describe(cost->parts[k]);
  }
  const std::string bound = cost->states_at_limit ? " (at most: some state spaces counted at --max-states)" : "";
  if (cost->seconds > options.time_limit_seconds && !options.allow_long) {
    err << fmt::format(
        "pdl-scale: error: this analysis would take {}{} (estimated for {} distinct models on the "
        "reference machine of docs/performance.md), more than the limit of {}; the largest parts: "
        "{}. Give --allow-long to run it anyway, or --time-limit to raise the limit; fewer processor "
        "counts (--p) or methods (--method) make it shorter\n",
        analysis::duration_text(cost->seconds), bound, cost->models, limit_text(options.time_limit_seconds), largest);
    return false;
  }
  if (announce && cost->seconds > kAnnounceEstimateSeconds) {
    err << fmt::format("pdl-scale: this analysis will take {}{} (estimated; largest part: {})\n",
                       analysis::duration_text(cost->seconds), bound,
                       cost->parts.empty() ? std::string("none") : analysis::describe(cost->parts.front()));
  }
  return true;
}

// Every (machine, combination of swept values) and, for --loss, every phase alone, solved over
// the processor counts; the report, and the chart first when asked (when it cannot be
// written, the report is not written either).
int run_speedups(const Options& options, const std::vector<Loaded>& machines, const report::ReportInputs& inputs,
                 std::ostream& out, std::ostream& err, bool terminal) {
  const auto cases = analysis::make_cases(machine_inputs(machines), inputs.sweeps, options.loss);
  if (!cases.ok()) {
    print_failure(*cases.failure, machines, err);
    return kExitInput;
  }
  if (!within_time_limit(options, *cases.value, inputs.request, err, terminal)) return kExitInput;
  ProgressBar bar(terminal && !options.quiet, stderr);
  const auto study = analysis::run_study(*cases.value, inputs.request,
                                         [&bar](double done, std::size_t total) { bar.update(done, total); });
  bar.finish();
  if (!study.ok()) {
    print_failure(*study.failure, machines, err);
    return kExitInput;
  }
  if (options.plot && options.output_rank) {
    if (const auto error =
            write_output_file(*options.plot, report::render_plot(*study.value, inputs, {options.log_axes}))) {
      return usage_error(err, "--plot: " + *error);
    }
  }
  if (options.tail_plot && options.output_rank) {
    if (const auto error =
            write_output_file(*options.tail_plot, report::render_tail_plot(*study.value, inputs, {options.log_axes}))) {
      return usage_error(err, "--tail-plot: " + *error);
    }
  }
  if (options.breakdown_plot && options.output_rank) {
    if (const auto error =
            write_output_file(*options.breakdown_plot, report::render_breakdown_plot(*study.value, inputs))) {
      return usage_error(err, "--breakdown-plot: " + *error);
    }
  }
  return emit(options, report::render(*study.value, inputs, options.format), out, err);
}

}  // namespace

int run_analysis(const Options& options, std::ostream& out, std::ostream& err, bool terminal) {
  if (const auto problem = several_programs_problem(options)) return usage_error(err, *problem);
  std::string error;
  const auto request = analysis_request(options, &error);
  if (!request) return usage_error(err, error);
  std::vector<std::string> notes;
  if (const auto problem = method_option_problems(options, request->methods, &notes)) return usage_error(err, *problem);
  for (const std::string& note : notes) err << "pdl-scale: note: " << note << '\n';
  const auto sweeps = parse_sweeps(options, &error);
  if (!sweeps) return usage_error(err, error);
  if (const auto iso_error = isoefficiency_usage(options, !sweeps->empty())) return usage_error(err, *iso_error);
  if (options.scaling_laws && (options.isoefficiency || options.isospeed || options.format == report::Format::Csv ||
                               options.format == report::Format::Jsonl)) {
    return usage_error(err,
                       "--scaling-laws: shown under the speedup table and in its JSON only (not with csv, jsonl, "
                       "--isoefficiency or --isospeed)");
  }
  if (options.breakdown && (options.isoefficiency || options.isospeed || options.format == report::Format::Jsonl)) {
    return usage_error(err, fmt::format("{}: the split of each p's prediction goes with the speedup table, its CSV and "
                                        "JSON (not with jsonl, --isoefficiency or --isospeed)",
                                        options.breakdown_plot ? "--breakdown-plot" : "--breakdown"));
  }

  std::map<std::string, double> check_values;
  for (const analysis::SweepVariable& sweep : *sweeps) check_values[sweep.name] = sweep.values.front();
  const auto machines = load_machines(options, check_values, err);
  if (!machines) return kExitInput;
  if (!check_destinations(options, *machines, err)) return kExitInput;
  if (!names_declared_somewhere(options, *machines, *sweeps, err)) return kExitInput;
  if ((options.isoefficiency || options.isospeed) && !is_searchable(options, *machines, err)) return kExitInput;
  auto inputs = report_inputs(options, *machines, *sweeps, check_values, err);
  if (!inputs) return kExitInput;
  inputs->request = *request;
  if (options.isoefficiency) return run_isoefficiency(options, *machines, *inputs, out, err);
  if (options.isospeed) return run_isospeed(options, *machines, *inputs, out, err);
  return run_speedups(options, *machines, *inputs, out, err, terminal);
}

}  // namespace app
