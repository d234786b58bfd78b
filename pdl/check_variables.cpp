// The program's variables, and the expressions and quantities that may use them.
#include "models/limits.hpp"
#include "pdl/check_program.hpp"
#include "pdl/parse.hpp"

#include <fmt/format.h>

#include <cmath>

namespace pdl::detail {

ProgramContext::ProgramContext(const Source& source, std::vector<Diagnostic>& out, const CheckOptions& options)
    : reporter_(source, out),
      machine_(options.machine ? *options.machine : models::ideal_machine()),
      sets_(options.sets),
      set_expressions_(options.set_expressions),
      read_measurements_(options.read_measurements),
      read_file_(options.read_file) {
  environment_.values["RTFactor"] = machine_.rt_factor;
  // A program may read its machine's constants (a cache size, a clock): semantics.md V2.
  for (const auto& [name, value] : machine_.constants) environment_.values[name] = value;
  for (const auto& [type, bytes] : machine_.sizes) environment_.sizes[type] = bytes;
}

void ProgramContext::declare_variables(const ast::Program& program, models::Program& model) {
  Scope scope;
  // P in a default makes the variable a function of the processor count (weak scaling): it is
  // evaluated per p when the model is scaled (models::bind, models::with_processors).
  scope.names.insert("P");
  for (const auto& constant : machine_.constants) scope.names.insert(constant.first);
  scope.context = fmt::format(
      "in a default value, which may use P, the variables declared before it and the constants of machine '{}'{}",
      machine_.name, machine_.constants.empty() ? ", which has none" : "");
  for (const ast::VariableDecl& decl : program.variables) {
    const std::string& name = decl.name.name;
    if (lower(name) == "rtfactor" || name == "P") {
      reporter_.error(decl.name, fmt::format("'{}' is built in and cannot be declared as a variable", name));
      continue;
    }
    if (machine_.constants.count(name) != 0) {
      reporter_.error(decl.name, fmt::format("variable '{}' clashes with the constant of that name in machine '{}', "
                                             "which the program's expressions may read; rename one of them",
                                             name, machine_.name));
      continue;
    }
    if (scope.names.count(name) != 0) {
      reporter_.error(decl.name, fmt::format("duplicate variable '{}'", name));
      continue;
    }
    if (decl.upper) {
      reporter_.error(decl.upper->value,
                      "a range of values (a .. b) is for a machine constant, which then gives a lower and an "
                      "upper machine; a program variable has one value (analyse several with --sweep)");
    }
    models::Variable variable;
    variable.name = name;
    variable.location = reporter_.location(decl);
    if (decl.value) {
      variable.default_value = convert(decl.value->value, scope, reporter_, nullptr);
    }
    if (const auto text = set_expressions_.find(name); text != set_expressions_.end()) {
      variable.default_value = set_expression(name, text->second, scope);
    }
    if (const auto set = sets_.find(name); set != sets_.end()) {
      environment_.values[name] = set->second;
    } else if (variable.default_value && decl.value && set_expressions_.count(name) == 0) {
      if (auto value = constant_value(*variable.default_value, environment_, decl.value->value, reporter_)) {
        environment_.values[name] = *value;
      }
    } else if (variable.default_value) {
      // A --set expression: its errors of value surface when the model is bound.
      if (const models::Evaluation value = models::evaluate(*variable.default_value, environment_); value.ok()) {
        environment_.values[name] = value.value;
      }
    }
    scope.names.insert(name);
    model.variables.push_back(std::move(variable));
  }
  program_scope_.names = scope.names;
  program_scope_.names.insert("RTFactor");
  program_scope_.context = "";
}

std::optional<models::Expr> ProgramContext::set_expression(const std::string& name, const std::string& text,
                                                           const Scope& scope) {
  SetParseResult parsed = parse_set_value(name, text);
  for (Diagnostic& diagnostic : parsed.diagnostics) reporter_.add(std::move(diagnostic));
  if (!parsed.value || !parsed.value->value) return std::nullopt;
  std::vector<Diagnostic> problems;
  Reporter reporter(parsed.source, problems);
  models::Expr expr = convert(parsed.value->value->value, scope, reporter, nullptr);
  for (Diagnostic& diagnostic : problems) reporter_.add(std::move(diagnostic));
  if (!problems.empty()) return std::nullopt;
  return expr;
}

models::Expr ProgramContext::expression(const ast::Expression& e) {
  return convert(e, program_scope_, reporter_, &machine_.sizes);
}

models::Expr ProgramContext::quantity(const ast::Expression& e, Requirement requirement, std::string_view what) {
  const std::size_t errors = reporter_.errors();
  models::Expr expr = expression(e);
  if (reporter_.errors() != errors) return expr;
  const auto value = constant_value(expr, environment_, e, reporter_);
  if (!value) return expr;
  const double v = *value;
  const bool integer = std::floor(v) == v;
  const bool count = requirement == Requirement::PositiveInteger || requirement == Requirement::NonNegativeInteger;
  if (count && v > models::kLargestCount) {
    reporter_.error(e, fmt::format("{} is {:g}, more than the largest count, {:g}", what, v, models::kLargestCount));
    return expr;
  }
  switch (requirement) {
    case Requirement::NonNegative:
      if (v < 0) reporter_.error(e, fmt::format("{} must be >= 0, got {}", what, v));
      break;
    case Requirement::Positive:
      if (v <= 0) reporter_.error(e, fmt::format("{} must be > 0, got {}", what, v));
      break;
    case Requirement::PositiveInteger:
      if (v < 1 || !integer) reporter_.error(e, fmt::format("{} must be an integer >= 1, got {}", what, v));
      break;
    case Requirement::NonNegativeInteger:
      if (v < 0 || !integer) reporter_.error(e, fmt::format("{} must be an integer >= 0, got {}", what, v));
      break;
    case Requirement::Probability:
      if (v < 0 || v > 1) reporter_.error(e, fmt::format("{} must lie in [0, 1], got {}", what, v));
      break;
  }
  return expr;
}

}  // namespace pdl::detail
