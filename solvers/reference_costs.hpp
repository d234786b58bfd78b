// What a unit of each method's work costs on one free core of the reference machine
// (docs/performance.md, "Cost estimate", says how each figure was measured). Written once here:
// the solvers size a solve to a time budget with them (Solver::within_seconds) and
// analysis::reference_costs() builds the study's estimate from them.
#pragma once

namespace solvers {

// Monte Carlo: one task drawn in one sample (a dynamically scheduled pool counts its tasks).
inline constexpr double kSecondsPerTaskSample = 3e-9;
// The state space's sweep: one state.
inline constexpr double kSecondsPerState = 2.5e-7;

}  // namespace solvers
