// What a unit of each method's work costs on one free core of the reference machine
// (docs/performance.md, "Cost estimate", says how each figure was measured). Written once here:
// each solver estimates its own solve with them (Solver::cost, Solver::within_seconds) and the
// analysis adds the models' construction (analysis::estimate_cost).
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

// Seconds per unit of work on one free core of the reference machine: CPU seconds, user and
// system. A run on two free cores takes down to half the estimate; one sharing its cores with
// other work, more. Zero unless set: reference_costs() gives the measured ones, and a test sets
// one at a time to count its units.
struct UnitCosts {
  // Building and fingerprinting the approximate model of one (case, p), per node of its tree.
  double tree_node = 0.0;
  // Building and fingerprinting the exact model of one (case, p): per model, per task and per
  // processor (the run compares the exact models of processor counts whose approximate models
  // are equal, and builds the exact model of each model it solves).
  double exact_model = 0.0;
  double exact_task = 0.0;
  double exact_processor = 0.0;
  // The series-parallel reduction, per inner node of the tree and grid point, and per node of
  // the tree (its closed forms and bookkeeping: all a deterministic tree costs).
  double reduction_node_point = 0.0;
  double reduction_node = 0.0;
  // The bounds (every default bounding method) of one model: bounds_model, plus
  // bounds_small_task per task up to bounds_small_most in all (their work limits cap the
  // costly methods), plus bounds_task per task.
  double bounds_model = 0.0;
  double bounds_small_task = 0.0;
  double bounds_small_most = 0.0;
  double bounds_task = 0.0;
  // The bounds of a model whose every runtime is deterministic (each method finds the longest
  // path): bounds_deterministic_model per model plus bounds_task per task.
  double bounds_deterministic_model = 0.0;
  // Monte Carlo, per task drawn in one sample.
  double task_sample = 0.0;
  // The state space's sweep, per state.
  double state = 0.0;
  // The state space's estimate of its size, which refuses the model when too large: at most.
  double state_estimate = 0.0;
  // Time what the estimate runs of a solve on the built models (Monte Carlo's pilot, the state
  // space's estimate of its size) and count those seconds, scaled by the unit costs above from
  // the reference ones, instead of counting units: a small graph's samples cost several times a
  // large one's per task (statistics, quantiles, scheduling per sample), which no count of
  // tasks tells. Off, the estimate counts units only (the tests count them one at a time).
  bool time_pilots = false;
};

// The costs measured on the reference machine (docs/performance.md, "Cost estimate"): CPU
// seconds of runs dominated by that work divided by its units, rounded up.
inline UnitCosts reference_costs() {
  UnitCosts costs;
  costs.tree_node = 2e-6;
  costs.exact_model = 5e-5;
  costs.exact_task = 3e-6;
  costs.exact_processor = 2.5e-9;
  costs.reduction_node_point = 1e-7;
  costs.reduction_node = 1e-7;
  costs.bounds_model = 0.04;
  costs.bounds_small_task = 1.5e-4;
  costs.bounds_small_most = 1.5;
  costs.bounds_task = 3e-6;
  costs.bounds_deterministic_model = 0.006;
  costs.task_sample = kSecondsPerTaskSample;
  costs.state = kSecondsPerState;
  costs.state_estimate = 0.2;
  costs.time_pilots = true;
  return costs;
}

// In precision mode Monte Carlo's sample count depends on the makespan's spread, unknown
// before it runs: its cost estimate assumes a coefficient of variation of this much.
inline constexpr double kAssumedMakespanCv = 0.05;

// One model's size as a cost estimate knows it before the exact model is built: the
// approximate model's tree and the exact model's task count (the tree's expanded size).
struct ModelSizes {
  double tree_nodes = 0.0;
  // The inner nodes with a random leaf below them: the series-parallel reduction works on their
  // grids, while a subtree of deterministic leaves reduces in closed form at no grid's cost.
  double random_inner_tree_nodes = 0.0;
  double tasks = 0.0;
};

// A solve's estimated wall time on one free core of the reference machine.
struct SolveCost {
  double seconds = 0.0;
  // The method refuses the model (beyond its limits, or a model it does not handle): the
  // seconds are those of finding that out.
  bool refused = false;
  // Counted at a limit rather than estimated from the model: an upper bound.
  bool at_limit = false;
  // The figure grows in proportion to the model's tasks (a deterministic model's longest path):
  // the larger models of the same program whose estimate is not built count so from this one.
  bool proportional_to_tasks = false;
};

}  // namespace solvers
