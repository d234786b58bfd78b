// A toy method, added to the solvers as docs/architecture.md ("How to add a method") says: by
// its own files (these two) and one line in the factory's table. The test build of
// tests/toy_method/CMakeLists.txt compiles it into a pdl-scale of its own.
#pragma once

#include <memory>

#include "solvers/solver.hpp"

namespace solvers::methods {

// The next id after the methods solvers::Method names.
inline constexpr Method kToy{4};

const SolverInfo& toy_info();
std::unique_ptr<Solver> make_toy(const SolverOptions& options);

}  // namespace solvers::methods
