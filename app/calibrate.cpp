// --calibrate and --validate (docs/calibration.md): the program on one machine, fitted to a
// runs file and/or scored against one, with prediction intervals; and --check of a runs file.
#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "analysis/calibration.hpp"
#include "analysis/prediction_interval.hpp"
#include "analysis/run_model.hpp"
#include "analysis/study.hpp"
#include "analysis/validation.hpp"
#include "app/commands.hpp"
#include "app/destinations.hpp"
#include "app/load.hpp"
#include "app/output_file.hpp"
#include "report/plot_validation.hpp"
#include "report/calibration.hpp"
#include "models/bind.hpp"
#include "models/dump.hpp"
#include "models/machine_constants.hpp"
#include "pdl/runs.hpp"

namespace app {

bool is_runs_file(const std::string& path) {
  static constexpr std::string_view kExtension = ".csv";
  return path.size() >= kExtension.size() &&
         path.compare(path.size() - kExtension.size(), kExtension.size(), kExtension) == 0;
}

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

// What --calibrate and --validate refuse among the other options; empty when fine.
std::optional<std::string> calibration_usage(const Options& options) {
  if (!options.calibrate && !options.fit.empty()) return "--fit names what --calibrate RUNS.csv fits: give the runs";
  if (options.calibrate && options.fit.empty())
    return "--calibrate needs --fit NAMES: the variables or constants to fit";
  for (const std::string& name : options.fit) {
    if (name.empty()) return "--fit: an empty name in the list";
  }
  if (options.write_fit && !options.calibrate) return "--write-fit writes what --calibrate fits: give --calibrate";
  if (options.validation_plot && !options.validate)
    return "--validation-plot draws what --validate scores: give --validate";
  if (options.validation_plot && !(options.validation_plot->size() > 4 &&
                                   options.validation_plot->substr(options.validation_plot->size() - 4) == ".svg")) {
    return fmt::format("--validation-plot {}: the chart is an SVG file: name it FILE.svg", *options.validation_plot);
  }
  if (!(options.interval_percent > 0.0 && options.interval_percent < 100.0)) {
    return fmt::format("--interval {}: the level is a percentage in (0, 100)", options.interval_percent);
  }
  if (options.draws < 10 || options.draws > 100000) {
    return fmt::format("--draws {}: the parameter draws must be in [10, 100000]", options.draws);
  }
  if (!options.other_files.empty() || options.machine_files.size() > 1) {
    return "--calibrate and --validate take one program and at most one machine";
  }
  if (options.format == report::Format::Csv || options.format == report::Format::Jsonl) {
    return "--calibrate and --validate print a table or JSON (--format table|json)";
  }
  if (!options.sweeps.empty() || options.loss || options.isoefficiency || options.isospeed || options.plot ||
      options.tail_plot || options.breakdown || options.scaling_laws || options.quantiles) {
    return "--calibrate and --validate make their own report: no --sweep, --loss, --isoefficiency, --isospeed, "
           "--plot, --tail-plot, --breakdown, --scaling-laws or --quantiles with them";
  }
  if (options.given.count("--time-unit") != 0) {
    return "--time-unit: --calibrate and --validate show times in the runs file's unit (µs with a '# unit:' line)";
  }
  return std::nullopt;
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
  if (const auto error = write_output_file(file, text)) return usage_error(err, "--write-fit: " + *error);
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

// The analysis request of the options, with the methods and the methods' options this command
// takes; nothing with the error printed.
std::optional<analysis::Request> calibration_request(const Options& options, std::ostream& err) {
  if (const auto problem = calibration_usage(options)) {
    usage_error(err, *problem);
    return std::nullopt;
  }
  std::string error;
  auto request = analysis_request(options, &error);
  if (!request) {
    usage_error(err, error);
    return std::nullopt;
  }
  if (options.given.count("--method") != 0) {
    for (const solvers::Method method : request->methods) {
      if (method != solvers::Method::SeriesParallel && method != solvers::Method::Bounds) {
        usage_error(err, fmt::format("--method {}: --calibrate and --validate use approx (the fit, the "
                                     "predictions) and bounds (RatioLB and RatioUB); give those",
                                     solvers::to_string(method)));
        return std::nullopt;
      }
    }
  }
  // The options of methods this command does not run are refused as the analysis refuses them;
  // --seed is not a no-op here (it fixes the parameter draws), so its note is not printed.
  std::vector<std::string> notes;
  if (const auto problem = method_option_problems(options, request->methods, &notes)) {
    usage_error(err, *problem);
    return std::nullopt;
  }
  for (const std::string& note : notes) {
    if (!note.starts_with("--seed")) err << "pdl-scale: note: " << note << '\n';
  }
  return request;
}

// The loaded program and machine as this command needs them: every --set name declared, every
// constant a single value, every --fit name declared; false with the error printed.
bool check_names_and_ranges(const Options& options, const Loaded& loaded, std::ostream& err) {
  // A variable without a default is fine here when the runs give it (a column); a --set of a
  // name nobody declares is not.
  const models::Binding binding = models::bind(*loaded.program, loaded.machine, loaded.sets);
  for (const models::BindError& problem : binding.errors) {
    if (problem.code == models::BindError::Code::UnknownVariable) {
      print_bind_errors({problem}, err);
      return false;
    }
  }
  // A constant given as a range would stand at its lower end: one machine is predicted here.
  for (const auto& [name, range] : loaded.machine.constant_ranges) {
    if (loaded.machine_sets.count(name) != 0 ||
        std::find(options.fit.begin(), options.fit.end(), name) != options.fit.end()) {
      continue;
    }
    usage_error(err, fmt::format("machine '{}' gives {} as a range ({:g} .. {:g}): --calibrate and --validate "
                                 "predict with one machine; give it a value (--set {}=…) or fit it (--fit)",
                                 loaded.machine.name, name, range.first, range.second, name));
    return false;
  }
  for (const std::string& name : options.fit) {
    if (!models::declares_variable(*loaded.program, name) && !models::declares_constant(loaded.machine, name)) {
      usage_error(err, unknown_variable_text(*loaded.program, loaded.machine, name, "--fit"));
      return false;
    }
  }
  return true;
}

// --calibrate: the fit to its runs file into the report and `uncertainty`; false with the error
// printed.
bool fit_calibration_runs(const Options& options, const analysis::MachineInput& input, const pdl::RunsNames& names,
                          const analysis::Request& request, report::CalibrationReport& outcome,
                          analysis::ParameterUncertainty& uncertainty, std::ostream& err) {
  const auto runs = load_runs(*options.calibrate, names, err, options.read_file);
  if (!runs) return false;
  analysis::CalibrationOptions calibration;
  calibration.parameters = options.fit;
  calibration.series_parallel = request.solver_options.series_parallel;
  const auto fit = analysis::calibrate(input, runs->runs, calibration);
  if (!fit.ok()) {
    const analysis::Failure& failure = *fit.failure;
    if (failure.location.line > 0) return runs_failure(failure, *runs, err) == kExitSuccess;
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
bool score_validation_runs(const Options& options, const analysis::MachineInput& input, const pdl::RunsNames& names,
                           const analysis::Request& request, const analysis::ParameterUncertainty& uncertainty,
                           const analysis::PredictionIntervalOptions& intervals, report::CalibrationReport& outcome,
                           std::ostream& err) {
  const auto runs = load_runs(*options.validate, names, err, options.read_file);
  if (!runs) return false;
  // The uncertainty applies the fitted values (none without --calibrate) and adds their spread.
  auto validated = analysis::validate_runs(input, runs->runs, uncertainty, intervals);
  if (!validated.ok()) return runs_failure(*validated.failure, *runs, err) == kExitSuccess;
  const bool bounds =
      std::find(request.methods.begin(), request.methods.end(), solvers::Method::Bounds) != request.methods.end();
  if (bounds && options.given.count("--method") != 0 &&
      !bound_runs(input, uncertainty, runs->runs, request, *validated.value, *runs, err)) {
    return false;
  }
  outcome.validation =
      report::ValidationPart{*options.validate, runs->runs, *validated.value, analysis::summarize(*validated.value)};
  return true;
}

// The fit and the validation chart, on the rank that writes; the exit status.
int write_files(const Options& options, const Loaded& loaded, const report::CalibrationReport& outcome,
                std::ostream& err) {
  // The fit is written once everything else has succeeded: a failed run leaves no file behind.
  if (options.write_fit && options.output_rank) {
    if (const int status = write_fit(*options.write_fit, loaded, outcome.calibration->fit, *options.calibrate, err)) {
      return status;
    }
  }
  if (options.validation_plot && options.output_rank) {
    if (const auto failure = write_output_file(*options.validation_plot, report::render_validation_plot(outcome))) {
      return usage_error(err, "--validation-plot: " + *failure);
    }
  }
  return kExitSuccess;
}

}  // namespace

int run_check_runs(const Options& options, std::ostream& out, std::ostream& err) {
  const auto runs = load_runs(options.file, {}, err, options.read_file);
  if (!runs) return kExitInput;
  out << fmt::format("{}: ok ({} runs)\n", options.file, runs->runs.runs.size());
  return kExitSuccess;
}

int run_calibration(const Options& options, std::ostream& out, std::ostream& err) {
  const auto request = calibration_request(options, err);
  if (!request) return kExitInput;
  const auto loaded = load_one(options, err);
  if (!loaded) return kExitInput;
  if (!check_names_and_ranges(options, *loaded, err)) return kExitInput;
  // Before any work: no output replaces an input or another output, and each can be written.
  if (!check_destinations(options, {*loaded}, err)) return kExitInput;
  const analysis::MachineInput input{loaded->program, loaded->machine, loaded->machine_file, loaded->sets, 0, {}};
  const pdl::RunsNames names{loaded->program.get(), &loaded->machine};

  report::CalibrationReport outcome;
  outcome.program_name = loaded->program->name;
  outcome.program_file = options.file;
  outcome.machine_name = loaded->machine.name;
  outcome.level = options.interval_percent / 100.0;
  analysis::PredictionIntervalOptions intervals;
  intervals.level = outcome.level;
  intervals.parameter_draws = options.draws;
  intervals.seed = request->solver_options.monte_carlo.seed;
  intervals.series_parallel = request->solver_options.series_parallel;
  analysis::ParameterUncertainty uncertainty;

  if (options.calibrate && !fit_calibration_runs(options, input, names, *request, outcome, uncertainty, err)) {
    return kExitInput;
  }
  if ((options.pmax || !options.processors.empty()) &&
      !predict_at_processors(input, *loaded, *request, uncertainty, intervals, outcome, err)) {
    return kExitInput;
  }
  if (options.validate &&
      !score_validation_runs(options, input, names, *request, uncertainty, intervals, outcome, err)) {
    return kExitInput;
  }
  if (const int status = write_files(options, *loaded, outcome, err)) return status;
  return emit(options, report::render_calibration(outcome, options.format), out, err);
}

}  // namespace app
