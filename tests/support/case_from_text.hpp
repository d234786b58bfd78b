// A study case from a program and a machine given as PDL text, for tests that state a program
// in a few lines and work its figures out by hand (tests/analysis/semantics*_test.cpp), and the
// check of such figures.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "analysis/request.hpp"
#include "analysis/study.hpp"
#include "models/bind.hpp"
#include "pdl/check.hpp"
#include "pdl/parse.hpp"

namespace test_support {

// A file of the repository (the tests run from its root), e.g. an example program.
inline std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A machine given as text, checked; throws (a test failure) with the diagnostics when refused.
inline models::Machine machine_of_text(const std::string& machine_text) {
  const pdl::MachineParseResult parsed = pdl::parse_machine(machine_text, "test.machine");
  if (!parsed.ast) throw std::runtime_error(pdl::format(parsed.diagnostics));
  const pdl::MachineCheckResult machine = pdl::check_machine(*parsed.ast, parsed.source);
  if (!machine.machine) throw std::runtime_error(pdl::format(machine.diagnostics));
  return *machine.machine;
}

// A program given as text, checked on `machine`; throws with the diagnostics when refused.
inline models::Program program_of_text(const std::string& pdl, const models::Machine& machine) {
  const pdl::ParseResult parsed = pdl::parse(pdl, "test.pdl");
  if (!parsed.ast) throw std::runtime_error(pdl::format(parsed.diagnostics));
  pdl::CheckOptions options;
  options.machine = &machine;
  const pdl::CheckResult checked = pdl::check(*parsed.ast, parsed.source, options);
  if (!checked.program) throw std::runtime_error(pdl::format(checked.diagnostics));
  return *checked.program;
}

// A program and machine given as text, checked and bound with `values`; throws (a test
// failure) with the diagnostics when either is refused.
inline analysis::Case case_of(const std::string& pdl, const std::string& machine_text,
                              const std::map<std::string, double>& values = {}) {
  const models::Machine machine = machine_of_text(machine_text);
  const models::Program program = program_of_text(pdl, machine);
  const models::Binding binding = models::bind(program, machine, values);
  if (!binding.ok()) throw std::runtime_error(binding.errors.front().message());
  analysis::Case one;
  one.program = std::make_shared<const models::Program>(program);
  one.machine = std::make_shared<const models::Machine>(machine);
  one.environment = binding.environment;
  one.label.machine = machine.name;
  return one;
}

inline analysis::Request request_for(std::vector<int> processors, std::vector<solvers::Method> methods) {
  analysis::Request request;
  request.processors = std::move(processors);
  request.methods = std::move(methods);
  return request;
}

// The mean of every method in `expected` for `program` on `machine` with p processors, against
// the hand-worked figure: within `tolerance`, or 1e-9 relative without one.
inline void expect_means(const std::string& program, const std::string& machine, int p,
                         const std::map<solvers::Method, double>& expected,
                         const std::map<std::string, double>& values = {},
                         std::optional<double> tolerance = std::nullopt) {
  std::vector<solvers::Method> methods;
  for (const auto& [method, figure] : expected) methods.push_back(method);
  const auto study = analysis::run_study({case_of(program, machine, values)}, request_for({p}, methods));
  ASSERT_TRUE(study.ok());
  for (const auto& [method, figure] : expected) {
    const solvers::Result& result = study.value->at(0, p, method).result;
    ASSERT_TRUE(result.solved()) << solvers::to_string(method) << ", p = " << p;
    EXPECT_NEAR(result.mean, figure, tolerance.value_or(1e-9 * std::max(1.0, figure)))
        << solvers::to_string(method) << ", p = " << p;
  }
}

}  // namespace test_support
