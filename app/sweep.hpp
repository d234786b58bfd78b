// The sweep over processor counts: one scaled model per p, solved by each requested method,
// in parallel with TBB. Results come back in the order of the processor counts, whatever the
// number of threads.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/environment.hpp"
#include "models/machine.hpp"
#include "models/program.hpp"
#include "scaling/exact_model.hpp"
#include "solvers/bounds.hpp"
#include "solvers/monte_carlo.hpp"
#include "solvers/state_space.hpp"
#include "solvers/result.hpp"
#include "solvers/series_parallel_solver.hpp"

namespace app {

struct SweepOptions {
  // Processor counts to analyse, each in [1, scaling::kMaxProcessors]. p = 1 is solved too
  // when absent, as the base of the speedups, but not reported.
  std::vector<int> processors;
  // Methods to run for every p, in the order they are reported.
  std::vector<solvers::Method> methods{solvers::Method::SeriesParallel};
  // Approximate: the series-parallel reduction of the approximate model.
  solvers::SeriesParallelOptions series_parallel;
  // Monte Carlo of the exact model. Its own threads setting is ignored: the sweep's is used.
  solvers::MonteCarloOptions monte_carlo;
  // Bounds on the exact model's mean.
  solvers::BoundsOptions bounds;
  // The exact mean by state-space analysis; a p whose state space is estimated beyond the
  // memory budget or max_states is skipped with the estimate. Its threads setting is ignored.
  solvers::StateSpaceOptions state_space;
  // Limits of the exact models that bounds and Monte Carlo solve.
  scaling::ExactModelOptions exact_model;
  // The methods on the exact model (bounds, mc) skip a processor count whose exact model
  // would have more tasks than this, with a note, rather than take minutes: the approximate
  // model's cost does not grow with the tasks, theirs does.
  std::int64_t max_exact_tasks = 200'000;
  // Worker threads; 0 lets TBB use every core.
  int threads = 0;

  bool IsValid(std::string* why) const;
};

// What one analysed configuration is, as the reports name it.
struct CaseLabel {
  std::string machine;       // the machine's name
  std::string machine_file;  // empty for the built-in ideal machine
  // The --sweep variables' values of this configuration, in the order the options name them.
  std::vector<std::pair<std::string, double>> swept;
  // --loss: the one phase kept (every other phase costs 0); empty for the whole program.
  std::string phase;
};

// One configuration to sweep over p: a program on a machine with its variables bound.
// The pointers must outlive run_sweep.
struct Case {
  const models::Program* program = nullptr;
  const models::Machine* machine = nullptr;
  models::Environment environment;
  CaseLabel label;
};

struct Row {
  std::size_t case_index = 0;  // into SweepResult::cases
  int p = 1;
  solvers::Result result;
  // T(1) / T(p) and speedup / p, from the same method's means; empty where the method has no
  // mean for p = 1 or p (not solved).
  std::optional<double> speedup;
  std::optional<double> efficiency;
  // The speedup interval implied by the two brackets: [T1.lower / Tp.upper, T1.upper / Tp.lower].
  std::optional<double> speedup_lower;
  std::optional<double> speedup_upper;
};

struct SweepResult {
  std::vector<CaseLabel> cases;  // in the order they were given
  std::vector<Row> rows;  // by case, then by processor count, then by method
  double seconds = 0.0;
};

// Called after each solved (p, method) with the number done and the total; from any thread,
// but never from two at once.
using Progress = std::function<void(std::size_t done, std::size_t total)>;

// Every case on every processor count, in parallel over all (case, p) pairs: the results do
// not depend on the thread count. Throws scaling::ScalingError for values invalid once bound,
// std::invalid_argument for invalid options or a case without program or machine.
SweepResult run_sweep(const std::vector<Case>& cases, const SweepOptions& options,
                      const Progress& progress = {});

// One program on one machine: run_sweep over a single case.
SweepResult run_sweep(const models::Program& program, const models::Machine& machine,
                      const models::Environment& environment, const SweepOptions& options,
                      const Progress& progress = {});

}  // namespace app
