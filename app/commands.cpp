#include "app/commands.hpp"

#include "app/output_file.hpp"
#include "app/progress.hpp"
#include "app/report.hpp"
#include "app/sweep.hpp"
#include "graph/dot.hpp"
#include "models/bind.hpp"
#include "scaling/exact_model.hpp"
#include "scaling/approximate_model.hpp"
#include "models/dump.hpp"
#include "pdl/check.hpp"
#include "pdl/parse.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

namespace app {

std::optional<std::uint64_t> parse_bytes(const std::string& text) {
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end == text.data() || value == 0) return std::nullopt;
  const std::string_view unit(end, static_cast<std::size_t>(text.data() + text.size() - end));
  int shift = 0;
  if (unit == "K" || unit == "k") shift = 10;
  else if (unit == "M" || unit == "m") shift = 20;
  else if (unit == "G" || unit == "g") shift = 30;
  else if (unit == "T" || unit == "t") shift = 40;
  else if (!unit.empty()) return std::nullopt;
  if (value > (std::uint64_t{1} << (60 - shift))) return std::nullopt;
  return value << shift;
}

std::optional<std::vector<solvers::Method>> parse_methods(const std::string& list, std::string* error) {
  // The methods this version solves, in the order "all" runs them.
  static constexpr solvers::Method kAll[] = {solvers::Method::Approximate, solvers::Method::Bounds,
                                             solvers::Method::MonteCarlo, solvers::Method::Exact};
  // "auto": the approximate model, the bounds, and the exact mean wherever the state space
  // fits (a p beyond the budget gets a note instead).
  static constexpr solvers::Method kAuto[] = {solvers::Method::Approximate, solvers::Method::Bounds,
                                              solvers::Method::Exact};
  std::vector<solvers::Method> methods;
  auto add = [&](solvers::Method method) {
    if (std::find(methods.begin(), methods.end(), method) == methods.end()) methods.push_back(method);
  };
  std::string_view rest = list;
  while (true) {
    const std::size_t comma = rest.find(',');
    const std::string_view name = rest.substr(0, comma);
    if (name == "all") {
      for (solvers::Method method : kAll) add(method);
    } else if (name == "auto") {
      for (solvers::Method method : kAuto) add(method);
    } else {
      const auto method = solvers::method_from_string(name);
      if (!method) {
        *error = fmt::format("--method {}: unknown method '{}' (approx, bounds, mc, exact, auto or all)", list, name);
        return std::nullopt;
      }
      add(*method);
    }
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return methods;
}

std::optional<std::vector<int>> processor_counts(const Options& options, std::string* error) {
  std::vector<int> counts;
  if (!options.processors.empty()) {
    if (options.pmax) {
      *error = "give either --pmax or --p, not both";
      return std::nullopt;
    }
    std::string_view list = options.processors;
    while (!list.empty()) {
      const std::size_t comma = list.find(',');
      const std::string_view item = list.substr(0, comma);
      long long value = 0;
      const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), value);
      if (item.empty() || ec != std::errc() || end != item.data() + item.size()) {
        *error = fmt::format("--p {}: '{}' is not a processor count", options.processors, item);
        return std::nullopt;
      }
      if (value < 1 || value > scaling::kMaxProcessors) {
        *error = fmt::format("--p: processor count {} is outside [1, {}]", value, scaling::kMaxProcessors);
        return std::nullopt;
      }
      counts.push_back(static_cast<int>(value));
      if (comma == std::string_view::npos) break;
      list.remove_prefix(comma + 1);
      if (list.empty()) {
        *error = fmt::format("--p {}: a processor count is missing after the last comma", options.processors);
        return std::nullopt;
      }
    }
  } else {
    const int pmax = options.pmax.value_or(kDefaultPmax);
    if (pmax < 1 || static_cast<std::size_t>(pmax) > kMaxProcessorCounts) {
      *error = fmt::format("--pmax {} is outside [1, {}]", pmax, kMaxProcessorCounts);
      return std::nullopt;
    }
    for (int p = 1; p <= pmax; ++p) counts.push_back(p);
  }
  std::sort(counts.begin(), counts.end());
  counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
  if (counts.size() > kMaxProcessorCounts) {
    *error = fmt::format("--p lists {} processor counts, more than {}", counts.size(), kMaxProcessorCounts);
    return std::nullopt;
  }
  return counts;
}

