// The analysis command: the options made into a study, the study run by the analysis library,
// its result rendered.
#include <fmt/format.h>

#include "analysis/isoefficiency.hpp"
#include "analysis/study.hpp"
#include "app/commands.hpp"
#include "app/destinations.hpp"
#include "app/load.hpp"
#include "app/output_file.hpp"
#include "app/plot.hpp"
#include "app/plot_tail.hpp"
#include "app/progress.hpp"
#include "app/report.hpp"
#include "models/bind.hpp"

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

// The isoefficiency options against each other and the rest; empty when fine.
std::optional<std::string> isoefficiency_usage(const Options& options, bool sweeps) {
  if (!options.isoefficiency) {
    if (!options.iso_variable.empty()) return "--iso-variable needs --isoefficiency E";
    return std::nullopt;
  }
  const double target = *options.isoefficiency;
  if (!(target > 0.0 && target <= 1.0)) return fmt::format("--isoefficiency {}: the efficiency must be in (0, 1]", target);
  if (options.iso_variable.empty()) return "--isoefficiency needs --iso-variable NAME: the variable that sets the problem size";
  for (const std::string& set : options.sets) {
    if (set.substr(0, set.find('=')) == options.iso_variable) {
      return fmt::format("--iso-variable {}: the variable is also bound by --set", options.iso_variable);
    }
  }
  if (!(options.iso_max >= 1.0 && options.iso_max <= 1e15)) {
    return fmt::format("--iso-max {}: the largest size must be in [1, 1e15]", options.iso_max);
  }
  if (sweeps || options.loss || options.plot || options.quantiles || options.tail_plot || options.format == Format::Jsonl) {
    return "--isoefficiency makes its own table: no --sweep, --loss, --plot, --quantiles, --tail-plot or --format jsonl "
           "with it";
  }
  return std::nullopt;
}

// Every machine, with the program checked on it; two machines of one name are an error.
std::optional<std::vector<Loaded>> load_machines(const Options& options, const std::map<std::string, double>& check_values,
                                                 std::ostream& err) {
  std::vector<std::optional<std::string>> files(options.machine_files.begin(), options.machine_files.end());
  if (files.empty()) files.emplace_back(std::nullopt);
  std::vector<Loaded> machines;
  for (const auto& file : files) {
    auto loaded = load(options, file, check_values, err);
    if (!loaded) return std::nullopt;
    for (const Loaded& known : machines) {
      if (known.machine.name == loaded->machine.name) {
        usage_error(err, fmt::format("--machine {}: a machine named '{}' is already given", file.value_or("(ideal)"),
                                     known.machine.name));
        return std::nullopt;
      }
    }
    machines.push_back(std::move(*loaded));
  }
  return machines;
}

// An error unless `name` is a variable of the program.
bool is_program_variable(const models::Program& program, const std::string& name, const std::string& option,
                         std::ostream& err) {
  std::string known;
  for (const models::Variable& variable : program.variables) {
    if (variable.name == name) return true;
    known += (known.empty() ? "" : ", ") + variable.name;
  }
  err << fmt::format("pdl-scale: error: {} {}: the program declares no variable '{}' ({})\n", option, name, name,
                     known.empty() ? std::string("it declares none") : "it declares " + known);
  return false;
}

// What the reports echo: the program, the machines and the variables as bound on the first
// machine, with the first swept value (or size 1) for a variable that is swept or searched,
// which may have no default.
std::optional<ReportInputs> report_inputs(const Options& options, const std::vector<Loaded>& machines,
                                          const std::vector<analysis::SweepVariable>& sweeps,
                                          const std::map<std::string, double>& check_values, std::ostream& err) {
  ReportInputs inputs;
  const models::Program& program = *machines.front().program;
  inputs.program_name = program.name;
  inputs.program_file = options.file;
  for (const Loaded& loaded : machines) inputs.machines.push_back({loaded.machine.name, loaded.machine_file});
  inputs.sweeps = sweeps;
  inputs.loss = options.loss;
  std::map<std::string, double> values = machines.front().sets;
  for (const auto& [name, value] : check_values) values[name] = value;
  if (options.isoefficiency) values[options.iso_variable] = 1;
  const models::Binding binding = models::bind(program, machines.front().machine, values);
  if (!binding.ok()) {
    print_bind_errors(binding.errors, err);
    return std::nullopt;
  }
  for (const models::Variable& variable : program.variables) {
    const auto found = binding.environment.values.find(variable.name);
    if (found != binding.environment.values.end()) inputs.variables[variable.name] = found->second;
  }
  for (const analysis::SweepVariable& sweep : sweeps) inputs.variables.erase(sweep.name);
  if (options.isoefficiency) inputs.variables.erase(options.iso_variable);
  return inputs;
}

