#include "app/commands.hpp"

#include "app/output_file.hpp"
#include "app/progress.hpp"
#include "app/plot.hpp"
#include "app/report.hpp"
#include "app/study.hpp"
#include "app/sweep.hpp"
#include "graph/dot.hpp"
#include "models/bind.hpp"
#include "scaling/exact_model.hpp"
#include "scaling/approximate_model.hpp"
#include "models/dump.hpp"
#include "pdl/check.hpp"
#include "pdl/parse.hpp"

#include <fmt/format.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <deque>
#include <mutex>
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
  static constexpr solvers::Method kAll[] = {solvers::Method::SeriesParallel, solvers::Method::Bounds,
                                             solvers::Method::MonteCarlo, solvers::Method::StateSpace};
  // "auto": the approximate model, the bounds, and the exact mean wherever the state space
  // fits (a p beyond the budget gets a note instead).
  static constexpr solvers::Method kAuto[] = {solvers::Method::SeriesParallel, solvers::Method::Bounds,
                                              solvers::Method::StateSpace};
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

// Parses and checks one machine file; prints every diagnostic.
bool load_machine(const std::string& file, Loaded& loaded, std::ostream& err) {
  const auto text = read_file(file, err);
  if (!text) return false;
  const pdl::MachineParseResult parsed = pdl::parse_machine(*text, file);
  print(parsed.diagnostics, err);
  if (!parsed.ast) return false;
  const pdl::MachineCheckResult checked = pdl::check_machine(*parsed.ast, parsed.source);
  print(checked.diagnostics, err);
  if (!checked.machine) return false;
  loaded.machine = *checked.machine;
  loaded.machine_source = parsed.source;
  return true;
}

// Parses and checks the machine (`machine_file`, or the ideal machine) and the program on it;
// prints every diagnostic. `check_sets` are the bindings the checker sees: --set and, for a
// sweep, the first swept values.
std::optional<Loaded> load(const Options& options, const std::optional<std::string>& machine_file,
                           const std::map<std::string, double>& check_sets, std::ostream& err) {
  Loaded loaded;
  std::string error;
  const auto sets = parse_sets(options.sets, &error);
  if (!sets) {
    err << "pdl-scale: error: " << error << '\n';
    return std::nullopt;
  }
  loaded.sets = *sets;
  loaded.machine = models::ideal_machine();
  if (machine_file && !load_machine(*machine_file, loaded, err)) return std::nullopt;
  const auto text = read_file(options.file, err);
  if (!text) return std::nullopt;
  const pdl::ParseResult parsed = pdl::parse(*text, options.file);
  print(parsed.diagnostics, err);
  if (!parsed.ast) return std::nullopt;
  pdl::CheckOptions check_options;
  check_options.machine = &loaded.machine;
  check_options.sets = loaded.sets;
  for (const auto& [name, value] : check_sets) check_options.sets[name] = value;
  pdl::CheckResult checked = pdl::check(*parsed.ast, parsed.source, check_options);
  print(checked.diagnostics, err);
  if (!checked.program) return std::nullopt;
  loaded.program = std::move(checked.program);
  loaded.program_source = parsed.source;
  return loaded;
}

