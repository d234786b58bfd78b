// A program text and its machine text (a generated program, an example) checked into a study
// case, or the diagnostics that refused it: shared by the tests that run generated programs.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "analysis/study.hpp"
#include "models/bind.hpp"
#include "pdl/check.hpp"
#include "pdl/parse.hpp"

namespace test_support {

struct LoadedCase {
  std::optional<analysis::Case> one;
  std::string diagnostics;
};

// `pdl` checked on `machine` (machine-file text; empty for the built-in ideal machine) and bound
// with its defaults.
inline LoadedCase load_case(const std::string& pdl, const std::string& machine_text) {
  models::Machine machine = models::ideal_machine();
  if (!machine_text.empty()) {
    const pdl::MachineParseResult parsed = pdl::parse_machine(machine_text, "generated.machine");
    if (!parsed.ast) return {std::nullopt, pdl::format(parsed.diagnostics)};
    const pdl::MachineCheckResult checked = pdl::check_machine(*parsed.ast, parsed.source);
    if (!checked.machine) return {std::nullopt, pdl::format(checked.diagnostics)};
    machine = *checked.machine;
  }
  const pdl::ParseResult parsed = pdl::parse(pdl, "generated.pdl");
  if (!parsed.ast) return {std::nullopt, pdl::format(parsed.diagnostics)};
  pdl::CheckOptions options;
  options.machine = &machine;
  const pdl::CheckResult checked = pdl::check(*parsed.ast, parsed.source, options);
  if (!checked.program) return {std::nullopt, pdl::format(checked.diagnostics)};
  const models::Binding binding = models::bind(*checked.program, machine, {});
  if (!binding.ok()) return {std::nullopt, binding.errors.front().message()};
  analysis::Case one;
  one.program = std::make_shared<const models::Program>(*checked.program);
  one.machine = std::make_shared<const models::Machine>(machine);
  one.environment = binding.environment;
  one.label.machine = machine.name;
  return {std::move(one), ""};
}

}  // namespace test_support
