#include "app/commands.hpp"

#include "models/bind.hpp"
#include "models/dump.hpp"
#include "pdl/check.hpp"
#include "pdl/parse.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

namespace app {

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
  return loaded;
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
  const models::Binding binding = models::bind(*loaded->program, loaded->machine, loaded->sets);
  if (!binding.ok()) {
    for (const std::string& message : binding.errors) err << "pdl-scale: error: " << message << '\n';
    return kExitInput;
  }
  out << models::dump(*loaded->program, loaded->machine, binding.environment, loaded->sets);
  return kExitSuccess;
}

}  // namespace app