std::optional<std::map<std::string, double>> parse_sets(const std::vector<std::string>& sets, std::string* error) {
  std::map<std::string, double> out;
  for (const std::string& set : sets) {
    const std::size_t eq = set.find('=');
    const std::string name = eq == std::string::npos ? set : set.substr(0, eq);
    const std::string text = eq == std::string::npos ? std::string() : set.substr(eq + 1);
    if (eq == std::string::npos || name.empty() || text.empty()) {
      *error = fmt::format("--set '{}': expected name=value", set);
      return std::nullopt;
    }
    double value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
      *error = fmt::format("--set {}: '{}' is not a finite number", name, text);
      return std::nullopt;
    }
    if (!out.emplace(name, value).second) {
      *error = fmt::format("--set {}: given twice", name);
      return std::nullopt;
    }
  }
  return out;
}

namespace {

// Reads at most one byte more than the parser accepts: a huge file is refused by size
// without being read.
std::optional<std::string> read_file(const std::string& path, std::ostream& err) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    err << fmt::format("pdl-scale: error: cannot open '{}': {}\n", path, std::strerror(errno));
    return std::nullopt;
  }
  std::string text(pdl::kMaxSourceBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (in.bad()) {
    err << fmt::format("pdl-scale: error: cannot read '{}'\n", path);
    return std::nullopt;
  }
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (text.size() > pdl::kMaxSourceBytes) {
    // Refused here, by its real size, rather than by the parser on the part that was read.
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    const pdl::Source source(path, text.substr(0, text.find('\n')));
    err << pdl::format(source.diagnose(pdl::Severity::Error, 0, fmt::format(
        "the file is too large: {} bytes (the limit is {} bytes)",
        ec ? std::string("more than ") + std::to_string(pdl::kMaxSourceBytes) : std::to_string(size),
        pdl::kMaxSourceBytes)));
    return std::nullopt;
  }
  return text;
}

void print(const std::vector<pdl::Diagnostic>& diagnostics, std::ostream& err) {
  err << pdl::format(diagnostics);
}

struct Loaded {
  std::optional<models::Program> program;
  models::Machine machine;
  std::map<std::string, double> sets;
  // The texts, to point into them when a value is found invalid after binding.
  pdl::Source program_source;
  std::optional<pdl::Source> machine_source;
};

// Parses and checks the machine (if any) and the program; prints every diagnostic.
std::optional<Loaded> load(const Options& options, std::ostream& err) {
  Loaded loaded;
  std::string error;
  const auto sets = parse_sets(options.sets, &error);
  if (!sets) {
    err << "pdl-scale: error: " << error << '\n';
    return std::nullopt;
  }
  loaded.sets = *sets;
  loaded.machine = models::ideal_machine();
  if (options.machine_file) {
    const auto text = read_file(*options.machine_file, err);
    if (!text) return std::nullopt;
    const pdl::MachineParseResult parsed = pdl::parse_machine(*text, *options.machine_file);
    print(parsed.diagnostics, err);
    if (!parsed.ast) return std::nullopt;
    const pdl::MachineCheckResult checked = pdl::check_machine(*parsed.ast, parsed.source);
    print(checked.diagnostics, err);
    if (!checked.machine) return std::nullopt;
    loaded.machine = *checked.machine;
    loaded.machine_source = parsed.source;
  }
  const auto text = read_file(options.file, err);
  if (!text) return std::nullopt;
  const pdl::ParseResult parsed = pdl::parse(*text, options.file);
  print(parsed.diagnostics, err);
  if (!parsed.ast) return std::nullopt;
  pdl::CheckOptions check_options;
  check_options.machine = &loaded.machine;
  check_options.sets = loaded.sets;
  pdl::CheckResult checked = pdl::check(*parsed.ast, parsed.source, check_options);
  print(checked.diagnostics, err);
  if (!checked.program) return std::nullopt;
  loaded.program = std::move(checked.program);
  loaded.program_source = parsed.source;
  return loaded;
}


