// --check, --dump and --graph (one program on at most one machine), and the visit that runs
// every mode.
#include "app/commands.hpp"

#include "app/command_checks.hpp"

#include <fmt/format.h>

#include <sstream>
#include <stdexcept>

#include "app/cli.hpp"
#include "app/destinations.hpp"
#include "app/command.hpp"
#include "app/import.hpp"
#include "app/load.hpp"
#include "graph/dot.hpp"
#include "models/bind.hpp"
#include "models/dump.hpp"
#include "scaling/approximate_model.hpp"
#include "scaling/exact_model.hpp"
#include "tools/fit_command.hpp"

namespace app {

namespace {

// The program's variables bound on the machine (defaults and --set); prints why not.
std::optional<models::Binding> bind_variables(const Loaded& loaded, std::ostream& err) {
  models::Binding binding = models::bind(*loaded.program, loaded.machine, loaded.sets);
  if (!binding.ok()) {
    print_bind_errors(binding.errors, err);
    return std::nullopt;
  }
  return binding;
}

// The scaled model on p processors as DOT; throws scaling::ScalingError for invalid values.
std::string dot_of(const Loaded& loaded, const models::Environment& environment, GraphModel model, int p) {
  // A drawing of more nodes than this is no use to anyone; the limit also bounds the memory.
  constexpr std::size_t kMaxDrawnNodes = 200'000;
  const std::string title = fmt::format("{} on {} processors ({} model, machine {})", loaded.program->name, p,
                                        model == GraphModel::Approximate ? "approx" : "exact", loaded.machine.name);
  if (model == GraphModel::Approximate) {
    return graph::to_dot(scaling::approximate_model(*loaded.program, loaded.machine, environment, p), title);
  }
  scaling::ExactModelOptions limits;
  limits.max_nodes = kMaxDrawnNodes;
  const scaling::ExactModel exact = scaling::exact_model(*loaded.program, loaded.machine, environment, p, limits);
  std::string dot;
  for (const scaling::Scenario& scenario : exact.scenarios) {
    dot += graph::to_dot(scenario.graph, exact.scenarios.size() == 1
                                             ? title
                                             : fmt::format("{}, probability {:g}: {}", title, scenario.probability,
                                                           scenario.description));
  }
  return dot;
}

}  // namespace

namespace {

int check_one(const ProgramInputs& inputs, std::ostream& out, std::ostream& err) {
  const std::string& file = inputs.program();
  if (is_machine_file(file)) {
    if (!load_machine(file, err, nullptr, inputs.read_file)) return kExitInput;
    out << file << ": ok\n";
    return kExitSuccess;
  }
  const auto loaded = load_one(inputs, err);
  if (!loaded) return kExitInput;
  // A variable without a default is fine for --check unless --set names something unknown.
  const models::Binding binding = models::bind(*loaded->program, loaded->machine, loaded->sets);
  for (const models::BindError& error : binding.errors) {
    if (error.code == models::BindError::Code::UnknownVariable) {
      print_bind_errors({error}, err);
      return kExitInput;
    }
  }
  out << file << ": ok\n";
  return kExitSuccess;
}

}  // namespace

// Several files are checked one after the other, each with its diagnostics; the status is 2
// when any of them fails.
int run_check(const CheckCommand& command, std::ostream& out, std::ostream& err) {
  int status = kExitSuccess;
  for (const std::string& file : command.inputs.programs) {
    // A runs file among the programs is checked as one (docs/calibration.md), not parsed as PDL.
    if (is_runs_file(file)) {
      if (run_check_runs(CheckRunsCommand{file, command.inputs.read_file}, out, err) != kExitSuccess) {
        status = kExitInput;
      }
      continue;
    }
    ProgramInputs one = command.inputs;
    one.programs = {file};
    if (check_one(one, out, err) != kExitSuccess) status = kExitInput;
  }
  return status;
}

int run_dump(const DumpCommand& command, std::ostream& out, std::ostream& err) {
  const std::string& file = command.inputs.program();
  if (is_machine_file(file)) {
    const auto machine = load_machine(file, err, nullptr, command.inputs.read_file);
    if (!machine) return kExitInput;
    out << models::dump(*machine);
    return kExitSuccess;
  }
  const auto loaded = load_one(command.inputs, err);
  if (!loaded) return kExitInput;
  const auto binding = bind_variables(*loaded, err);
  if (!binding) return kExitInput;
  out << models::dump(*loaded->program, loaded->machine, binding->environment, loaded->sets,
                      {.produced_by = "pdl-scale --dump", .given_by = "--set"});
  return kExitSuccess;
}

int run_graph(const GraphCommand& command, std::ostream& out, std::ostream& err) {
  const int p = command.processors;
  const auto loaded = load_one(command.inputs, err);
  if (!loaded) return kExitInput;
  const Check destinations = check_destinations(outputs_of(command), inputs_of(command.inputs),
                                                command.inputs.program(), {*loaded}, command.report.ranks);
  if (!destinations.ok()) {
    err << destinations.failure->text;
    return kExitInput;
  }
  const auto binding = bind_variables(*loaded, err);
  if (!binding) return kExitInput;
  std::string dot;
  try {
    dot = dot_of(*loaded, binding->environment, command.model, p);
  } catch (const scaling::ExactModelTooLarge& too_large) {
    return usage_error(err, fmt::format("--graph {} --model exact: the exact model has more than {} nodes, the most "
                                        "--graph draws; draw fewer processors, a smaller problem (--set), or the "
                                        "approximate model (--model approx)",
                                        p, too_large.limit()));
  } catch (const graph::DrawingTooLarge& too_large) {  // the approximate model's drawing
    return usage_error(err, fmt::format("--graph {}: {}, more than anyone can read; draw fewer processors or a smaller "
                                        "problem (--set)",
                                        p, too_large.what()));
  } catch (const scaling::ScalingError& scaling_error) {
    analysis::Failure failure;
    failure.message = scaling_error.what();
    failure.location = scaling_error.location();
    print_failure(failure, {*loaded}, err);
    return kExitInput;
  }
  return emit(command.report, dot, out, err);
}

namespace {

// The visit: each mode to its run function.
struct Runner {
  std::ostream& out;
  std::ostream& err;
  bool terminal;

