#include "solvers/solver.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>

#include "solvers/solver_methods.hpp"

namespace solvers {

namespace {

struct Entry {
  Method method;
  const SolverInfo& (*info)();
  std::unique_ptr<Solver> (*make)(const SolverOptions&);
};

// The one table of methods, in the order "all" runs and reports them.
const std::array<Entry, 4>& entries() {
  static const std::array<Entry, 4> table{{
      {Method::SeriesParallel, methods::series_parallel_info, methods::make_series_parallel},
      {Method::Bounds, methods::bounds_info, methods::make_bounds},
      {Method::MonteCarlo, methods::monte_carlo_info, methods::make_monte_carlo},
      {Method::StateSpace, methods::state_space_info, methods::make_state_space},
  }};
  return table;
}

const Entry& entry(Method method) {
  for (const Entry& one : entries()) {
    if (one.method == method) return one;
  }
  throw std::logic_error("solvers: no entry for method " + std::to_string(static_cast<int>(method)));
}

}  // namespace

std::span<const Method> all_methods() {
  static const std::array<Method, 4> methods = [] {
    std::array<Method, 4> out{};
    for (std::size_t k = 0; k < out.size(); ++k) out[k] = entries()[k].method;
    return out;
  }();
  return methods;
}

const SolverInfo& info(Method method) { return entry(method).info(); }

std::unique_ptr<Solver> make_solver(Method method, const SolverOptions& options) {
  return entry(method).make(options);
}

bool SolverOptions::IsValid(std::string* why) const {
  if (memory_budget_bytes < kSmallestMemoryBudget) {
    if (why != nullptr) *why = "memory_budget_bytes must be >= 1 MiB, got " + std::to_string(memory_budget_bytes);
    return false;
  }
  return series_parallel.IsValid(why) && bounds.IsValid(why) && monte_carlo.IsValid(why) && state_space.IsValid(why);
}

namespace methods {

const std::string* first_dynamic_pool(std::span<const WeightedGraph> scenarios) {
  for (const WeightedGraph& scenario : scenarios) {
    for (graph::NodeId v = 0; v < scenario.graph->node_count(); ++v) {
      const graph::TaskNode& node = scenario.graph->node(v);
      if (node.kind == graph::NodeKind::DynamicPool) return &node.label;
    }
  }
  return nullptr;
}

Result refused(Method method, const Unsolved& why) {
  Result result;
  result.method = method;
  result.unsolved = why;
  return result;
}

Unsolved over_budget(const MemoryBudgetExceeded& over, double size) {
  Unsolved why;
  why.reason = Unsolved::Reason::OverMemoryBudget;
  why.limit = Unsolved::Limit::Memory;
  why.bytes = over.bytes();
  why.limit_value = over.budget();
  why.size = size;
  why.explanation = over.needing();
  return why;
}

double largest_graph(std::span<const WeightedGraph> scenarios) {
  double nodes = 0.0;
  for (const WeightedGraph& scenario : scenarios) nodes = std::max(nodes, static_cast<double>(scenario.graph->node_count()));
  return nodes;
}

Result not_supported(Method method, std::string explanation) {
  Result result;
  result.method = method;
  result.unsolved = Unsolved{};
  result.unsolved->reason = Unsolved::Reason::NotSupported;
  result.unsolved->explanation = std::move(explanation);
  return result;
}

}  // namespace methods

}  // namespace solvers