// The program's variables bound on the machine (defaults and --set); prints why not.
std::optional<models::Binding> bind_variables(const Loaded& loaded, std::ostream& err) {
  models::Binding binding = models::bind(*loaded.program, loaded.machine, loaded.sets);
  if (!binding.ok()) {
    for (const std::string& message : binding.errors) err << "pdl-scale: error: " << message << '\n';
    return std::nullopt;
  }
  return binding;
}

// The command's output on `out`, or into -o FILE whole or not at all.
int emit(const Options& options, const std::string& text, std::ostream& out, std::ostream& err) {
  if (!options.output) {
    out << text;
    return kExitSuccess;
  }
  try {
    write_file_atomically(*options.output, text);
  } catch (const std::runtime_error& write_error) {
    err << "pdl-scale: error: " << write_error.what() << '\n';
    return kExitInput;
  }
  return kExitSuccess;
}

// A value found invalid once the variables were bound, shown at its place in the file it
// comes from.
void print_scaling_error(const scaling::ScalingError& error, const Loaded& loaded, std::ostream& err) {
  const models::SourceLocation& where = error.location();
  const pdl::Source* source = nullptr;
  if (where.line > 0 && where.file == loaded.program_source.filename()) source = &loaded.program_source;
  if (where.line > 0 && loaded.machine_source && where.file == loaded.machine_source->filename()) {
    source = &*loaded.machine_source;
  }
  if (source == nullptr) {
    err << "pdl-scale: error: " << error.what() << '\n';
    return;
  }
  err << pdl::format(source->diagnose(pdl::Severity::Error, source->offset(where), error.what()));
}

}  // namespace

bool is_machine_file(const std::string& path) {
  static constexpr std::string_view kExtension = ".machine";
  return path.size() >= kExtension.size() && path.compare(path.size() - kExtension.size(), kExtension.size(), kExtension) == 0;
}

int run_check(const Options& options, std::ostream& out, std::ostream& err) {
  if (is_machine_file(options.file)) {
    const auto text = read_file(options.file, err);
    if (!text) return kExitInput;
    const pdl::MachineParseResult parsed = pdl::parse_machine(*text, options.file);
    print(parsed.diagnostics, err);
    if (!parsed.ast) return kExitInput;
    const pdl::MachineCheckResult checked = pdl::check_machine(*parsed.ast, parsed.source);
    print(checked.diagnostics, err);
    if (!checked.machine) return kExitInput;
    out << options.file << ": ok\n";
    return kExitSuccess;
  }
  const auto loaded = load(options, err);
  if (!loaded) return kExitInput;
  const models::Binding binding = models::bind(*loaded->program, loaded->machine, loaded->sets);
  // A variable without a default is fine for --check unless --set names something unknown.
  for (const std::string& message : binding.errors) {
    if (message.rfind("--set", 0) == 0) {
      err << "pdl-scale: error: " << message << '\n';
      return kExitInput;
    }
  }
  out << options.file << ": ok\n";
  return kExitSuccess;
}

int run_dump(const Options& options, std::ostream& out, std::ostream& err) {
  if (is_machine_file(options.file)) {
    Options as_machine = options;
    as_machine.machine_file = options.file;
    std::ostringstream ignored;
    if (run_check(as_machine, ignored, err) != kExitSuccess) return kExitInput;
    const auto text = read_file(options.file, err);
    const pdl::MachineParseResult parsed = pdl::parse_machine(*text, options.file);
    const pdl::MachineCheckResult checked = pdl::check_machine(*parsed.ast, parsed.source);
    out << models::dump(*checked.machine);
    return kExitSuccess;
  }
  const auto loaded = load(options, err);
  if (!loaded) return kExitInput;
  const auto binding = bind_variables(*loaded, err);
  if (!binding) return kExitInput;
  out << models::dump(*loaded->program, loaded->machine, binding->environment, loaded->sets);
  return kExitSuccess;
}


