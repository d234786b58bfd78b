// The makers of the solvers, one per method's file: the factory (solver_factory.cpp) is their
// only caller. Internal to the solvers library.
#pragma once

#include <memory>

#include "solvers/solver.hpp"

namespace solvers::methods {

const SolverInfo& series_parallel_info();
std::unique_ptr<Solver> make_series_parallel(const SolverOptions& options);

const SolverInfo& bounds_info();
std::unique_ptr<Solver> make_bounds(const SolverOptions& options);

const SolverInfo& monte_carlo_info();
std::unique_ptr<Solver> make_monte_carlo(const SolverOptions& options);

const SolverInfo& state_space_info();
std::unique_ptr<Solver> make_state_space(const SolverOptions& options);

// The label of the first node of the scenarios that is a dynamically scheduled pool, or
// nullptr: such a node is not a static task, and only Monte Carlo simulates it.
const std::string* first_dynamic_pool(std::span<const WeightedGraph> scenarios);
// True when every task of every scenario is a point mass: the makespan is the longest path.
bool every_runtime_deterministic(std::span<const WeightedGraph> scenarios);

// A Result that says why the method did not run.
Result not_supported(Method method, std::string explanation);
Result refused(Method method, const Unsolved& why);
// MemoryBudgetExceeded as an Unsolved outcome; `size`: the model's tasks.
Unsolved over_budget(const MemoryBudgetExceeded& over, double size);
// The most nodes of one scenario.
double largest_graph(std::span<const WeightedGraph> scenarios);

}  // namespace solvers::methods
