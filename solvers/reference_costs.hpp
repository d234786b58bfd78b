// What a unit of each method's work costs on one free core of the reference machine
// (docs/performance.md, "Cost estimate", says how each figure was measured). Written once here:
// the solvers size a solve to a time budget with them (Solver::within_seconds) and
// analysis::reference_costs() builds the study's estimate from them.
#pragma once

namespace solvers {

// Monte Carlo: one task of a task graph drawn in one sample.
inline constexpr double kSecondsPerTaskSample = 3e-9;
// Monte Carlo: one task of a dynamically scheduled pool in one sample, drawn and handed to the
// processor free first: 240 heavy-tailed tasks on 4 processors, 10^5 samples, one thread, took
// 1.0 s (2.4e7 task-samples; tests/app/data/heavy_tailed_farm.pdl, docs/performance.md).
inline constexpr double kSecondsPerPoolTaskSample = 4e-8;
// The state space's sweep: one state.
inline constexpr double kSecondsPerState = 2.5e-7;

}  // namespace solvers
