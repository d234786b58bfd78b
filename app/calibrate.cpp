// --calibrate and --validate (docs/calibration.md): the program on one machine, fitted to a
// runs file and/or scored against one, with prediction intervals; and --check of a runs file.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

#include "analysis/calibration.hpp"
#include "analysis/prediction_interval.hpp"
#include "analysis/run_model.hpp"
#include "analysis/solves_cost.hpp"
#include "analysis/cost.hpp"
#include "analysis/study.hpp"
#include "analysis/validation.hpp"
#include "app/command_checks.hpp"
#include "app/commands.hpp"
#include "app/destinations.hpp"
#include "app/load.hpp"
#include "app/output_file.hpp"
#include "app/time_budget.hpp"
#include "report/plot_validation.hpp"
#include "report/calibration.hpp"
#include "models/bind.hpp"
#include "models/dump.hpp"
#include "models/machine_constants.hpp"
#include "pdl/runs.hpp"

namespace app {

namespace {

// The runs file read and checked against the program and machine (when given); its
// diagnostics printed. The source is kept to point into it later.
struct LoadedRuns {
  models::Runs runs;
  pdl::Source source;
};
std::optional<LoadedRuns> load_runs(const std::string& file, const pdl::RunsNames& names, std::ostream& err,
                                    const pdl::FileReader& read) {
  const auto text = read_source(file, err, read);
  if (!text) return std::nullopt;
  pdl::RunsResult result = pdl::parse_runs(*text, file, names);
  if (!result.runs) {
    err << pdl::format(result.diagnostics);
    return std::nullopt;
  }
  return LoadedRuns{std::move(*result.runs), pdl::Source(file, *text)};
}

// A failure of the fit or the predictions: at its run's row when it has one, else plain.
int runs_failure(const analysis::Failure& failure, const LoadedRuns& runs, std::ostream& err) {
  const std::string message = failure.text();
  if (failure.location.line > 0) {
    err << pdl::format(runs.source.diagnose(pdl::Severity::Error, runs.source.offset(failure.location), message));
  } else {
    err << "pdl-scale: error: " << message << '\n';
  }
  return kExitInput;
}

// The fitted values as a machine file (every fitted name a constant of the machine) or as
// --set lines; written whole or not at all.
int write_fit(const std::string& file, const Loaded& loaded, const analysis::CalibrationResult& fit,
              const std::string& runs_file, std::ostream& err) {
  std::string text;
  if (is_machine_file(file)) {
    std::map<std::string, double> constants;
    for (const analysis::FittedParameter& parameter : fit.parameters) {
      if (!parameter.is_constant) {
        return usage_error(err, fmt::format("--write-fit {}: '{}' is a program variable, which a machine file cannot "
                                            "hold: write --set lines (a FILE not ending in .machine)",
                                            file, parameter.name));
      }
      constants[parameter.name] = parameter.value;
    }
    const models::MachineWithConstants with = models::with_constants(loaded.machine, constants);
    if (!with.machine) return usage_error(err, "--write-fit: " + with.error);
    text = fmt::format("// Machine '{}' with {} calibrated on {} by pdl-scale --calibrate.\n", loaded.machine.name,
                       report::fit_names(fit), runs_file) +
           models::dump(*with.machine);
  } else {
    text = report::render_set_lines(fit, runs_file);
  }
  if (Check written = write_output_file({"--write-fit", file}, text); !written.ok()) {
    err << written.failure->text;
    return kExitInput;
  }
  return kExitSuccess;
}

// Bounds on the exact model's mean (the bounds method) for every run, solved per setting.
// Each setting is the input with the run's columns, then the fitted values, as the predictions
// make it (analysis::predict_interval).
bool bound_runs(const analysis::MachineInput& input, const analysis::ParameterUncertainty& fit,
                const models::Runs& runs, const analysis::Request& base, std::vector<analysis::ValidatedRun>& validated,
                const LoadedRuns& source, std::ostream& err) {
  std::vector<std::vector<double>> settings;
  for (const models::Run& run : runs.runs) {
    if (std::find(settings.begin(), settings.end(), run.values) == settings.end()) settings.push_back(run.values);
  }
  for (const std::vector<double>& values : settings) {
    const auto columns = analysis::with_values(input, runs.variables, values);
    if (!columns.ok()) return runs_failure(*columns.failure, source, err) == kExitSuccess;
    const auto setting = analysis::with_values(*columns.value, fit.names, fit.values);
    if (!setting.ok()) return runs_failure(*setting.failure, source, err) == kExitSuccess;
    std::set<int> processors;
    for (const models::Run& run : runs.runs) {
      if (run.values == values) processors.insert(static_cast<int>(run.p));
    }
    analysis::Request request = base;
    request.methods = {solvers::Method::Bounds};
    request.prediction.seconds_per_model = 0.0;  // only the bounds are read here
    request.processors.assign(processors.begin(), processors.end());
    const auto cases = analysis::make_cases({*setting.value}, {}, false);
    if (!cases.ok()) return runs_failure(*cases.failure, source, err) == kExitSuccess;
    const auto study = analysis::run_study(*cases.value, request, {});
    if (!study.ok()) return runs_failure(*study.failure, source, err) == kExitSuccess;
    for (analysis::ValidatedRun& one : validated) {
      if (one.run.values != values) continue;
      const solvers::Result& result = study.value->at(0, static_cast<int>(one.run.p), solvers::Method::Bounds).result;
      if (result.solved()) {
        one.lower_bound = result.lower;
        one.upper_bound = result.upper;
      }
    }
  }
  return true;
}

// The loaded program and machine as this command needs them: every --set name declared, every
// constant a single value, every --fit name declared.
Check check_names_and_ranges(const CalibrationCommand& options, const Loaded& loaded) {
  // A variable without a default is fine here when the runs give it (a column); a --set of a
  // name nobody declares is not.
  const models::Binding binding = models::bind(*loaded.program, loaded.machine, loaded.sets);
  for (const models::BindError& problem : binding.errors) {
    if (problem.code == models::BindError::Code::UnknownVariable) {
      std::ostringstream text;
      print_bind_errors({problem}, text);
      return refuse(UsageError{text.str()});
    }
  }
  // A constant given as a range would stand at its lower end: one machine is predicted here.
  for (const auto& [name, range] : loaded.machine.constant_ranges) {
    if (loaded.machine_sets.count(name) != 0 ||
        std::find(options.fit.begin(), options.fit.end(), name) != options.fit.end()) {
      continue;
    }
    return refuse(
        fmt::format("machine '{}' gives {} as a range ({:g} .. {:g}): --calibrate and --validate "
                    "predict with one machine; give it a value (--set {}=…) or fit it (--fit)",
                    loaded.machine.name, name, range.first, range.second, name));
  }
  for (const std::string& name : options.fit) {
    if (!models::declares_variable(*loaded.program, name) && !models::declares_constant(loaded.machine, name)) {
      return refuse(unknown_variable_text(*loaded.program, loaded.machine, name, "--fit"));
    }
  }
  return passed();
}

// --calibrate: the fit to its runs file into the report and `uncertainty`; false with the error
// printed.
bool fit_calibration_runs(const CalibrationCommand& options, const analysis::MachineInput& input,
                          const LoadedRuns* runs, const analysis::Request& request, report::CalibrationReport& outcome,
                          analysis::ParameterUncertainty& uncertainty, std::ostream& err) {
  analysis::CalibrationOptions calibration;
  calibration.parameters = options.fit;
  calibration.ranges = options.fit_ranges;
  calibration.series_parallel = request.solver_options.series_parallel;
  const auto fit = analysis::calibrate(input, runs->runs, calibration);
  if (!fit.ok()) {
    const analysis::Failure& failure = *fit.failure;
    // A run that cannot be solved at its row; a refusal of the fit itself (--fit) in the command.
    if (failure.location.line > 0 || failure.kind == analysis::Failure::Kind::Request) {
      return runs_failure(failure, *runs, err) == kExitSuccess;
    }
    // Refusals about the request as a whole point at the runs file's header.
    analysis::Failure located = failure;
    located.location = runs->runs.header;
    return runs_failure(located, *runs, err) == kExitSuccess;
  }
  uncertainty = analysis::uncertainty_of(*fit.value);
  outcome.calibration = report::CalibrationPart{*options.calibrate, *fit.value, runs->runs};
  return true;
}

// Predictions at the processor counts asked for (--p, --pmax), at the input's values, into the
// report; false with the error printed.
bool predict_at_processors(const analysis::MachineInput& input, const Loaded& loaded, const analysis::Request& request,
                           const analysis::ParameterUncertainty& uncertainty,
                           const analysis::PredictionIntervalOptions& intervals, report::CalibrationReport& outcome,
                           std::ostream& err) {
  for (const int p : request.processors) {
    const auto interval = analysis::predict_interval(input, p, uncertainty, intervals, analysis::setting_stream(p, {}));
    if (!interval.ok()) {
      analysis::Failure failure = *interval.failure;
      print_failure(failure, {loaded}, err);
      return false;
    }
    outcome.predictions.push_back({p, *interval.value});
  }
  return true;
}

// --validate: the runs of its file scored against the predictions, into the report; false with
// the error printed.
bool score_validation_runs(const CalibrationCommand& options, const analysis::MachineInput& input,
                           const LoadedRuns* runs, const analysis::Request& request,
                           const analysis::ParameterUncertainty& uncertainty,
                           const analysis::PredictionIntervalOptions& intervals, report::CalibrationReport& outcome,
                           std::ostream& err) {
  // The uncertainty applies the fitted values (none without --calibrate) and adds their spread.
  auto validated = analysis::validate_runs(input, runs->runs, uncertainty, intervals);
  if (!validated.ok()) return runs_failure(*validated.failure, *runs, err) == kExitSuccess;
  if (options.bound_runs && !bound_runs(input, uncertainty, runs->runs, request, *validated.value, *runs, err)) {
    return false;
  }
  outcome.validation =
      report::ValidationPart{*options.validate, runs->runs, *validated.value, analysis::summarize(*validated.value)};
  return true;
}

// The fit and the validation chart, on the rank that writes; the exit status.
int write_files(const CalibrationCommand& options, const Loaded& loaded, const report::CalibrationReport& outcome,
                std::ostream& err) {
  // The fit is written once everything else has succeeded: a failed run leaves no file behind.
  if (options.write_fit && options.report.output_rank) {
    if (const int status = write_fit(*options.write_fit, loaded, outcome.calibration->fit, *options.calibrate, err)) {
      return status;
    }
  }
  if (options.validation_plot && options.report.output_rank) {
    Check written =
        write_output_file({"--validation-plot", *options.validation_plot}, report::render_validation_plot(outcome));
    if (!written.ok()) {
      err << written.failure->text;
      return kExitInput;
    }
  }
  return kExitSuccess;
}

// Bytes per run of the runs files from reading them to the report written, measured with
// /usr/bin/time on 400,000 validated runs (docs/performance.md, "Calibration"): about 720 for
// the table, 4,940 for JSON, whose document is built whole before it is written.
constexpr double kTableBytesPerRun = 800.0;
constexpr double kJsonBytesPerRun = 5000.0;

// "1.9 GB", "512 MB".
std::string bytes_text(double bytes) {
  return bytes >= 1e9 ? fmt::format("{:.1f} GB", bytes / 1e9) : fmt::format("{:.0f} MB", std::ceil(bytes / 1e6));
}

// The solves the command will make and the memory it will hold, estimated before any solve
// (analysis/solves_cost.hpp), against --time-limit and --memory: false with the message (exit 2)
// when over the memory, or over the time without --allow-long; the time said on stderr when
// long and shown, or with --progress.
bool within_budget(const CalibrationCommand& command, const analysis::MachineInput& input,
                   const std::optional<LoadedRuns>& fitted, const std::optional<LoadedRuns>& validated,
                   std::ostream& err, bool terminal) {
  const solvers::SeriesParallelOptions& options = command.request.solver_options.series_parallel;
  const int draws = command.calibrate ? command.draws : 0;  // without a fit the parameters are not drawn
  std::vector<std::pair<std::string, analysis::Outcome<analysis::SolvesCost>>> parts;
  double runs = 0.0;
  if (fitted) {
    parts.emplace_back("the fit", analysis::estimate_fit(input, fitted->runs, command.fit.size(),
                                                         analysis::CalibrationOptions{}.starts, options));
    runs += static_cast<double>(fitted->runs.runs.size());
  }
  if (command.predict) {
    parts.emplace_back("the predictions",
                       analysis::estimate_intervals(input, command.request.processors, draws, options));
  }
  if (validated) {
    parts.emplace_back("the validation", analysis::estimate_intervals(input, validated->runs, draws, options));
    runs += static_cast<double>(validated->runs.runs.size());
  }
  double seconds = 0.0, solves_bytes = 0.0;
  std::string listed;
  for (const auto& [what, cost] : parts) {
    if (!cost.ok()) return true;  // a setting that cannot be solved: the run says where
    seconds += cost.value->seconds;
    solves_bytes = std::max(solves_bytes, cost.value->bytes);
    listed += fmt::format("{}{}: {} solves of {} settings, {}", listed.empty() ? "" : "; ", what, cost.value->solves,
                          cost.value->settings, analysis::duration_text(cost.value->seconds));
  }
  seconds = analysis::agreed_seconds(seconds, command.request.communicator);  // timed: rank 0's on every rank
  const double per_run = command.report.format == report::Format::Json ? kJsonBytesPerRun : kTableBytesPerRun;
  const double bytes = solves_bytes + per_run * runs;
  const auto budget = static_cast<double>(command.request.memory_budget_bytes);
  if (bytes > budget) {
    err << fmt::format(
        "pdl-scale: error: this run would need about {} ({:.0f} runs in the report at about {:.0f} bytes each; {} "
        "for the solves' laws at once), more than the memory budget of {} (--memory); fewer --draws or runs{}, "
        "or a larger --memory make it fit\n",
        bytes_text(bytes), runs, per_run, bytes_text(solves_bytes), bytes_text(budget),
        command.report.format == report::Format::Json ? ", the table format" : "");
    return false;
  }
  if (seconds > command.budget.limit_seconds && !command.budget.allow_long) {
    err << fmt::format(
        "pdl-scale: error: this run would take {} (estimated from timed solves: {}), more than the limit of {}. "
        "Give --allow-long to run it anyway, or --time-limit to raise the limit; fewer --draws, processor counts "
        "or distinct settings in the runs make it shorter\n",
        analysis::duration_text(seconds), listed, limit_text(command.budget.limit_seconds));
    return false;
  }
  if (shows_progress(command.budget, terminal) && (seconds > kAnnounceEstimateSeconds || command.budget.progress)) {
    err << fmt::format("pdl-scale: this run will take {} (estimated: {})\n", analysis::duration_text(seconds), listed);
  }
  return true;
}

}  // namespace

int run_check_runs(const CheckRunsCommand& command, std::ostream& out, std::ostream& err) {
  const auto runs = load_runs(command.runs_file, {}, err, command.read_file);
  if (!runs) return kExitInput;
  out << fmt::format("{}: ok ({} runs)\n", command.runs_file, runs->runs.runs.size());
  return kExitSuccess;
}

int run_calibration(const CalibrationCommand& command, std::ostream& out, std::ostream& err, bool terminal) {
  for (const std::string& note : command.notes) err << "pdl-scale: note: " << note << '\n';
  const analysis::Request& request = command.request;
  const auto loaded = load_one(command.inputs, err);
  if (!loaded) return kExitInput;
  Check checked = check_names_and_ranges(command, *loaded);
  // Before any work: no output replaces an input or another output, and each can be written.
  if (checked.ok()) {
    checked = check_destinations(outputs_of(command), inputs_of(command), command.inputs.program(), {*loaded},
                                 command.report.ranks);
  }
  if (!checked.ok()) {
    err << checked.failure->text;
    return kExitInput;
  }
  const analysis::MachineInput input{loaded->program, loaded->machine, loaded->machine_file, loaded->sets, 0, {}};
  const pdl::RunsNames names{loaded->program.get(), &loaded->machine};

  report::CalibrationReport outcome;
  outcome.program_name = loaded->program->name;
  outcome.program_file = command.inputs.program();
  outcome.machine_name = loaded->machine.name;
  outcome.level = command.interval_level;
  outcome.time_unit = command.time_unit;
  analysis::PredictionIntervalOptions intervals;
  intervals.level = outcome.level;
  intervals.parameter_draws = command.draws;
  intervals.seed = request.solver_options.monte_carlo.seed;
  intervals.series_parallel = request.solver_options.series_parallel;
  analysis::ParameterUncertainty uncertainty;

  // Both runs files are read, and the work estimated, before any is done.
  std::optional<LoadedRuns> fitted, validated;
  if (command.calibrate && !(fitted = load_runs(*command.calibrate, names, err, command.inputs.read_file))) {
    return kExitInput;
  }
  if (command.validate && !(validated = load_runs(*command.validate, names, err, command.inputs.read_file))) {
    return kExitInput;
  }
  if (!within_budget(command, input, fitted, validated, err, terminal)) return kExitInput;
  if (fitted && !fit_calibration_runs(command, input, &*fitted, request, outcome, uncertainty, err)) {
    return kExitInput;
  }
  if (command.predict && !predict_at_processors(input, *loaded, request, uncertainty, intervals, outcome, err)) {
    return kExitInput;
  }
  if (validated && !score_validation_runs(command, input, &*validated, request, uncertainty, intervals, outcome, err)) {
    return kExitInput;
  }
  if (const int status = write_files(command, *loaded, outcome, err)) return status;
  return emit(command.report, report::render_calibration(outcome, command.report.format), out, err);
}

}  // namespace app
