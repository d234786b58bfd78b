// Helpers for the front-end tests: parse and check a text in one call.
#pragma once

#include "pdl/check.hpp"
#include "pdl/parse.hpp"

#include <fstream>
#include <sstream>
#include <string>

namespace pdl::test {

struct Checked {
  ParseResult parsed;
  CheckResult checked;
  bool ok() const { return parsed.ast.has_value() && checked.program.has_value(); }
  // Every diagnostic, formatted, for failure messages.
  std::string text() const { return format(parsed.diagnostics) + format(checked.diagnostics); }
  // The first diagnostic's "line:col: severity: message".
  std::string first() const {
    const auto& d = parsed.diagnostics.empty() ? checked.diagnostics : parsed.diagnostics;
    if (d.empty()) return {};
    const std::string line = format(d.front());
    return line.substr(line.find(':') + 1, line.find('\n') - line.find(':') - 1);
  }
};

// `filename` also locates NUMERICAL data files (relative to its directory).
inline Checked parse_and_check(const std::string& text, const CheckOptions& options = {},
                               const std::string& filename = "test.pdl") {
  Checked out;
  out.parsed = parse(text, filename);
  if (out.parsed.ast) out.checked = check(*out.parsed.ast, out.parsed.source, options);
  return out;
}

inline std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// A minimal valid program around one phase body.
inline std::string program_with(const std::string& pattern, const std::string& rest) {
  return "PROGRAM NAME IS 't';\nEXECUTION PATTERN IS " + pattern + ";\n" + rest;
}

inline std::string independent(const std::string& name, const std::string& extra = "") {
  return "WORK PHASE " + name +
         " IS:\n  PARALLELIZATION SCHEME IS INDEPENDENT;\n"
         "  SUBTASK RUNTIME IS EXPONENTIAL(1);\n  PROBLEM SIZE IS VECTOR A(10);\n" +
         extra + "END;\n";
}

}  // namespace pdl::test
