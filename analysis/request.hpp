// A study's request: what to analyse and how, every default written here once (or in the
// solver options it holds), checked by IsValid before anything runs.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "distributed/communicator.hpp"
#include "scaling/exact_model.hpp"
#include "solvers/solver.hpp"

namespace analysis {

// Processor counts analysed in one run, at most: a sweep beyond this is a typo, not a study.
inline constexpr std::size_t kMaxProcessorCounts = 65536;
// The processor counts analysed when none are given: 1..kDefaultPmax.
inline constexpr int kDefaultPmax = 16;

// The quantile levels a JSON report carries when none are asked for (the command's --quantiles):
// the median and the two tails a performance engineer reads.
inline constexpr std::array<double, 3> kJsonQuantileLevels{0.5, 0.95, 0.99};

// The efficiency thresholds the summary answers for when none are asked for: "largest p with
// efficiency >= 0.8" and ">= 0.5".
inline constexpr std::array<double, 2> kDefaultEfficiencyThresholds{0.8, 0.5};

// How the prediction of each (case, p) is found (analysis/prediction.hpp; docs/cli.md, "The
// prediction").
struct PredictionOptions {
  // Seconds on one free core of the reference machine (solvers/reference_costs.hpp) that each
  // model may spend on the prediction's own solve: the method of the highest prediction rank
  // above every method asked for (the exact mean, else Monte Carlo) whose cost on this model
  // fits, decided from the model's size before it runs. 0: the prediction comes from the
  // methods asked for alone.
  double seconds_per_model = 0.25;
  // The summary's thresholds: for each, the largest p whose efficiency reaches it.
  std::vector<double> efficiency_thresholds{kDefaultEfficiencyThresholds.begin(), kDefaultEfficiencyThresholds.end()};

  bool IsValid(std::string* why) const;
};

// What limits scaling (--sensitivity; analysis/sensitivity.hpp, docs/sensitivity.md).
struct SensitivityOptions {
  // The relative step h of the central difference (T(x(1 + h)) - T(x(1 - h))) / (2 h T(x)) where
  // the prediction is an exact mean: a kink of the longest path within x(1 +- h) is rare (the
  // one-sided slopes show one), and a few ulps of rounding in T move e by about 1e-12 / e
  // relative (1e-4 gave 1.1e-9 on Foster's t_s elasticity of 0.0019).
  double exact_step = 1e-3;
  // The step where the prediction comes from Monte Carlo (with common random numbers) or the
  // approximate model: the difference then carries the samples' or the brackets' error, which a
  // larger step divides; its own bias is of order h^2.
  double sampled_step = 0.01;
  // The growths of T (1% and 5%) whose tolerance factor is searched.
  std::array<double, 2> growths{0.01, 0.05};
  // A tolerance beyond this factor is reported as none (T does not grow that much).
  double max_factor = 1e6;
  // Relative width of the bracket a tolerance factor is searched to.
  double factor_precision = 1e-6;

  bool IsValid(std::string* why) const;
};

struct Request {
  // Processor counts to analyse, each in [1, scaling::kMaxProcessors], at most
  // kMaxProcessorCounts of them, ascending. p = 1 is solved too when absent, as the base of the
  // speedups, but not reported: its exact model's one-processor chain when it is one (the
  // methods then do not run at p = 1), else every method at p = 1.
  std::vector<int> processors = default_processors();
  // Methods to run for every p, in the order they are reported.
  std::vector<solvers::Method> methods{solvers::Method::SeriesParallel, solvers::Method::Bounds};
  // Every method's options, with the solvers' defaults except where a study needs other ones:
  //  - the series-parallel reduction keeps no distribution: the reports need the means and
  //    their brackets only, which spares the FFT powers over iterations;
  //  - Monte Carlo samples until the 95% half-width is at most 0.001 of the mean;
  //  - the state space explores at most 2e7 states (a study asks for many p; a larger state
  //    space takes minutes each).
  // Its `quantiles` are the levels every row reports (Row::result.quantiles, approx and mc
  // only): none unless asked for.
  // Their memory_budget_bytes is not read: each solve gets its share of memory_budget_bytes.
  solvers::SolverOptions solver_options = [] {
    solvers::SolverOptions options;
    options.series_parallel.keep_distribution = false;
    options.monte_carlo.relative_precision = 1e-3;
    options.state_space.max_states = 20'000'000;
    return options;
  }();
  // Memory of the whole study. Every (case, p) plans what it holds (the exact model, then the
  // largest plan of its methods, which run one after the other) before it holds it; a method
  // whose plan does not fit beside the exact model is not run (Unsolved::Reason::
  // OverMemoryBudget or StateSpaceTooLarge, with the estimate), nor are the methods on an exact
  // model that alone would not fit. Solves run side by side only while their plans fit together,
  // so whether a method runs never depends on the threads. The command gives a quarter of the
  // machine's physical memory unless --memory says otherwise; this default is for library
  // callers.
  std::uint64_t memory_budget_bytes = solvers::kDefaultMemoryBudget;
  // Limits of the exact models that bounds, Monte Carlo and the state space solve.
  scaling::ExactModelOptions exact_model;
  // The methods on the exact model skip a processor count whose exact model would have more
  // tasks than this (Unsolved::Reason::ExactModelTooLarge) rather than take minutes: the
  // approximate model's cost does not grow with the tasks, theirs does.
  std::int64_t max_exact_tasks = 200'000;
  // Split each p's prediction into computation, communication, synchronisation and idle time
  // (analysis/breakdown.hpp): builds the exact model of every p (within max_exact_tasks and the
  // memory budget) even when no method needs it.
  bool breakdown = false;
  PredictionOptions prediction;
  // With a value: each p's elasticities and tolerances (analysis/sensitivity.hpp), after the
  // study. Empty: none.
  std::optional<SensitivityOptions> sensitivity;
  // Worker threads of the study; 0 lets TBB use every core. No figure depends on it.
  int threads = 0;
  // The ranks of the job that share the study (docs/scale-out.md); null: this process alone.
  // Every rank calls run_study with the same cases and request and gets the same result: the
  // (case, p) items are handed out to the ranks as they come free, the largest p first, and
  // each Monte Carlo and state-space solve is shared by all ranks. No figure depends on it.
  const distributed::Communicator* communicator = nullptr;
  // Set true (by a signal handler, app/main.cpp) to stop the study early: no further (case, p)
  // is started, those under way finish, and run_study returns the processor counts solved
  // whole, with the others listed as StudyResult::unsolved_processors(). Null: never stops.
  // A process alone only; the ranks of a job run to the end.
  const std::atomic<bool>* stop = nullptr;

  static std::vector<int> default_processors();
  bool IsValid(std::string* why) const;
  // Whether processor count p is reported (one of `processors`).
  bool reports(int p) const;
};

}  // namespace analysis
