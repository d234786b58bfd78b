#include "solvers/solver.hpp"
#include "distributions/errors.hpp"
#include "distributions/queries.hpp"

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

// The one table of methods, in the order "all" runs and reports them. A method is added by
// its own files and one line here (docs/architecture.md, "How to add a method").
constexpr Entry kEntries[] = {
    {Method::SeriesParallel, methods::series_parallel_info, methods::make_series_parallel},
    {Method::Bounds, methods::bounds_info, methods::make_bounds},
    {Method::MonteCarlo, methods::monte_carlo_info, methods::make_monte_carlo},
    {Method::StateSpace, methods::state_space_info, methods::make_state_space},
};

const Entry& entry(Method method) {
  for (const Entry& one : kEntries) {
    if (one.method == method) return one;
  }
  throw std::logic_error("solvers: no entry for method " + std::to_string(static_cast<int>(method)));
}

}  // namespace

std::span<const Method> all_methods() {
  static const std::array<Method, std::size(kEntries)> methods = [] {
    std::array<Method, std::size(kEntries)> out{};
    for (std::size_t k = 0; k < out.size(); ++k) out[k] = kEntries[k].method;
    return out;
  }();
  return methods;
}

const SolverInfo& info(Method method) { return entry(method).info(); }

namespace {

// Every method behind the factory, with its results through finite_or_unsolved: a figure
// that is not finite (a sum past the largest double, which the model's limits should have
// prevented) or an inverted interval becomes an unsolved result with its reason, and so does
// an overflow a method's arithmetic detects (distributions throw SupportOverflow for a
// support past the largest double).
class FiniteResults final : public Solver {
 public:
  explicit FiniteResults(std::unique_ptr<Solver> inner) : inner_(std::move(inner)) {}
  const SolverInfo& info() const override { return inner_->info(); }
  MemoryPlan plan_memory(const ScaledModels& models) const override { return inner_->plan_memory(models); }
  std::unique_ptr<Solver> within_seconds(const ScaledModels& models, double seconds) const override {
    std::unique_ptr<Solver> tuned = inner_->within_seconds(models, seconds);
    return tuned ? std::make_unique<FiniteResults>(std::move(tuned)) : nullptr;
  }
  SolveCost cost(const ModelSizes& sizes, const UnitCosts& costs) const override { return inner_->cost(sizes, costs); }
  SolveCost cost_of_models(const ScaledModels& models, const ModelSizes& sizes, const UnitCosts& costs) const override {
    return inner_->cost_of_models(models, sizes, costs);
  }
  std::optional<double> cost_within(const ModelSizes& sizes, const UnitCosts& costs, double seconds) const override {
    return inner_->cost_within(sizes, costs, seconds);
  }
  Result solve(const ScaledModels& models) const override {
    try {
      return finite_or_unsolved(inner_->solve(models));
    } catch (const distributions::SupportOverflow& overflow) {
      Result result;
      result.method = info().method;
      Unsolved& why = result.unsolved.emplace();
      why.reason = Unsolved::Reason::NumericalFailure;
      why.explanation = std::string("the figures are not finite (") + overflow.what() + ")";
      return result;
    }
  }

 private:
  std::unique_ptr<Solver> inner_;
};

}  // namespace

std::unique_ptr<Solver> make_solver(Method method, const SolverOptions& options) {
  return std::make_unique<FiniteResults>(entry(method).make(options));
}

bool SolverOptions::IsValid(std::string* why) const {
  if (memory_budget_bytes < kSmallestMemoryBudget) {
    if (why != nullptr) *why = "memory_budget_bytes must be >= 1 MiB, got " + std::to_string(memory_budget_bytes);
    return false;
  }
  if (!valid_quantile_levels(quantiles, why)) return false;
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

bool every_runtime_deterministic(std::span<const WeightedGraph> scenarios) {
  for (const WeightedGraph& scenario : scenarios) {
    for (graph::NodeId v = 0; v < scenario.graph->node_count(); ++v) {
      const auto law = distributions::closed_form(scenario.graph->node(v).runtime);
      if (!law || law->kind != distributions::ClosedFormParameters::Kind::Deterministic) return false;
    }
  }
  return true;
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
  for (const WeightedGraph& scenario : scenarios)
    nodes = std::max(nodes, static_cast<double>(scenario.graph->node_count()));
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
