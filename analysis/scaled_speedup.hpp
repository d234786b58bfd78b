// Weak scaling: the base of the scaled speedup. When a size is an expression of P
// (VARIABLE columns = 100*P; models::is_weak_scaling), the problem grows with p, and the speedup of p is
// T1(W(p)) / T(p): the one-processor time of the problem that p processors solve
// (docs/scaling.md).
#pragma once

#include <optional>

#include "analysis/request.hpp"
#include "models/environment.hpp"
#include "models/machine.hpp"
#include "models/program.hpp"
#include "solvers/result.hpp"

namespace analysis {

// T1(W(p)): the model scaled to one processor with the per-processor variables evaluated at
// P = p. The exact one-processor time (sequential_time.hpp) when the exact model is within
// request.max_exact_tasks, else the mean of the approximate model on one processor (every task
// in series there, so it is the same sum of means up to its discretisation bracket). Empty when
// neither is finite. Throws scaling::ScalingError for values invalid at P = p.
std::optional<solvers::Result> scaled_sequential_time(const models::Program& program, const models::Machine& machine,
                                                      const models::Environment& environment, int p,
                                                      const Request& request);

}  // namespace analysis
