// The exact scaled model (docs/semantics.md): every task and dependency of the generic model
// of a program, mapped onto p processors.
//
// Each processor runs its tasks in a fixed order (an arc between consecutive tasks of a
// processor); an arc between tasks on different processors carries a communication node
// (the machine's deterministic time for the volume) when that time is > 0; barriers, SYNC and
// contention come from the machine model, concatenations are honoured (SERIAL: each
// processor's next tasks after its own; NEIGHBOR / NEIGHBOR-TORUS / TORUS: the neighbour
// dependences between consecutive instances; BARRIER: a barrier node). DYNAMIC scheduling of
// independent tasks is one graph::NodeKind::DynamicPool node that Monte Carlo simulates.
// Probabilistic alternatives make the model a list of scenarios, one task graph per
// combination of choices. docs/semantics.md describes the model of every scheme.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "graph/task_graph.hpp"
#include "models/environment.hpp"
#include "models/machine.hpp"
#include "models/program.hpp"
#include "scaling/approximate_model.hpp"  // ScalingError, kMaxProcessors

namespace scaling {

// One combination of the pattern's probabilistic choices and the task graph it runs.
struct Scenario {
  double probability = 1.0;
  std::string description;  // the choices, e.g. "branch 2 of 2 at 3:14; branch 1 of 2 at 3:14"
  graph::TaskGraph graph;
};

// The model: scenarios with positive probabilities summing to 1 (one scenario when the
// pattern has no alternatives).
struct ExactModel {
  std::vector<Scenario> scenarios;
};

// The order in which a processor runs its block of NEIGHBOR columns in every instance.
enum class NeighborOrder {
  LeftToRight,  // every processor left to right (docs/semantics.md, N1; the default)
  Alternating,  // even processors left to right, odd ones right to left, so neighbours reach
                // their shared boundary at the same time; the paper's Table 2 bounds fit this
                // order (docs/methods.md)
};

struct ExactModelOptions {
  NeighborOrder neighbor_order = NeighborOrder::LeftToRight;
  // Largest number of scenarios built; a pattern with more combinations of choices is refused
  // with a ScalingError naming the count (its exact model is a mixture too large to list).
  std::size_t max_scenarios = 256;
  // Largest number of nodes over all scenarios; beyond it a ScalingError names the count.
  std::size_t max_nodes = 10'000'000;  // about 1.5 GB of task graph
};

// The exact model would have more than ExactModelOptions::max_nodes nodes: typed, so that a
// caller words the limit in its own terms (the command names its option or its drawing limit).
class ExactModelTooLarge : public ScalingError {
 public:
  explicit ExactModelTooLarge(std::size_t limit);
  std::size_t limit() const { return limit_; }

 private:
  std::size_t limit_;
};

// The exact model of `program` on `machine` with p processors. `environment` holds the bound
// variables (models::bind); P is added here. Throws ScalingError for values that are invalid
// once bound or a model beyond the options' limits (ExactModelTooLarge for max_nodes),
// std::invalid_argument for p outside
// [1, kMaxProcessors].
ExactModel exact_model(const models::Program& program, const models::Machine& machine,
                       const models::Environment& environment, int p, const ExactModelOptions& options = {});

}  // namespace scaling