  int operator()(const TextCommand& command) const {
    out << command.text;
    return kExitSuccess;
  }
  int operator()(const FitCommand& command) const {
    std::vector<const char*> argv;
    for (const std::string& argument : command.arguments) argv.push_back(argument.c_str());
    return fitting::fit_main(command.arguments.front(), static_cast<int>(argv.size()), argv.data(), out, err);
  }
  int operator()(const ImportCommand& command) const { return run_import(command, out, err); }
  int operator()(const CheckCommand& command) const { return run_check(command, out, err); }
  int operator()(const CheckRunsCommand& command) const { return run_check_runs(command, out, err); }
  int operator()(const DumpCommand& command) const { return run_dump(command, out, err); }
  int operator()(const GraphCommand& command) const { return run_graph(command, out, err); }
  int operator()(const StudyCommand& command) const { return run_study(command, out, err, terminal); }
  int operator()(const IsoefficiencyCommand& command) const { return run_isoefficiency(command, out, err, terminal); }
  int operator()(const IsospeedCommand& command) const { return run_isospeed(command, out, err, terminal); }
  int operator()(const CalibrationCommand& command) const { return run_calibration(command, out, err, terminal); }
};

}  // namespace

int run(const Command& command, std::ostream& out, std::ostream& err, bool terminal) {
  return std::visit(Runner{out, err, terminal}, command);
}

int run_command(int argc, char** argv, Options defaults, std::ostream& out, std::ostream& err, bool terminal) {
  const auto command = parse_command_line(argc, argv, std::move(defaults));
  if (!command.ok()) {
    err << command.failure->text;
    return kExitInput;
  }
  return run(*command.value, out, err, terminal);
}

}  // namespace app