// --check, --dump and --graph: the program on at most one machine.
std::optional<Loaded> load(const Options& options, std::ostream& err) {
  if (options.machine_files.size() > 1) {
    err << "pdl-scale: error: --machine: give one machine file here (several only for the analysis)\n";
    return std::nullopt;
  }
  const std::optional<std::string> machine_file =
      options.machine_files.empty() ? std::nullopt : std::optional<std::string>(options.machine_files.front());
  return load(options, machine_file, {}, err);
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
    as_machine.machine_files = {options.file};
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


namespace {

// The analysis options as the sweep's; nullopt with *error when they are invalid.
std::optional<SweepOptions> sweep_options_from(const Options& options, std::string* error) {
  const auto counts = processor_counts(options, error);
  if (!counts) return std::nullopt;
  const auto methods = parse_methods(options.methods, error);
  if (!methods) return std::nullopt;
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
  if (!sweep_options.IsValid(error)) return std::nullopt;
  return sweep_options;
}

// The --sweep options, checked against each other and --set (not yet against the program).
std::optional<std::vector<SweepVariable>> parse_sweeps(const Options& options, std::string* error) {
  std::vector<SweepVariable> sweeps;
  std::size_t combinations = 1;
  for (const std::string& text : options.sweeps) {
    auto variable = parse_sweep(text, error);
    if (!variable) return std::nullopt;
    for (const SweepVariable& known : sweeps) {
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

// The program's variables as bound, for the report's heading.
std::map<std::string, double> bound_variables(const models::Program& program, const models::Environment& environment) {
  std::map<std::string, double> variables;
  for (const models::Variable& variable : program.variables) {
    const auto found = environment.values.find(variable.name);
    if (found != environment.values.end()) variables[variable.name] = found->second;
  }
  return variables;
}

int run_isoefficiency(const Options& options, const std::vector<Loaded>& machines, const SweepOptions& sweep_options,
                      ReportInputs inputs, Format format, std::ostream& out, std::ostream& err) {
  IsoefficiencyOptions iso;
  iso.target = *options.isoefficiency;
  iso.variable = options.iso_variable;
  iso.max_size = options.iso_max;
  iso.series_parallel = sweep_options.series_parallel;
  const std::vector<int>& counts = sweep_options.processors;
  std::vector<IsoefficiencyPoint> points(machines.size() * counts.size());
  const Loaded* failed_in = nullptr;
  std::optional<scaling::ScalingError> failure;
  std::string bind_failure;
  std::mutex failure_lock;
  auto work = [&] {
    tbb::parallel_for(std::size_t{0}, points.size(), [&](std::size_t k) {
      const Loaded& loaded = machines[k / counts.size()];
      const auto bind_at = [&](double size) {
        std::map<std::string, double> sets = loaded.sets;
        sets[iso.variable] = size;
        models::Binding binding = models::bind(*loaded.program, loaded.machine, sets);
        if (!binding.ok()) throw std::invalid_argument(binding.errors.front());
        return binding.environment;
      };
      try {
        points[k] = isoefficiency_point(*loaded.program, loaded.machine, bind_at, counts[k % counts.size()], iso);
      } catch (const scaling::ScalingError& error) {
        std::lock_guard<std::mutex> guard(failure_lock);
        if (!failure) {
          failure = error;
          failed_in = &loaded;
        }
      } catch (const std::invalid_argument& error) {
        std::lock_guard<std::mutex> guard(failure_lock);
        bind_failure = error.what();
      }
    });
  };
  if (options.threads > 0) {
    tbb::task_arena arena(options.threads);
    arena.execute(work);
  } else {
    work();
  }
  if (!bind_failure.empty()) {
    err << "pdl-scale: error: " << bind_failure << '\n';
    return kExitInput;
  }
  if (failure) {
    print_scaling_error(*failure, *failed_in, err);
    return kExitInput;
  }
  inputs.variables.erase(iso.variable);
  return emit(options, render_isoefficiency(points, iso, inputs, format), out, err);
}

}  // namespace

int run_analysis(const Options& options, std::ostream& out, std::ostream& err, bool terminal) {
  std::string error;
  auto usage_error = [&err](const std::string& message) {
    err << "pdl-scale: error: " << message << '\n';
    return kExitInput;
  };
  const auto format = format_from_string(options.format);
  if (!format) return usage_error(fmt::format("--format {}: unknown format (table, csv, json or jsonl)", options.format));
  const auto sweep_options = sweep_options_from(options, &error);
  if (!sweep_options) return usage_error(error);
  const auto sweeps = parse_sweeps(options, &error);
  if (!sweeps) return usage_error(error);
  if (options.isoefficiency) {
    const double target = *options.isoefficiency;
    if (!(target > 0.0 && target <= 1.0)) {
      return usage_error(fmt::format("--isoefficiency {}: the efficiency must be in (0, 1]", target));
    }
    if (options.iso_variable.empty()) {
      return usage_error("--isoefficiency needs --iso-variable NAME: the variable that sets the problem size");
    }
    for (const std::string& set : options.sets) {
      if (set.substr(0, set.find('=')) == options.iso_variable) {
        return usage_error(fmt::format("--iso-variable {}: the variable is also bound by --set", options.iso_variable));
      }
    }
    if (!(options.iso_max >= 1.0 && options.iso_max <= 1e15)) {
      return usage_error(fmt::format("--iso-max {}: the largest size must be in [1, 1e15]", options.iso_max));
    }
    if (!sweeps->empty() || options.loss || options.plot || *format == Format::Jsonl) {
      return usage_error("--isoefficiency makes its own table: no --sweep, --loss, --plot or --format jsonl with it");
    }
  } else if (!options.iso_variable.empty()) {
    return usage_error("--iso-variable needs --isoefficiency E");
  }

  // Every machine, with the program checked on it (NUMERICAL files and RTFactor depend on it).
  std::map<std::string, double> check_sets;
  for (const SweepVariable& sweep : *sweeps) check_sets[sweep.name] = sweep.values.front();
  std::vector<Loaded> machines;
  std::vector<std::optional<std::string>> machine_files;
  for (const std::string& file : options.machine_files) machine_files.emplace_back(file);
  if (machine_files.empty()) machine_files.emplace_back(std::nullopt);
  for (const auto& file : machine_files) {
    auto loaded = load(options, file, check_sets, err);
    if (!loaded) return kExitInput;
    for (const Loaded& known : machines) {
      if (known.machine.name == loaded->machine.name) {
        return usage_error(fmt::format("--machine {}: a machine named '{}' is already given", file.value_or("(ideal)"),
                                       known.machine.name));
      }
    }
    machines.push_back(std::move(*loaded));
  }
  const models::Program& program = *machines.front().program;
  for (const SweepVariable& sweep : *sweeps) {
    if (!is_program_variable(program, sweep.name, "--sweep", err)) return kExitInput;
  }
  if (options.isoefficiency && !is_program_variable(program, options.iso_variable, "--iso-variable", err)) {
    return kExitInput;
  }

  ReportInputs inputs;
  inputs.program_name = program.name;
  inputs.program_file = options.file;
  for (std::size_t m = 0; m < machines.size(); ++m) {
    inputs.machines.push_back({machines[m].machine.name, machine_files[m].value_or("")});
  }
  inputs.sweeps = *sweeps;
  inputs.loss = options.loss;
  inputs.options = *sweep_options;
  {
    // The heading's values: the first machine, with the first swept value (or size 1) for
    // a variable that is swept or searched, which may have no default.
    std::map<std::string, double> sets = machines.front().sets;
    for (const auto& [name, value] : check_sets) sets[name] = value;
    if (options.isoefficiency) sets[options.iso_variable] = 1;
    const models::Binding binding = models::bind(program, machines.front().machine, sets);
    if (!binding.ok()) {
      for (const std::string& message : binding.errors) err << "pdl-scale: error: " << message << '\n';
      return kExitInput;
    }
    inputs.variables = bound_variables(program, binding.environment);
    for (const SweepVariable& sweep : *sweeps) inputs.variables.erase(sweep.name);
    if (options.isoefficiency) inputs.variables.erase(options.iso_variable);
  }
  if (options.isoefficiency) {
    return run_isoefficiency(options, machines, *sweep_options, inputs, *format, out, err);
  }

  // Every (machine, combination of swept values) and, for --loss, every phase alone on it.
  // The loss programs live in a deque so that the cases' pointers stay valid.
  std::vector<std::string> phases = options.loss ? pattern_phases(program) : std::vector<std::string>{};
  // The barriers alone (every phase free): what synchronisation costs by itself.
  if (options.loss && pattern_has_sync(program)) phases.push_back(kBarriersOnly);
  std::deque<models::Program> loss_programs;
  std::vector<Case> cases;
  for (std::size_t m = 0; m < machines.size(); ++m) {
    const Loaded& loaded = machines[m];
    std::vector<const models::Program*> programs{&*loaded.program};
    for (const std::string& phase : phases) programs.push_back(&loss_programs.emplace_back(with_only_phase(*loaded.program, phase)));
    for (const auto& combination : sweep_combinations(*sweeps)) {
      std::map<std::string, double> sets = loaded.sets;
      for (const auto& [name, value] : combination) sets[name] = value;
      models::Binding binding = models::bind(*loaded.program, loaded.machine, sets);
      if (!binding.ok()) {
        for (const std::string& message : binding.errors) err << "pdl-scale: error: " << message << '\n';
        return kExitInput;
      }
      for (std::size_t k = 0; k < programs.size(); ++k) {
        Case one;
        one.program = programs[k];
        one.machine = &loaded.machine;
        one.environment = binding.environment;
        one.label.machine = loaded.machine.name;
        one.label.machine_file = inputs.machines[m].file;
        one.label.swept = combination;
        one.label.phase = k == 0 ? std::string() : phases[k - 1];
        cases.push_back(std::move(one));
      }
    }
  }

  SweepResult sweep;
  try {
    ProgressBar bar(terminal && !options.quiet, stderr);
    sweep = run_sweep(cases, *sweep_options,
                      [&bar](std::size_t done, std::size_t total) { bar.update(done, total); });
  } catch (const scaling::ScalingError& scaling_error) {
    // Which machine: the first whose program the error points into, else the first.
    const Loaded* where = &machines.front();
    for (const Loaded& loaded : machines) {
      if (loaded.machine_source && loaded.machine_source->filename() == scaling_error.location().file) where = &loaded;
    }
    print_scaling_error(scaling_error, *where, err);
    return kExitInput;
  }

  const std::string report = render(sweep, inputs, *format);
  if (options.plot) {
    // The chart first: when it cannot be written, the report is not written either.
    try {
      write_file_atomically(*options.plot, render_plot(sweep, inputs));
    } catch (const std::runtime_error& write_error) {
      return usage_error(fmt::format("--plot: {}", write_error.what()));
    }
  }
  return emit(options, report, out, err);
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
