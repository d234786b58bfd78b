// The semantic pass over a PDL program (docs/pdl.md, "Checks"): its parts, in order, live
// in check_variables.cpp, check_phases.cpp (with check_distribution.cpp) and check_pattern.cpp.
#include "pdl/check.hpp"

#include "pdl/check_program.hpp"

#include <algorithm>
#include <set>
#include <string>
#include <tuple>

namespace pdl {

namespace {

models::Program check_program(const ast::Program& program, detail::ProgramContext& context) {
  detail::Reporter& reporter = context.reporter();
  models::Program model;
  model.name = program.name.value;
  model.file = reporter.source().filename();
  if (model.name.empty()) reporter.error(program.name, "the program name is empty");
  context.declare_variables(program, model);
  detail::check_phases(program, model, context);
  std::set<std::string> used;  // the phases the pattern runs
  if (program.patterns.empty()) {
    reporter.error(program.name, "the program has no EXECUTION PATTERN IS ...;");
  } else {
    for (std::size_t i = 1; i < program.patterns.size(); ++i) {
      reporter.error(program.patterns[i], "duplicate EXECUTION PATTERN: a program has exactly one");
    }
    model.pattern = detail::check_pattern(program.patterns.front(), model, context, used);
  }
  detail::check_concatenations(program, model, context);
  detail::report_unused_phases(program, used, reporter);
  return model;
}

void sort_by_position(std::vector<Diagnostic>& diagnostics) {
  std::stable_sort(diagnostics.begin(), diagnostics.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return std::tie(a.line, a.column) < std::tie(b.line, b.column);
  });
}

}  // namespace

CheckResult check(const ast::Program& program, const Source& source, const CheckOptions& options) {
  CheckResult result;
  detail::ProgramContext context(source, result.diagnostics, options);
  models::Program model = check_program(program, context);
  sort_by_position(result.diagnostics);
  if (!has_errors(result.diagnostics)) result.program = std::move(model);
  return result;
}

}  // namespace pdl
