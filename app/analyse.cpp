// The analyses (the speedup study, isoefficiency, isospeed): their command's programs loaded on
// every machine, the analysis library run, its result rendered.
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <tuple>

#include "analysis/study_plan.hpp"
#include "analysis/isoefficiency.hpp"
#include "analysis/solves_cost.hpp"
#include "analysis/isospeed.hpp"
#include "analysis/study.hpp"
#include "app/command.hpp"
#include "app/commands.hpp"
#include "app/time_budget.hpp"
#include "app/destinations.hpp"
#include "app/interrupt.hpp"
#include "app/load.hpp"
#include "app/output_file.hpp"
#include "report/plot.hpp"
#include "report/plot_breakdown.hpp"
#include "report/plot_sensitivity.hpp"
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

// The name of each program in the reports when there are several: its file name without the
// directories; where two are equal, the path as given; where those are equal too (one file given
// twice), "#2", "#3", ... after the later ones, skipping a label another program already has
// (`x.pdl x.pdl 'x.pdl#2'`: x.pdl, x.pdl#3, x.pdl#2).
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
  std::set<std::string> taken(labels.begin(), labels.end());
  std::map<std::string, int> seen;
  for (std::string& label : labels) {
    const std::string base = label;
    int& count = seen[base];
    if (++count == 1) continue;
    while (taken.count(base + "#" + std::to_string(count)) != 0) ++count;
    label = base + "#" + std::to_string(count);
    taken.insert(label);
  }
  return labels;
}

// Every program on every machine (program-major: the program is the cases' outermost
// dimension), each checked there; two machines of one name are an error. With several
// programs, each is labelled and ignores the --set and swept names it does not declare.
std::optional<std::vector<Loaded>> load_machines(const ProgramInputs& options,
                                                 const std::map<std::string, double>& check_values, std::ostream& err) {
  std::vector<std::optional<std::string>> files(options.machine_files.begin(), options.machine_files.end());
  if (files.empty()) files.emplace_back(std::nullopt);
  const std::vector<std::string>& programs = options.programs;
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
Check names_declared_somewhere(const ProgramInputs& options, const std::vector<Loaded>& machines,
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
      return refuse(unknown_variable_text(*machines.front().program, machines.front().machine, name, option));
    }
    if (ignoring.size() == machines.size()) {
      return refuse(declared_nowhere_text(option, name, machines, programs, machine_count));
    }
    note_ignored(option, name, ignoring, machine_count, err);
  }
  return passed();
}

// The variable an isoefficiency or isospeed search sets.
struct Searched {
  std::string variable;
  bool isoefficiency = false;  // else isospeed: a search over a program variable only
  bool range_given = false;    // --iso-range
  bool sets_variable = true;   // false for --isospeed base, which holds the variable's bound value
};

// Refused unless the searched name is a variable of the program (--isospeed), or of the program
// or a constant of every machine (--isoefficiency).
Check check_searchable(const Searched& searched, const std::vector<Loaded>& machines) {
  const std::string& name = searched.variable;
  const Loaded& first = machines.front();
  if (models::declares_variable(*first.program, name)) {
    if (!searched.range_given) return passed();
    return refuse(
        fmt::format("--iso-range: {} is a program variable, searched over the integers up to --iso-max; "
                    "--iso-range is for a machine constant",
                    name));
  }
  if (searched.isoefficiency) {
    const auto lacking = std::find_if(machines.begin(), machines.end(), [&](const Loaded& loaded) {
      return !models::declares_constant(loaded.machine, name);
    });
    if (lacking == machines.end()) return passed();
    if (lacking != machines.begin()) {
      return refuse(
          fmt::format("--iso-variable {}: machine '{}' has no constant '{}' (a search over a machine "
                      "constant needs it on every machine)",
                      name, lacking->machine.name, name));
    }
  }
  if (!searched.isoefficiency && models::declares_constant(first.machine, name)) {
    return refuse(
        fmt::format("--iso-variable {}: --isospeed searches a program variable (the problem size); '{}' is "
                    "a constant of machine '{}' (--isoefficiency can search it)",
                    name, name, first.machine.name));
  }
  return refuse(unknown_variable_text(*first.program, searched.isoefficiency ? first.machine : models::ideal_machine(),
                                      name, "--iso-variable"));
}

