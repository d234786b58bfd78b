// The options made into one mode of Command, every check that needs no file done here, once.
#include "app/command.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <tuple>

#include "app/cli.hpp"
#include "app/command_checks.hpp"
#include "scaling/approximate_model.hpp"
#include "solvers/solver.hpp"

namespace app {

namespace {

using Made = Checked<Command>;

ProgramInputs inputs_from(const Options& options) {
  return {program_files(options), options.machine_files, options.sets, options.set_files, options.read_file};
}

ReportDestination destination_from(const Options& options) {
  return {options.format,  options.output,      options.time_unit.value_or(report::TimeUnit{}),
          options.command, options.output_rank, options.request.communicator};
}

// A file option given as '': the run would read or write nothing where a file was named.
Check check_no_empty_file(const Options& options) {
  const std::pair<const char*, const std::optional<std::string>*> files[] = {
      {"-o", &options.output},
      {"--plot", &options.plot},
      {"--tail-plot", &options.tail_plot},
      {"--breakdown-plot", &options.breakdown_plot},
      {"--sensitivity-plot", &options.sensitivity_plot},
      {"--calibrate", &options.calibrate},
      {"--validate", &options.validate},
      {"--write-fit", &options.write_fit},
      {"--validation-plot", &options.validation_plot}};
  for (const auto& [option, path] : files) {
    if (*path && (*path)->empty()) return refuse(fmt::format("{} '': expected a file name", option));
  }
  return passed();
}

Made graph_command(const Options& options) {
  if (Check one = check_one_program(options); !one.ok()) return refuse(*one.failure);
  const int p = options.graph.value_or(1);
  if (p < 1 || p > scaling::kMaxProcessors) {
    return refuse(fmt::format("--graph {}: the processor count must be in [1, {}]", p, scaling::kMaxProcessors));
  }
  return {GraphCommand{inputs_from(options), destination_from(options), p, options.model}, std::nullopt};
}

Made calibration_command(const Options& options) {
  auto noted = calibration_request(options);
  if (!noted.ok()) return refuse(*noted.failure);
  const analysis::Request& request = noted.value->request;
  CalibrationCommand command{inputs_from(options), destination_from(options), request};
  command.calibrate = options.calibrate;
  command.fit = options.fit;
  command.fit_ranges = options.fit_ranges;
  command.write_fit = options.write_fit;
  command.validate = options.validate;
  command.validation_plot = options.validation_plot;
  command.predict = options.pmax || !options.processors.empty();
  command.bound_runs =
      options.methods && std::ranges::find(request.methods, solvers::Method::Bounds) != request.methods.end();
  command.time_unit = options.time_unit;
  command.interval_level = options.interval_percent / 100.0;
  command.draws = options.draws;
  command.budget = {options.time_limit_seconds, options.allow_long, options.quiet, options.progress};
  command.notes = std::move(noted.value->notes);
  return {std::move(command), std::nullopt};
}

Made search_command(const Options& options, const analysis::Request& request, std::vector<std::string> notes) {
  if (options.isoefficiency) {
    IsoefficiencyCommand command{inputs_from(options), destination_from(options), request};
    command.search.target = *options.isoefficiency;
    command.search.variable = options.iso_variable;
    command.search.max_size = options.iso_max;
    if (const auto range = iso_range(options.iso_range)) {
      command.search.constant_min = range->first;
      command.search.constant_max = range->second;
    }
    command.search.series_parallel.grid = request.solver_options.series_parallel.grid;
    command.range_given = !options.iso_range.empty();
    command.budget = {options.time_limit_seconds, options.allow_long, options.quiet, options.progress};
    command.notes = std::move(notes);
    return {std::move(command), std::nullopt};
  }
  IsospeedCommand command{inputs_from(options), destination_from(options), request};
  command.search.variable = options.iso_variable;
  command.search.fraction = isospeed_fraction(options);
  command.search.max_size = options.iso_max;
  command.search.series_parallel.grid = request.solver_options.series_parallel.grid;
  command.budget = {options.time_limit_seconds, options.allow_long, options.quiet, options.progress};
  command.notes = std::move(notes);
  return {std::move(command), std::nullopt};
}

// The speedup study, or the isoefficiency or isospeed search in its place.
Made analysis_command(const Options& options) {
  if (Check one = check_one_program(options); !one.ok()) return refuse(*one.failure);
  const auto request = analysis_request(options);
  if (!request.ok()) return refuse(*request.failure);
  auto notes = method_option_notes(options, request.value->methods);
  if (!notes.ok()) return refuse(*notes.failure);
  auto sweeps = parse_sweeps(options);
  if (!sweeps.ok()) return refuse(*sweeps.failure);
  if (Check study = check_study(options, !sweeps.value->empty()); !study.ok()) return refuse(*study.failure);
  if (options.isoefficiency || options.isospeed) {
    return search_command(options, *request.value, std::move(*notes.value));
  }
  StudyCommand command{inputs_from(options), destination_from(options), *request.value, std::move(*sweeps.value)};
  command.loss = options.loss;
  command.scaling_laws = options.scaling_laws;
  command.charts = {options.plot, options.tail_plot, options.breakdown_plot, options.sensitivity_plot,
                    options.log_axes};
  command.budget = {options.time_limit_seconds, options.allow_long, options.quiet, options.progress};
  command.catch_interrupts = options.catch_interrupts;
  command.on_progress = options.on_progress;
  command.notes = std::move(*notes.value);
  return {std::move(command), std::nullopt};
}

// The modes that read one program file or a runs file: --dump, --check.
std::optional<Made> checking_command(const Options& options) {
  if (options.dump) {
    if (Check one = check_one_program(options); !one.ok()) return refuse(*one.failure);
    return Made{DumpCommand{inputs_from(options)}, std::nullopt};
  }
  if (!options.check) return std::nullopt;
  if (is_runs_file(options.file) && options.other_files.empty()) {
    return Made{CheckRunsCommand{options.file, options.read_file}, std::nullopt};
  }
  return Made{CheckCommand{inputs_from(options)}, std::nullopt};
}

}  // namespace

analysis::Outcome<Command, UsageError> command_from(const Options& options) {
  if (Check files = check_no_empty_file(options); !files.ok()) return refuse(*files.failure);
  if (options.log_axes && !options.plot && !options.tail_plot) {
    return refuse("--log-axes: it sets the charts' axes, and neither --plot nor --tail-plot is given");
  }
  if (options.file.empty()) {
    if (options.check || options.dump) return refuse("--check and --dump need a FILE");
    return {TextCommand{help_text()}, std::nullopt};
  }
  if (auto checking = checking_command(options)) return std::move(*checking);
  for (const std::string& file : program_files(options)) {
    if (is_runs_file(file)) {
      return refuse(fmt::format(
          "{} is a runs file (docs/calibration.md): give it to --calibrate or --validate with the PDL program, or "
          "--check it alone",
          file));
    }
  }
  if (options.calibrate || options.validate || !options.fit.empty() || options.write_fit || options.validation_plot) {
    return calibration_command(options);
  }
  if (options.graph) return graph_command(options);
  return analysis_command(options);
}

namespace {

void add(std::vector<OutputFile>& outputs, const char* option, const std::optional<std::string>& path) {
  if (path) outputs.push_back({option, *path});
}

std::vector<OutputFile> report_only(const ReportDestination& report) {
  std::vector<OutputFile> outputs;
  add(outputs, "-o", report.output);
  return outputs;
}

}  // namespace

std::vector<OutputFile> outputs_of(const GraphCommand& command) { return report_only(command.report); }
std::vector<OutputFile> outputs_of(const IsoefficiencyCommand& command) { return report_only(command.report); }
std::vector<OutputFile> outputs_of(const IsospeedCommand& command) { return report_only(command.report); }

std::vector<OutputFile> outputs_of(const StudyCommand& command) {
  std::vector<OutputFile> outputs = report_only(command.report);
  add(outputs, "--plot", command.charts.speedup);
  add(outputs, "--tail-plot", command.charts.tail);
  add(outputs, "--breakdown-plot", command.charts.breakdown);
  add(outputs, "--sensitivity-plot", command.charts.sensitivity);
  return outputs;
}

std::vector<OutputFile> outputs_of(const CalibrationCommand& command) {
  std::vector<OutputFile> outputs = report_only(command.report);
  add(outputs, "--write-fit", command.write_fit);
  add(outputs, "--validation-plot", command.validation_plot);
  return outputs;
}

std::vector<OutputFile> outputs_of(const Command& command) {
  return std::visit(
      [](const auto& mode) -> std::vector<OutputFile> {
        if constexpr (requires { mode.report; }) {  // the modes that write a report
          return outputs_of(mode);
        } else {
          return {};  // --check, --dump, text and fit write nothing but their standard output
        }
      },
      command);
}

std::vector<RunInput> inputs_of(const ProgramInputs& inputs) {
  std::vector<RunInput> declared;
  for (std::size_t k = 1; k < inputs.programs.size(); ++k) declared.push_back({inputs.programs[k], "the program"});
  for (const std::string& file : inputs.set_files) declared.push_back({file, "a --set-file"});
  return declared;
}

std::vector<RunInput> inputs_of(const CalibrationCommand& command) {
  std::vector<RunInput> declared = inputs_of(command.inputs);
  if (command.calibrate) declared.push_back({*command.calibrate, "the runs of --calibrate"});
  if (command.validate) declared.push_back({*command.validate, "the runs of --validate"});
  return declared;
}

std::vector<RunInput> inputs_of(const Command& command) {
  return std::visit(
      [](const auto& mode) -> std::vector<RunInput> {
        if constexpr (std::is_same_v<std::decay_t<decltype(mode)>, CalibrationCommand>) {
          return inputs_of(mode);
        } else if constexpr (requires { mode.inputs; }) {
          return inputs_of(mode.inputs);
        } else {
          return {};
        }
      },
      command);
}

}  // namespace app
