// --check, --dump and --graph: one program on at most one machine.
#include "app/commands.hpp"

#include <fmt/format.h>

#include <sstream>
#include <stdexcept>

#include "app/cli.hpp"
#include "app/destinations.hpp"
#include "app/load.hpp"
#include "graph/dot.hpp"
#include "models/bind.hpp"
#include "models/dump.hpp"
#include "scaling/approximate_model.hpp"
#include "scaling/exact_model.hpp"

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

int check_one(const Options& options, std::ostream& out, std::ostream& err) {
  if (is_machine_file(options.file)) {
    if (!load_machine(options.file, err, nullptr, options.read_file)) return kExitInput;
    out << options.file << ": ok\n";
    return kExitSuccess;
  }
  const auto loaded = load_one(options, err);
  if (!loaded) return kExitInput;
  // A variable without a default is fine for --check unless --set names something unknown.
  const models::Binding binding = models::bind(*loaded->program, loaded->machine, loaded->sets);
  for (const models::BindError& error : binding.errors) {
    if (error.code == models::BindError::Code::UnknownVariable) {
      print_bind_errors({error}, err);
      return kExitInput;
    }
  }
  out << options.file << ": ok\n";
  return kExitSuccess;
}

}  // namespace

// Several files are checked one after the other, each with its diagnostics; the status is 2
// when any of them fails.
int run_check(const Options& options, std::ostream& out, std::ostream& err) {
  int status = kExitSuccess;
  for (const std::string& file : program_files(options)) {
    Options one = options;
    one.file = file;
    one.other_files.clear();
    if (check_one(one, out, err) != kExitSuccess) status = kExitInput;
  }
  return status;
}

int run_dump(const Options& options, std::ostream& out, std::ostream& err) {
  if (const auto problem = several_programs_problem(options)) return usage_error(err, *problem);
  if (is_machine_file(options.file)) {
    const auto machine = load_machine(options.file, err, nullptr, options.read_file);
    if (!machine) return kExitInput;
    out << models::dump(*machine);
    return kExitSuccess;
  }
  const auto loaded = load_one(options, err);
  if (!loaded) return kExitInput;
  const auto binding = bind_variables(*loaded, err);
  if (!binding) return kExitInput;
  out << models::dump(*loaded->program, loaded->machine, binding->environment, loaded->sets,
                      {.produced_by = "pdl-scale --dump", .given_by = "--set"});
  return kExitSuccess;
}

int run_graph(const Options& options, std::ostream& out, std::ostream& err) {
  if (const auto problem = several_programs_problem(options)) return usage_error(err, *problem);
  const int p = options.graph.value_or(1);
  if (p < 1 || p > scaling::kMaxProcessors) {
    return usage_error(err,
                       fmt::format("--graph {}: the processor count must be in [1, {}]", p, scaling::kMaxProcessors));
  }
  const auto loaded = load_one(options, err);
  if (!loaded) return kExitInput;
  if (!check_destinations(options, {*loaded}, err)) return kExitInput;
  const auto binding = bind_variables(*loaded, err);
  if (!binding) return kExitInput;
  std::string dot;
  try {
    dot = dot_of(*loaded, binding->environment, options.model, p);
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
  return emit(options, dot, out, err);
}

int run_command(int argc, char** argv, Options options, std::ostream& out, std::ostream& err, bool terminal) {
  if (const auto status = parse_command_line(argc, argv, &options, out, err)) return *status;
  if (options.file.empty()) {
    if (options.check || options.dump) {
      err << "pdl-scale: error: --check and --dump need a FILE\n";
      return kExitInput;
    }
    out << help_text();
    return kExitSuccess;
  }
  if (options.dump) return run_dump(options, out, err);
  if (options.check && is_runs_file(options.file) && options.other_files.empty())
    return run_check_runs(options, out, err);
  if (options.check) return run_check(options, out, err);
  for (const std::string& file : program_files(options)) {
    if (is_runs_file(file)) {
      err << fmt::format(
          "pdl-scale: error: {} is a runs file (docs/calibration.md): give it to --calibrate or "
          "--validate with the PDL program, or --check it alone\n",
          file);
      return kExitInput;
    }
  }
  if (options.calibrate || options.validate || !options.fit.empty() || options.write_fit || options.validation_plot) {
    return run_calibration(options, out, err);
  }
  if (options.graph) return run_graph(options, out, err);
  return run_analysis(options, out, err, terminal);
}

}  // namespace app
