#include "app/set_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>

#include "pdl/diagnostic.hpp"
#include "pdl/parse.hpp"

namespace app {

namespace {

// An error at `column` (1-based) of line `number` of a --set-file, worded as every diagnostic is
// (pdl::format: the line shortened around the caret when it is long).
Refusal set_file_error(const std::string& file, int number, const std::string& line, std::size_t column,
                       std::string message) {
  pdl::Diagnostic problem = pdl::Source(file, line).diagnose(pdl::Severity::Error, column - 1, std::move(message));
  problem.line = static_cast<std::size_t>(number);
  return refuse(UsageError{pdl::format(problem)});
}

// A --set-file line's VALUE (at `column` of `line`, 1-based) parsed as --set parses it; its first
// error located in the file's line rather than in the "--set NAME" text it becomes.
Check value_parses(const std::string& file, int number, const std::string& line, std::size_t column,
                   const std::string& name, const std::string& value) {
  const pdl::SetParseResult parsed = pdl::parse_set_value(name, value);
  for (const pdl::Diagnostic& problem : parsed.diagnostics) {
    if (problem.severity != pdl::Severity::Error) continue;
    // parse_set_value's text is "VARIABLE NAME = VALUE;": the value starts after that prefix.
    const std::size_t prefix = std::string("VARIABLE ").size() + name.size() + std::string(" = ").size();
    const std::size_t offset = std::min(problem.column - 1 - std::min(problem.column - 1, prefix), value.size());
    return set_file_error(file, number, line, column + offset, problem.message);
  }
  return passed();
}

}  // namespace

Checked<std::vector<std::string>> read_set_file(const std::string& file, const pdl::FileReader& read) {
  const pdl::FileFacts facts = read(file, pdl::kMaxSourceBytes);
  if (facts.open_error != 0 || facts.read_error || facts.directory || facts.text.size() > pdl::kMaxSourceBytes) {
    return refuse(fmt::format("--set-file {}: cannot read the file", as_written(file)));
  }
  std::vector<std::string> sets;
  std::istringstream in(facts.text);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    std::string text = line.substr(0, line.find('#'));
    const std::size_t first = text.find_first_not_of(" \t\r");
    if (first == std::string::npos) continue;
    text = text.substr(first, text.find_last_not_of(" \t\r") + 1 - first);
    std::size_t column = first + 1;
    if (text.starts_with("--set ") || text.starts_with("--set=")) {
      const std::size_t value = text.find_first_not_of(" =", 5);
      column += value == std::string::npos ? text.size() : value;
      text = value == std::string::npos ? std::string() : text.substr(value);
    }
    const std::size_t equals = text.find('=');
    if (equals == std::string::npos || equals == 0 || equals + 1 == text.size() ||
        text.find_first_of(" \t", 0) < equals) {
      return set_file_error(file, number, line, column, "expected NAME=VALUE (or --set NAME=VALUE)");
    }
    Check parses =
        value_parses(file, number, line, column + equals + 1, text.substr(0, equals), text.substr(equals + 1));
    if (!parses.ok()) return refuse(*parses.failure);
    sets.push_back(text);
  }
  return {std::move(sets), std::nullopt};
}

}  // namespace app