std::vector<analysis::MachineInput> machine_inputs(const std::vector<Loaded>& machines) {
  std::vector<analysis::MachineInput> inputs;
  for (const Loaded& loaded : machines) inputs.push_back({loaded.program, loaded.machine, loaded.machine_file, loaded.sets});
  return inputs;
}

int run_isoefficiency(const Options& options, const std::vector<Loaded>& machines, const ReportInputs& inputs,
                      std::ostream& out, std::ostream& err) {
  analysis::IsoefficiencyOptions iso;
  iso.target = *options.isoefficiency;
  iso.variable = options.iso_variable;
  iso.max_size = options.iso_max;
  iso.series_parallel.grid = inputs.request.solver_options.series_parallel.grid;
  const auto points = analysis::run_isoefficiency(machine_inputs(machines), inputs.request.processors, iso,
                                                  inputs.request.threads);
  if (!points.ok()) {
    print_failure(*points.failure, machines, err);
    return kExitInput;
  }
  return emit(options, render_isoefficiency(*points.value, iso, inputs, options.format), out, err);
}

// Every (machine, combination of swept values) and, for --loss, every phase alone, solved over
// the processor counts; the report, and the chart first when asked (when it cannot be
// written, the report is not written either).
int run_speedups(const Options& options, const std::vector<Loaded>& machines, const ReportInputs& inputs,
                 std::ostream& out, std::ostream& err, bool terminal) {
  const auto cases = analysis::make_cases(machine_inputs(machines), inputs.sweeps, options.loss);
  if (!cases.ok()) {
    print_failure(*cases.failure, machines, err);
    return kExitInput;
  }
  ProgressBar bar(terminal && !options.quiet, stderr);
  const auto study = analysis::run_study(*cases.value, inputs.request,
                                         [&bar](double done, std::size_t total) { bar.update(done, total); });
  bar.finish();
  if (!study.ok()) {
    print_failure(*study.failure, machines, err);
    return kExitInput;
  }
  if (options.plot) {
    if (const auto error = write_output_file(*options.plot, render_plot(*study.value, inputs))) {
      return usage_error(err, "--plot: " + *error);
    }
  }
  if (options.tail_plot) {
    if (const auto error = write_output_file(*options.tail_plot, render_tail_plot(*study.value, inputs))) {
      return usage_error(err, "--tail-plot: " + *error);
    }
  }
  return emit(options, render(*study.value, inputs, options.format), out, err);
}

}  // namespace

int run_analysis(const Options& options, std::ostream& out, std::ostream& err, bool terminal) {
  std::string error;
  const auto request = analysis_request(options, &error);
  if (!request) return usage_error(err, error);
  const auto sweeps = parse_sweeps(options, &error);
  if (!sweeps) return usage_error(err, error);
  if (const auto iso_error = isoefficiency_usage(options, !sweeps->empty())) return usage_error(err, *iso_error);

  std::map<std::string, double> check_values;
  for (const analysis::SweepVariable& sweep : *sweeps) check_values[sweep.name] = sweep.values.front();
  const auto machines = load_machines(options, check_values, err);
  if (!machines) return kExitInput;
  if (!check_destinations(options, *machines, err)) return kExitInput;
  const models::Program& program = *machines->front().program;
  for (const analysis::SweepVariable& sweep : *sweeps) {
    if (!is_program_variable(program, sweep.name, "--sweep", err)) return kExitInput;
  }
  if (options.isoefficiency && !is_program_variable(program, options.iso_variable, "--iso-variable", err)) {
    return kExitInput;
  }
  auto inputs = report_inputs(options, *machines, *sweeps, check_values, err);
  if (!inputs) return kExitInput;
  inputs->request = *request;
  if (options.isoefficiency) return run_isoefficiency(options, *machines, *inputs, out, err);
  return run_speedups(options, *machines, *inputs, out, err, terminal);
}

}  // namespace app
