// The front end's entry points: text in, AST and diagnostics out. Spirit X3 stays behind
// these functions (grammar.cpp, parse.cpp).
#pragma once

#include "pdl/ast.hpp"
#include "pdl/diagnostic.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pdl {

// Limits that keep bad input from exhausting the machine. PDL descriptions are small: the
// largest sensible one is a few kilobytes, a generated one a megabyte.
inline constexpr std::size_t kMaxSourceBytes = 8u << 20;  // larger files are refused
inline constexpr std::size_t kMaxNesting = 64;            // of ( [ { in one statement
inline constexpr std::size_t kMaxErrors = 20;             // then parsing stops

// `ast` is set exactly when there are no errors; `source` holds the text and the source
// ranges of the AST's nodes, which pdl::check needs to report positions.
struct ParseResult {
  std::optional<ast::Program> ast;
  std::vector<Diagnostic> diagnostics;
  Source source;
};

struct MachineParseResult {
  std::optional<ast::Machine> ast;
  std::vector<Diagnostic> diagnostics;
  Source source;
};

// The value of `--set NAME=EXPR` when EXPR is not a number: parsed by the VARIABLE rule as the
// declaration "VARIABLE NAME = EXPR;", in a source named "--set NAME" whose text is that
// declaration (so that a diagnostic shows the value in its place). `value` is set exactly when
// there are no errors.
struct SetParseResult {
  std::optional<ast::VariableDecl> value;
  std::vector<Diagnostic> diagnostics;
  Source source;
};
SetParseResult parse_set_value(std::string_view name, std::string_view text);

// Parses a PDL program. Recovers at the next ';' or statement after a syntax error, so
// that one run reports several (at most kMaxErrors).
ParseResult parse(std::string_view text, std::string filename);
// Parses a machine file (docs/machine.md).
MachineParseResult parse_machine(std::string_view text, std::string filename);

}  // namespace pdl
