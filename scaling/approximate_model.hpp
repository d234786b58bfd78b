// The approximate scaled model (docs/semantics.md, the paper's section 3): a program on p
// processors as a series-parallel tree whose size depends on the program's structure, not on
// its number of tasks.
//
// Each processor's share of a phase is the n-fold convolution of one task (n its task count),
// processors are joined by their maximum, phases and iterations follow each other in series
// with barrier, communication and contention nodes from the machine model. Neighbour
// synchronisation is replaced by a barrier, which by Kleinöder's theorem (inserting arcs)
// gives an upper bound on the exact model's mean. Processors with the same work form one
// group, solved once with a p-fold maximum power, so the cost is that of a few grid
// operations per phase. docs/semantics.md describes the model of every scheme.
#pragma once

#include <stdexcept>
#include <string>

#include "graph/sp_tree.hpp"
#include "models/environment.hpp"
#include "models/machine.hpp"
#include "models/program.hpp"

namespace scaling {

// A quantity of the model that has no valid value once the variables are bound (a repetition
// count of 2.5, an Erlang phase count of -1, ...), with the place in the source it comes from.
class ScalingError : public std::runtime_error {
 public:
  ScalingError(models::SourceLocation location, const std::string& message);
  const models::SourceLocation& location() const { return location_; }

 private:
  models::SourceLocation location_;
};

// The largest processor count a model may be built for.
inline constexpr int kMaxProcessors = 1 << 20;

// The approximate model of `program` on `machine` with p processors. `environment` holds the
// bound variables (models::bind); P is added here. Throws ScalingError for values that are
// invalid once bound, std::invalid_argument for p outside [1, kMaxProcessors].
graph::SpTree approximate_model(const models::Program& program, const models::Machine& machine,
                                const models::Environment& environment, int p);

}  // namespace scaling
