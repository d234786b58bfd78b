// T(1), the base of every speedup: the exact model's mean on one processor, exact up to the
// discretisation bracket wherever it can be, so that no speedup inherits sampling noise.
#pragma once

#include <optional>

#include "scaling/exact_model.hpp"
#include "solvers/result.hpp"

namespace analysis {

// The mean of an exact model built for one processor. There every task runs in the one
// processor's order, so each scenario's graph is a chain and its mean is the sum of the task
// means, exact by linearity (with the means' discretisation brackets for numerical laws); the
// scenarios are weighted by their probabilities (a dynamically scheduled pool there runs its
// tasks one after another). Nothing when a scenario is not a chain: the speedups then use each
// method's own figure for p = 1.
std::optional<solvers::Result> one_processor_time(const scaling::ExactModel& exact);

}  // namespace analysis
