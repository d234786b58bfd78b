// T(1), the base of every speedup: the exact model's mean on one processor, exact up to the
// discretisation bracket wherever it can be, so that no speedup inherits sampling noise.
#pragma once

#include <optional>

#include "analysis/request.hpp"
#include "analysis/study.hpp"
#include "solvers/result.hpp"

namespace analysis {

// The mean of the case's exact model on one processor. There every task runs in the one
// processor's order, so each scenario's graph is a chain and its mean is the sum of the task
// means, exact by linearity (with the means' discretisation brackets for numerical laws); the
// scenarios are weighted by their probabilities. Nothing when the exact model has more tasks
// than request.max_exact_tasks, a dynamically scheduled pool, or a scenario that is not a
// chain: the speedups then use each method's own figure for p = 1. Throws
// scaling::ScalingError for values invalid once bound.
std::optional<solvers::Result> exact_one_processor_time(const Case& one, const Request& request);

}  // namespace analysis
