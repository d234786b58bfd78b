// The exact model's task graph of the paper's section 5.1 example (10 columns on the ideal
// machine), as the state-space benchmarks solve it.
#pragma once

#include <utility>

#include "scaling/exact_model.hpp"
#include "tests/support/program_builders.hpp"

namespace test_support {

inline graph::TaskGraph neighbor_example_graph(int iterations, int p) {
  models::Environment env;
  env.values = {{"columns", 10.0}, {"iterations", static_cast<double>(iterations)}, {"RTFactor", 1.0}};
  return std::move(scaling::exact_model(neighbor_program(), models::ideal_machine(), env, p).scenarios.front().graph);
}

}  // namespace test_support