// A program's variables as bound on the first machine, with the first swept value (or size 1) for
// a variable that is swept or searched, which may have no default: those not swept into
// `variables`, the expressions of P into `per_processor`, and whether one sets a size into
// `weak_scaling`. False with the errors printed (named with the program's label when there are
// several).
bool bound_variables(const std::optional<Searched>& search, const Loaded& loaded,
                     const std::vector<analysis::SweepVariable>& sweeps,
                     const std::map<std::string, double>& check_values, std::map<std::string, double>& variables,
                     std::map<std::string, std::string>& per_processor, bool& weak_scaling, std::ostream& err) {
  const models::Program& program = *loaded.program;
  std::map<std::string, double> values = loaded.sets;
  for (const auto& [name, value] : check_values) {
    // Not a machine constant, nor a name another program has.
    if (models::declares_variable(program, name)) values[name] = value;
  }
  const bool sets_searched = search && search->sets_variable;
  if (sets_searched && models::declares_variable(program, search->variable)) values[search->variable] = 1;
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
  weak_scaling = weak_scaling || models::is_weak_scaling(program, binding.environment);
  for (const models::Variable& variable : program.variables) {
    const auto found = binding.environment.values.find(variable.name);
    if (found != binding.environment.values.end()) variables[variable.name] = found->second;
  }
  for (const analysis::SweepVariable& sweep : sweeps) variables.erase(sweep.name);
  if (sets_searched) variables.erase(search->variable);
  return true;
}

// What the study, isoefficiency and isospeed share: the programs on the machines, checked with
// the names they are given, and what the reports echo.
struct AnalysisSetup {
  const ProgramInputs& inputs;
  const ReportDestination& report;
  const analysis::Request& request;
  const std::vector<analysis::SweepVariable>& sweeps;
  std::vector<OutputFile> outputs;  // checked against the inputs before any work
  std::vector<RunInput> declared;   // the inputs besides the programs, machines and measured data
  bool loss = false;
  bool scaling_laws = false;
  std::optional<Searched> search;  // --isoefficiency or --isospeed
};

