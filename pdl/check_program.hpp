// Internals of the program check, shared by its parts: the variables and quantities
// (check_variables.cpp), distributions (check_distribution.cpp), phases (check_phases.cpp),
// and the execution pattern with its concatenations (check_pattern.cpp). check.cpp runs them
// in order; the order is the order of the diagnostics at one position.
#pragma once

#include "models/environment.hpp"
#include "models/machine.hpp"
#include "models/program.hpp"
#include "pdl/ast.hpp"
#include "pdl/check.hpp"
#include "pdl/check_detail.hpp"
#include "pdl/diagnostic.hpp"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace pdl::detail {

// What a requirement on a constant quantity means.
enum class Requirement { NonNegative, Positive, PositiveInteger, NonNegativeInteger, Probability };

// What every part of the program check needs: where problems go, the machine, and the values
// constant quantities are checked with (RTFactor, SIZEOF, the given values, the variables' defaults).
class ProgramContext {
 public:
  ProgramContext(const Source& source, std::vector<Diagnostic>& out, const CheckOptions& options);

  // Checks the declarations and records the variables' values where they are known now;
  // every later expression may use the variables, P and RTFactor.
  void declare_variables(const ast::Program& program, models::Program& model);

  models::Expr expression(const ast::Expression& e);
  // Converts and, when the value is known now, checks it.
  models::Expr quantity(const ast::Expression& e, Requirement requirement, std::string_view what);

  Reporter& reporter() { return reporter_; }
  // The value of --set NAME=EXPR as the default of NAME, converted in `scope`; its diagnostics
  // (in the source "--set NAME") go with the program's. Empty after an error.
  std::optional<models::Expr> set_expression(const std::string& name, const std::string& text, const Scope& scope);
  const models::Machine& machine() const { return machine_; }
  const models::Environment& environment() const { return environment_; }
  bool read_measurements() const { return read_measurements_; }
  const FileReader& file_reader() const { return read_file_; }

 private:
  Reporter reporter_;
  models::Machine machine_;
  std::map<std::string, double> sets_;
  std::map<std::string, std::string> set_expressions_;
  bool read_measurements_ = true;
  FileReader read_file_;
  models::Environment environment_;
  Scope program_scope_;
};

models::RuntimeSpec check_distribution(const ast::Distribution& distribution, ProgramContext& context);

// Adds the phases to the model (the first of duplicates).
void check_phases(const ast::Program& program, models::Program& model, ProgramContext& context);

// The pattern as a model; `used` receives the names of the phases it mentions.
models::PatternNode check_pattern(const ast::Alternatives& pattern, const models::Program& model,
                                  ProgramContext& context, std::set<std::string>& used);

// Adds the CONCATENATION entries to the model and, once the pattern is known, reports the
// entries it never uses and the pairs of work phases that need one.
void check_concatenations(const ast::Program& program, models::Program& model, ProgramContext& context);

// Warns about the phases the pattern does not mention (`used` is from check_pattern).
void report_unused_phases(const ast::Program& program, const std::set<std::string>& used, Reporter& reporter);

}  // namespace pdl::detail
