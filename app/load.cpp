#include "app/load.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>

#include "app/output_file.hpp"
#include "app/suggest.hpp"
#include "report/wording.hpp"
#include "models/bind.hpp"
#include "models/machine_constants.hpp"
#include "pdl/check.hpp"
#include "pdl/parse.hpp"

namespace app {

namespace {

void print(const std::vector<pdl::Diagnostic>& diagnostics, std::ostream& err) { err << pdl::format(diagnostics); }

}  // namespace

bool is_machine_file(const std::string& path) {
  static constexpr std::string_view kExtension = ".machine";
  return path.size() >= kExtension.size() &&
         path.compare(path.size() - kExtension.size(), kExtension.size(), kExtension) == 0;
}

// Reads at most one byte more than the parser accepts: a huge file is refused by size
// without being read.
std::optional<std::string> read_source(const std::string& path, std::ostream& err, const pdl::FileReader& read) {
  pdl::FileFacts facts = read(path, pdl::kMaxSourceBytes);
  if (facts.open_error != 0) {
    err << fmt::format("pdl-scale: error: cannot open '{}': {}\n", path, std::strerror(facts.open_error));
    return std::nullopt;
  }
  if (facts.read_error) {
    err << fmt::format("pdl-scale: error: cannot read '{}'\n", path);
    return std::nullopt;
  }
  if (facts.text.size() > pdl::kMaxSourceBytes) {
    // Refused here, by its real size, rather than by the parser on the part that was read.
    const pdl::Source source(path, facts.text.substr(0, facts.text.find('\n')));
    err << pdl::format(
        source.diagnose(pdl::Severity::Error, 0,
                        fmt::format("the file is too large: {} bytes (the limit is {} bytes)",
                                    facts.regular ? std::to_string(facts.size)
                                                  : std::string("more than ") + std::to_string(pdl::kMaxSourceBytes),
                                    pdl::kMaxSourceBytes)));
    return std::nullopt;
  }
  return std::move(facts.text);
}

std::optional<models::Machine> load_machine(const std::string& file, std::ostream& err,
                                            std::optional<pdl::Source>* source, const pdl::FileReader& read) {
  const auto text = read_source(file, err, read);
  if (!text) return std::nullopt;
  const pdl::MachineParseResult parsed = pdl::parse_machine(*text, file);
  print(parsed.diagnostics, err);
  if (!parsed.ast) return std::nullopt;
  const pdl::MachineCheckResult checked = pdl::check_machine(*parsed.ast, parsed.source);
  print(checked.diagnostics, err);
  if (!checked.machine) return std::nullopt;
  if (source != nullptr) *source = parsed.source;
  return *checked.machine;
}

std::optional<Loaded> load(const ProgramInputs& inputs, const std::optional<std::string>& machine_file,
                           const std::map<std::string, double>& check_values, std::ostream& err) {
  return load(inputs, inputs.program(), machine_file, check_values, false, err);
}

namespace {

// The --set values and the machine (the ideal one without a file) into `loaded`; false with the
// error printed.
bool read_sets_and_machine(const ProgramInputs& inputs, const std::optional<std::string>& machine_file, Loaded& loaded,
                           std::ostream& err) {
  auto sets = parse_sets(inputs.sets);
  if (!sets.ok()) {
    err << sets.failure->text;
    return false;
  }
  loaded.sets = std::move(sets.value->numbers);
  loaded.set_expressions = std::move(sets.value->expressions);
  loaded.machine = models::ideal_machine();
  if (machine_file) {
    auto machine = load_machine(*machine_file, err, &loaded.machine_source, inputs.read_file);
    if (!machine) return false;
    loaded.machine = std::move(*machine);
    loaded.machine_file = *machine_file;
  }
  return true;
}

// The --set values of the machine's constants moved from loaded.sets into the machine.
Check set_machine_constants(const std::set<std::string>& program_names, Loaded& loaded) {
  // A name the program does not declare but the machine has as a constant sets the constant.
  std::map<std::string, double> constants;
  for (auto it = loaded.sets.begin(); it != loaded.sets.end();) {
    if (program_names.count(it->first) != 0 || !models::declares_constant(loaded.machine, it->first)) {
      ++it;
      continue;
    }
    constants.insert(*it);
    it = loaded.sets.erase(it);
  }
  for (const auto& [name, expression] : loaded.set_expressions) {
    if (program_names.count(name) == 0 && models::declares_constant(loaded.machine, name)) {
      return refuse(
          fmt::format("--set {}={}: '{}' is a constant of machine '{}', which takes a number, not an "
                      "expression of P",
                      name, expression, name, loaded.machine.name));
    }
  }
  if (constants.empty()) return passed();
  models::MachineWithConstants changed = models::with_constants(loaded.machine, constants);
  if (!changed.machine) {
    // At the constant's declaration in the machine file, where the value lands.
    const auto& [name, value] = *constants.begin();
    const std::string message = fmt::format("--set {}={}: {}", name, value, changed.error);
    const models::SourceLocation where = models::constant_location(loaded.machine, name);
    if (loaded.machine_source && where.line > 0) {
      return refuse(UsageError{pdl::format(
          loaded.machine_source->diagnose(pdl::Severity::Error, loaded.machine_source->offset(where), message))});
    }
    return refuse(message);
  }
  loaded.machine = std::move(*changed.machine);
  loaded.machine_sets = std::move(constants);
  return passed();
}

// Names this program does not declare are another program's or another machine's: left out
// here, not refused.
void leave_out_undeclared(const std::set<std::string>& program_names, Loaded& loaded,
                          std::map<std::string, double>& check_values) {
  std::set<std::string> declared = program_names, ignored;
  for (const auto& [name, value] : loaded.machine.constants) declared.insert(name);
  const auto drop = [&](auto& values) {
    for (auto it = values.begin(); it != values.end();) {
      if (declared.count(it->first) != 0) {
        ++it;
        continue;
      }
      ignored.insert(it->first);
      it = values.erase(it);
    }
  };
  drop(loaded.sets);
  drop(loaded.set_expressions);
  drop(check_values);
  loaded.ignored.assign(ignored.begin(), ignored.end());
}

// The parsed program checked on loaded.machine with the values given, into `loaded`; false with
// the diagnostics or the error printed.
bool check_program(const pdl::ParseResult& parsed, const ProgramInputs& inputs,
                   const std::map<std::string, double>& check_values, Loaded& loaded, std::ostream& err) {
  pdl::CheckOptions check_options;
  check_options.machine = &loaded.machine;
  check_options.sets = loaded.sets;
  check_options.set_expressions = loaded.set_expressions;
  check_options.read_file = inputs.read_file;
  for (const auto& [name, value] : check_values) check_options.sets[name] = value;
  pdl::CheckResult checked = pdl::check(*parsed.ast, parsed.source, check_options);
  print(checked.diagnostics, err);
  if (!checked.program) return false;
  for (const auto& [name, expression] : loaded.set_expressions) {
    if (!models::declares_variable(*checked.program, name)) {
      usage_error(err, unknown_variable_text(*checked.program, loaded.machine, name, "--set"));
      return false;
    }
  }
  loaded.program = std::make_shared<const models::Program>(std::move(*checked.program));
  loaded.program_source = parsed.source;
  // Refused here, before any binding, with the names the program does declare.
  for (const auto& [name, value] : loaded.sets) {
    if (!models::declares_variable(*loaded.program, name)) {
      usage_error(err, unknown_variable_text(*loaded.program, loaded.machine, name, "--set"));
      return false;
    }
  }
  return true;
}

}  // namespace

std::optional<Loaded> load(const ProgramInputs& inputs, const std::string& file,
                           const std::optional<std::string>& machine_file,
                           const std::map<std::string, double>& given_check_values, bool tolerate_undeclared,
                           std::ostream& err) {
  std::map<std::string, double> check_values = given_check_values;
  Loaded loaded;
  if (!read_sets_and_machine(inputs, machine_file, loaded, err)) return std::nullopt;
  const auto text = read_source(file, err, inputs.read_file);
  if (!text) return std::nullopt;
  const pdl::ParseResult parsed = pdl::parse(*text, file);
  print(parsed.diagnostics, err);
  if (!parsed.ast) return std::nullopt;
  std::set<std::string> program_names;
  for (const auto& decl : parsed.ast->variables) program_names.insert(decl.name.name);
  if (Check constants = set_machine_constants(program_names, loaded); !constants.ok()) {
    err << constants.failure->text;
    return std::nullopt;
  }
  for (auto it = check_values.begin(); it != check_values.end();) {
    const bool constant = program_names.count(it->first) == 0 && models::declares_constant(loaded.machine, it->first);
    it = constant ? check_values.erase(it) : std::next(it);
  }
  if (tolerate_undeclared) leave_out_undeclared(program_names, loaded, check_values);
  if (!check_program(parsed, inputs, check_values, loaded, err)) return std::nullopt;
  return loaded;
}

// Each end is built as --set values would be, so that the constants after a ranged one, RTFACTOR
// and SIZEOF follow it.
std::optional<std::vector<Loaded>> interval_machines(Loaded loaded, const std::map<std::string, double>& swept,
                                                     std::ostream& err) {
  for (const auto& [name, value] : swept) {
    if (loaded.machine.constant_ranges.erase(name) != 0) {
      err << fmt::format(
          "pdl-scale: note: --sweep {}: the sweep gives the values of '{}', not its range in machine "
          "'{}'\n",
          name, name, loaded.machine.name);
    }
  }
  if (loaded.machine.constant_ranges.empty()) return std::vector<Loaded>{std::move(loaded)};
  std::vector<Loaded> ends;
  for (const std::string end : {"lower", "upper"}) {
    std::map<std::string, double> values;
    for (const auto& [name, range] : loaded.machine.constant_ranges) {
      values[name] = end == "lower" ? range.first : range.second;
    }
    models::MachineWithConstants machine = models::with_constants(loaded.machine, values);
    if (!machine.machine) {
      usage_error(
          err, fmt::format("machine '{}' at the {} ends of its ranges: {}", loaded.machine.name, end, machine.error));
      return std::nullopt;
    }
    Loaded one = loaded;
    one.machine = std::move(*machine.machine);
    one.machine.name += "-" + end;
    one.band = {loaded.machine.name, end, loaded.machine.constant_ranges};
    ends.push_back(std::move(one));
  }
  return ends;
}

std::optional<Loaded> load_one(const ProgramInputs& inputs, std::ostream& err) {
  if (inputs.machine_files.size() > 1) {
    usage_error(err, "--machine: give one machine file here (several only for the analysis)");
    return std::nullopt;
  }
  const std::optional<std::string> machine_file =
      inputs.machine_files.empty() ? std::nullopt : std::optional<std::string>(inputs.machine_files.front());
  return load(inputs, machine_file, {}, err);
}

std::string unknown_variable_text(const models::Program& program, const models::Machine& machine,
                                  const std::string& name, const std::string& option) {
  std::vector<std::string> names;
  for (const models::Variable& variable : program.variables) names.push_back(variable.name);
  std::vector<std::string> candidates = names;
  std::string constants;
  for (const auto& [constant, value] : machine.constants) {
    candidates.push_back(constant);
    constants += (constants.empty() ? "" : ", ") + constant;
  }
  const std::vector<std::string> meant = nearest(name, candidates);
  std::string declared;
  for (const std::string& one : names) declared += (declared.empty() ? "" : ", ") + one;
  std::string listing = names.empty() ? std::string("it declares none") : "it declares " + declared;
  // The machine's part only where it has constants: a name could have been one of them.
  const std::string no_constant =
      constants.empty() ? std::string() : fmt::format(" and machine '{}' no constant '{}'", machine.name, name);
  if (!constants.empty()) listing += fmt::format("; machine '{}' has {}", machine.name, constants);
  return fmt::format("{} {}: the program declares no variable '{}'{}{} ({})", option, name, name, no_constant,
                     meant.empty() ? std::string() : "; did you mean " + quoted_alternatives(meant) + "?", listing);
}

void print_bind_errors(const std::vector<models::BindError>& errors, std::ostream& err) {
  for (const models::BindError& error : errors) err << "pdl-scale: error: " << report::bind_error_text(error) << '\n';
}

void print_failure(const analysis::Failure& failure, const std::vector<Loaded>& machines, std::ostream& err) {
  const Loaded& loaded = machines.at(failure.machine);
  // With several programs, an error without a place in a file says which program it concerns.
  const std::string program = loaded.program_label.empty() ? std::string() : loaded.program_label + ": ";
  if (failure.kind == analysis::Failure::Kind::Binding) {
    err << "pdl-scale: error: " << program << report::bind_error_text(*failure.binding) << '\n';
    return;
  }
  const models::SourceLocation& where = failure.location;
  const pdl::Source* source = nullptr;
  if (where.line > 0 && where.file == loaded.program_source.filename()) source = &loaded.program_source;
  if (where.line > 0 && loaded.machine_source && where.file == loaded.machine_source->filename()) {
    source = &*loaded.machine_source;
  }
  if (source == nullptr) {
    err << "pdl-scale: error: " << program << failure.message << '\n';
    return;
  }
  err << pdl::format(source->diagnose(pdl::Severity::Error, source->offset(where), failure.message));
}

int emit(const ReportDestination& report, const std::string& text, std::ostream& out, std::ostream& err) {
  if (!report.output_rank) return kExitSuccess;  // rank 0 of the job prints and writes it
  if (!report.output) {
    out << text;
    return kExitSuccess;
  }
  if (Check written = write_output_file({"-o", *report.output}, text); !written.ok()) {
    err << written.failure->text;
    return kExitInput;
  }
  return kExitSuccess;
}

int usage_error(std::ostream& err, const std::string& message) {
  err << "pdl-scale: error: " << message << '\n';
  return kExitInput;
}

}  // namespace app