// What the reports echo: the program(s), the machines and the variables as bound on the first
// machine. With several programs each has its own variables (report::ReportInputs::programs), and the
// weak-scaling expressions are those of every program (the first program's where two differ).
std::optional<report::ReportInputs> report_inputs(const AnalysisSetup& setup, const std::vector<Loaded>& machines,
                                                  const std::map<std::string, double>& check_values,
                                                  std::ostream& err) {
  const std::vector<analysis::SweepVariable>& sweeps = setup.sweeps;
  report::ReportInputs inputs;
  const std::size_t machine_count = machines_per_program(machines);
  const std::vector<const Loaded*> programs = one_per_program(machines, machine_count);
  const std::vector<std::string>& files = setup.inputs.programs;
  for (std::size_t m = 0; m < machine_count; ++m) {
    inputs.machines.push_back(
        {machines[m].machine.name, machines[m].machine_file, machines[m].machine_sets, machines[m].band});
  }
  inputs.sweeps = sweeps;
  inputs.loss = setup.loss;
  inputs.time_unit = setup.report.time_unit;
  inputs.command = setup.report.command;
  inputs.scaling_laws = setup.scaling_laws;
  for (std::size_t k = 0; k < programs.size(); ++k) {
    report::ProgramInput program{programs[k]->program_label, programs[k]->program->name, files[k], {}};
    if (!bound_variables(setup.search, *programs[k], sweeps, check_values, program.variables,
                         inputs.per_processor_variables, inputs.weak_scaling, err)) {
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

struct Prepared {
  std::vector<Loaded> machines;
  report::ReportInputs inputs;
};

// Every program loaded on every machine, the outputs checked against them, the names checked,
// and the reports' inputs; nothing with the errors printed.
std::optional<Prepared> prepare(const AnalysisSetup& setup, std::ostream& err) {
  std::map<std::string, double> check_values;
  for (const analysis::SweepVariable& sweep : setup.sweeps) check_values[sweep.name] = sweep.values.front();
  auto machines = load_machines(setup.inputs, check_values, err);
  if (!machines) return std::nullopt;
  Check checked =
      check_destinations(setup.outputs, setup.declared, setup.inputs.program(), *machines, setup.request.communicator);
  if (checked.ok()) checked = names_declared_somewhere(setup.inputs, *machines, setup.sweeps, err);
  if (checked.ok() && setup.search) checked = check_searchable(*setup.search, *machines);
  if (!checked.ok()) {
    err << checked.failure->text;
    return std::nullopt;
  }
  auto inputs = report_inputs(setup, *machines, check_values, err);
  if (!inputs) return std::nullopt;
  inputs->request = setup.request;
  return Prepared{std::move(*machines), std::move(*inputs)};
}

void print_notes(const std::vector<std::string>& notes, std::ostream& err) {
  for (const std::string& note : notes) err << "pdl-scale: note: " << note << '\n';
}

// An isoefficiency or isospeed command's notes said and its programs prepared for its search,
// which takes no sweeps, loss analysis or scaling laws.
template <typename SearchCommand>
std::optional<Prepared> prepare_search(const SearchCommand& command, Searched searched, std::ostream& err) {
  print_notes(command.notes, err);
  const std::vector<analysis::SweepVariable> no_sweeps;
  const AnalysisSetup setup{
      command.inputs, command.report, command.request,    no_sweeps, outputs_of(command), inputs_of(command.inputs),
      false,          false,          std::move(searched)};
  return prepare(setup, err);
}

// The charts of the study, each whole or not at all; false with the error printed.
bool write_charts(const ChartFiles& charts, const analysis::StudyResult& study, const report::ReportInputs& inputs,
                  std::ostream& err) {
  const std::tuple<const char*, const std::optional<std::string>*, std::function<std::string()>> drawn[] = {
      {"--plot", &charts.speedup, [&] { return report::render_plot(study, inputs, {charts.log_axes}); }},
      {"--tail-plot", &charts.tail, [&] { return report::render_tail_plot(study, inputs, {charts.log_axes}); }},
      {"--breakdown-plot", &charts.breakdown, [&] { return report::render_breakdown_plot(study, inputs); }},
      {"--sensitivity-plot", &charts.sensitivity,
       [&] { return report::render_sensitivity_plot(study, inputs, {charts.log_axes}); }}};
  for (const auto& [option, file, render] : drawn) {
    if (!*file) continue;
    if (Check written = write_output_file({option, **file}, render()); !written.ok()) {
      err << written.failure->text;
      return false;
    }
  }
  return true;
}

// The study with its progress bar; Ctrl-C or SIGTERM while it runs stops it with the rows
// solved (app/interrupt.hpp). The signals are theirs again before any file is written.
analysis::Outcome<analysis::StudyResult> solve_interruptibly(const std::vector<analysis::Case>& cases,
                                                             const StudyCommand& command, bool terminal,
                                                             const std::optional<analysis::StudyPlan>& plan) {
  const InterruptScope interrupts(command.catch_interrupts);
  std::atomic<bool> stopped{false};  // by on_progress
  analysis::Request request = command.request;
  request.stop = command.on_progress ? &stopped : interrupts.flag();
  // Off a terminal, --progress prints a line every few seconds instead of the bar.
  const bool lines = command.budget.progress && !terminal;
  ProgressBar bar(shows_progress(command.budget, terminal), stderr,
                  lines ? ProgressBar::kLineInterval : ProgressBar::kBarDelay, lines);
  const analysis::Progress progress = [&](double done, std::size_t total) {
    bar.update(done, total);
    if (command.on_progress && !stopped && !command.on_progress(done, total)) stopped = true;
  };
  // A plan limited in time (made for the estimate) is made whole by the overload that plans.
  auto study = plan && plan->complete ? analysis::run_study(*plan, cases, request, progress)
                                      : analysis::run_study(cases, request, progress);
  bar.finish();
  return study;
}

}  // namespace

int run_isoefficiency(const IsoefficiencyCommand& command, std::ostream& out, std::ostream& err, bool terminal) {
  const auto prepared =
      prepare_search(command, Searched{command.search.variable, true, command.range_given, true}, err);
  if (!prepared) return kExitInput;
  const Loaded& first = prepared->machines.front();
  const bool constant = !models::declares_variable(*first.program, command.search.variable) &&
                        models::declares_constant(first.machine, command.search.variable);
  const double range = command.search.constant_min && command.search.constant_max
                           ? *command.search.constant_max / *command.search.constant_min
                           : 1e6;  // [v / 1000, 1000 v]
  if (!search_within_time_limit(command.budget, machine_inputs(prepared->machines), command.request,
                                command.search.variable, analysis::search_evaluations(command.search, constant, range),
                                err, terminal)) {
    return kExitInput;
  }
  const auto points = analysis::run_isoefficiency(machine_inputs(prepared->machines), command.request.processors,
                                                  command.search, command.request.threads);
  if (!points.ok()) {
    print_failure(*points.failure, prepared->machines, err);
    return kExitInput;
  }
  return emit(command.report,
              report::render_isoefficiency(*points.value, command.search, prepared->inputs, command.report.format), out,
              err);
}

int run_isospeed(const IsospeedCommand& command, std::ostream& out, std::ostream& err, bool terminal) {
  const std::string& variable = command.search.variable;
  const auto prepared =
      prepare_search(command, Searched{variable, false, false, command.search.fraction.has_value()}, err);
  if (!prepared) return kExitInput;
  if (!command.search.fraction && prepared->inputs.per_processor_variables.count(variable) != 0) {
    return usage_error(err, fmt::format("--isospeed base: {} is an expression of P, so the smallest p has no one size "
                                        "to hold: give it with --set {}=N",
                                        variable, variable));
  }
  analysis::IsoefficiencyOptions sizes;
  sizes.max_size = command.search.max_size;
  if (!search_within_time_limit(command.budget, machine_inputs(prepared->machines), command.request, variable,
                                analysis::search_evaluations(sizes, false, 0.0), err, terminal)) {
    return kExitInput;
  }
  const auto result = analysis::run_isospeed(machine_inputs(prepared->machines), command.request.processors,
                                             command.search, command.request.threads);
  if (!result.ok()) {
    print_failure(*result.failure, prepared->machines, err);
    return kExitInput;
  }
  return emit(command.report,
              report::render_isospeed(*result.value, command.search, prepared->inputs, command.report.format), out,
              err);
}

// Every (machine, combination of swept values) and, for --loss, every phase alone, solved over
// the processor counts; the report, and the charts first when asked (when one cannot be
// written, the report is not written either).
int run_study(const StudyCommand& command, std::ostream& out, std::ostream& err, bool terminal) {
  print_notes(command.notes, err);
  const AnalysisSetup setup{command.inputs, command.report,       command.request,
                            command.sweeps, outputs_of(command),  inputs_of(command.inputs),
                            command.loss,   command.scaling_laws, std::nullopt};
  auto prepared = prepare(setup, err);
  if (!prepared) return kExitInput;
  const auto cases = analysis::make_cases(machine_inputs(prepared->machines), command.sweeps, command.loss);
  if (!cases.ok()) {
    print_failure(*cases.failure, prepared->machines, err);
    return kExitInput;
  }
  report::ReportInputs& inputs = prepared->inputs;
  // Plan, estimate (refuse or announce), run: the run reads the estimate's plan.
  std::optional<analysis::StudyPlan> plan;
  if (!within_time_limit(command.budget, *cases.value, command.request, err, terminal, inputs.estimated_seconds,
                         plan)) {
    return kExitInput;
  }
  const auto study = solve_interruptibly(*cases.value, command, terminal, plan);
  if (!study.ok()) {
    print_failure(*study.failure, prepared->machines, err);
    return kExitInput;
  }
  const bool interrupted = !study.value->unsolved_processors().empty();
  if (interrupted && study.value->processors().empty()) {
    err << "pdl-scale: interrupted before any processor count was solved whole: nothing to report\n";
    return kExitInterrupted;
  }
  if (command.report.output_rank && !write_charts(command.charts, *study.value, prepared->inputs, err)) {
    return kExitInput;
  }
  const int status =
      emit(command.report, report::render(*study.value, prepared->inputs, command.report.format), out, err);
  return interrupted && status == kExitSuccess ? kExitInterrupted : status;
}

}  // namespace app
