// Study cases the analysis tests share: the paper's section 5.1 program on the ideal machine.
#pragma once

#include <memory>

#include "analysis/study.hpp"
#include "tests/support/program_builders.hpp"

namespace test_support {

// The NEIGHBOR program of neighbor_program() with `columns` columns and `iterations` sweeps on
// the ideal machine.
inline analysis::Case neighbor_case(double columns, double iterations) {
  analysis::Case one;
  one.program = std::make_shared<const models::Program>(neighbor_program());
  one.machine = std::make_shared<const models::Machine>(models::ideal_machine());
  one.environment = neighbor_environment(columns, iterations);
  one.label.machine = "ideal";
  return one;
}

}  // namespace test_support