int run_analysis(const Options& options, std::ostream& out, std::ostream& err, bool terminal) {
  std::string error;
  const auto format = format_from_string(options.format);
  if (!format) {
    err << fmt::format("pdl-scale: error: --format {}: unknown format (table, csv or json)\n", options.format);
    return kExitInput;
  }
  const auto counts = processor_counts(options, &error);
  if (!counts) {
    err << "pdl-scale: error: " << error << '\n';
    return kExitInput;
  }
  const auto methods = parse_methods(options.methods, &error);
  if (!methods) {
    err << "pdl-scale: error: " << error << '\n';
    return kExitInput;
  }
  SweepOptions sweep_options;
  sweep_options.processors = *counts;
  sweep_options.methods = *methods;
  sweep_options.monte_carlo.seed = options.seed;
  sweep_options.max_exact_tasks = options.max_exact_tasks;
  sweep_options.state_space.memory_budget_bytes =
      options.state_budget ? *options.state_budget : solvers::default_state_space_budget();
  sweep_options.state_space.max_states = options.max_states;
  if (options.samples) {
    sweep_options.monte_carlo.samples = *options.samples;
    sweep_options.monte_carlo.relative_precision = 0.0;
  } else {
    sweep_options.monte_carlo.relative_precision = options.precision;
  }
  sweep_options.threads = options.threads;
  sweep_options.series_parallel.grid.max_points = options.grid_points;
  if (!sweep_options.IsValid(&error)) {
    err << "pdl-scale: error: " << error << '\n';
    return kExitInput;
  }
  const auto loaded = load(options, err);
  if (!loaded) return kExitInput;
  const auto binding = bind_variables(*loaded, err);
  if (!binding) return kExitInput;

  SweepResult sweep;
  try {
    ProgressBar bar(terminal && !options.quiet, stderr);
    sweep = run_sweep(*loaded->program, loaded->machine, binding->environment, sweep_options,
                      [&bar](std::size_t done, std::size_t total) { bar.update(done, total); });
  } catch (const scaling::ScalingError& scaling_error) {
    print_scaling_error(scaling_error, *loaded, err);
    return kExitInput;
  }

  ReportInputs inputs;
  inputs.program_name = loaded->program->name;
  inputs.program_file = options.file;
  inputs.machine_name = loaded->machine.name;
  inputs.machine_file = options.machine_file.value_or("");
  for (const models::Variable& variable : loaded->program->variables) {
    const auto found = binding->environment.values.find(variable.name);
    if (found != binding->environment.values.end()) inputs.variables[variable.name] = found->second;
  }
  inputs.options = sweep_options;
  return emit(options, render(sweep, inputs, *format), out, err);
}

int run_graph(const Options& options, std::ostream& out, std::ostream& err) {
  const int p = options.graph.value_or(1);
  if (p < 1 || p > scaling::kMaxProcessors) {
    err << fmt::format("pdl-scale: error: --graph {}: the processor count must be in [1, {}]\n", p,
                       scaling::kMaxProcessors);
    return kExitInput;
  }
  if (options.model != "exact" && options.model != "approx") {
    err << fmt::format("pdl-scale: error: --model {}: unknown model (exact or approx)\n", options.model);
    return kExitInput;
  }
  const auto loaded = load(options, err);
  if (!loaded) return kExitInput;
  const auto binding = bind_variables(*loaded, err);
  if (!binding) return kExitInput;
  // A drawing of more nodes than this is no use to anyone; the limit also bounds the memory.
  constexpr std::size_t kMaxDrawnNodes = 200'000;
  const std::string title = fmt::format("{} on {} processors ({} model, machine {})",
                                        loaded->program->name, p, options.model, loaded->machine.name);
  std::string dot;
  try {
    if (options.model == "approx") {
      dot = graph::to_dot(scaling::approximate_model(*loaded->program, loaded->machine,
                                                     binding->environment, p),
                          title);
    } else {
      scaling::ExactModelOptions limits;
      limits.max_nodes = kMaxDrawnNodes;
      const scaling::ExactModel model =
          scaling::exact_model(*loaded->program, loaded->machine, binding->environment, p, limits);
      for (const scaling::Scenario& scenario : model.scenarios) {
        dot += graph::to_dot(scenario.graph, model.scenarios.size() == 1
                                                 ? title
                                                 : fmt::format("{}, probability {:g}: {}", title,
                                                               scenario.probability, scenario.description));
      }
    }
  } catch (const scaling::ScalingError& scaling_error) {
    print_scaling_error(scaling_error, *loaded, err);
    return kExitInput;
  }
  return emit(options, dot, out, err);
}

}  // namespace app
