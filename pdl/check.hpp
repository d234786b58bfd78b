// The semantic pass: from a syntactically valid AST to the checked model, reporting every
// problem with the position of the node it concerns (docs/pdl.md lists the checks).
#pragma once

#include "models/machine.hpp"
#include "models/program.hpp"
#include "pdl/ast.hpp"
#include "pdl/diagnostic.hpp"
#include "pdl/file_reader.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace pdl {

struct CheckOptions {
  // The machine whose RTFactor and SIZEOF table constant parameters are checked with.
  // nullptr: models::ideal_machine().
  const models::Machine* machine = nullptr;
  // Variable values given by the caller; they replace defaults when parameters are checked.
  std::map<std::string, double> sets;
  // --set NAME=EXPR values that are expressions, not numbers (e.g. "100*P"): each replaces the
  // default of the variable NAME, parsed and checked as a default (it may use P and the
  // variables declared before NAME); a diagnostic names the source "--set NAME".
  std::map<std::string, std::string> set_expressions;
  // Read the files of NUMERICAL('file') (with $ARCH replaced by the machine's name, relative to
  // the directory of the program's file) into the model, reporting their errors. Off: only the
  // syntax of the name is checked, and the model cannot be analysed (a syntax-only check).
  bool read_measurements = true;
  // How those files are read: from disk, or shared by the ranks of a job (file_reader.hpp).
  FileReader read_file = pdl::read_file;
};

// `program` is set exactly when there are no errors (warnings allowed).
struct CheckResult {
  std::optional<models::Program> program;
  std::vector<Diagnostic> diagnostics;  // in source order
};

struct MachineCheckResult {
  std::optional<models::Machine> machine;
  std::vector<Diagnostic> diagnostics;
};

// `source` is the Source of the ParseResult that produced `program`.
CheckResult check(const ast::Program& program, const Source& source, const CheckOptions& options = {});
MachineCheckResult check_machine(const ast::Machine& machine, const Source& source);

}  // namespace pdl
