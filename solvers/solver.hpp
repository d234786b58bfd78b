// One interface for every solution method, and the one factory that makes them
// (docs/architecture.md, "The seams"). A caller never switches over methods: it asks a solver for its info() (what to
// call it, what its interval means, which model it needs) and hands it the scaled models.
//
// Adding a method: a value in solvers::Method (result.hpp), its options in SolverOptions, its
// own files with a class implementing Solver, and one entry in solver_factory.cpp. Nothing
// else changes: the analysis, the reports and the chart read info().
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "graph/sp_tree.hpp"
#include "solvers/bounds.hpp"
#include "solvers/memory.hpp"
#include "solvers/monte_carlo.hpp"
#include "solvers/reference_costs.hpp"
#include "solvers/result.hpp"
#include "solvers/series_parallel_solver.hpp"
#include "solvers/state_space.hpp"

namespace solvers {

// What a method's [lower, upper] says about the figure.
enum class IntervalKind {
  // Contains the exact value of what the method computes; only discretisation widens it.
  DiscretisationBracket,
  // Lower and upper bounds on the exact model's mean; `mean` is then their midpoint, a
  // presentation aid and not an estimate.
  BoundPair,
  // The 95% confidence interval of a sampled mean.
  Confidence95,
  // lower == upper == mean when exact; when a task had to be fitted, what is proven about the
  // true mean (see state_space.hpp).
  ExactOrProven,
};

// How a report shows a method's figure in a table.
enum class Presentation {
  EstimateAndInterval,  // two columns: the mean, then [lower, upper] titled interval_title
  IntervalOnly,         // one column: [lower, upper]
  EstimatePlusMinus,    // one column: mean ± (upper - mean)
  EstimateOnly,         // one column: the mean
};

struct SolverInfo {
  Method method = Method::SeriesParallel;
  // On the command line, in CSV and JSON: "approx", "bounds", "mc", "exact".
  std::string_view name;
  // The table's column title for the figure, and for EstimateAndInterval the interval's.
  std::string_view title;
  std::string_view interval_title;
  Presentation presentation = Presentation::EstimateOnly;
  IntervalKind interval = IntervalKind::DiscretisationBracket;
  // True when the method solves the exact model (every task and dependency on p processors),
  // false when it solves the approximate (series-parallel, barrier) model.
  bool needs_exact_model = false;
  // True when the speedup is best shown as the interval [T1.lower / Tp.upper, T1.upper / Tp.lower]
  // rather than as the ratio of the means (the means of bounds are midpoints).
  bool speedup_as_interval = false;
  // True when the method reports the quantiles asked for (SolverOptions::quantiles) with an
  // interval of the same kind as its mean's; false for a method that computes the mean only.
  bool gives_quantiles = false;
  // How well the method's figure justifies a prediction of the exact model's mean, higher
  // better: the analysis (analysis/prediction.hpp) prefers the solved method of the highest
  // rank, and adds a solve of its own only for a method that ranks above every method asked
  // for. 0: the method never answers for the prediction.
  int prediction_rank = 0;
  // True when the ranks of an MPI job share one solve of a model (its samples or its states;
  // docs/scale-out.md); false when each model is solved whole by one rank, the models shared out.
  bool shared_by_ranks = false;
  // True when the estimate from the models' sizes (Solver::cost) is only a limit or a rough
  // count, and a finer one needs the built models (Solver::cost_of_models, given the exact model
  // when needs_exact_model, else the approximate one): the state space counts its states, Monte
  // Carlo and the reduction time a pilot. A refusal found so is taken to hold for the larger
  // processor counts of the same program.
  bool cost_needs_models = false;
  // The options that tune this method alone, as the command line names them without "--" (and
  // Python passes them as keywords): an option given for a method the run does not use is
  // refused (docs/cli.md, "Options of one method").
  std::span<const std::string_view> own_options = {};
  // The method in a few words, for messages: "Monte Carlo", "the state-space analysis".
  std::string_view in_words;
  // One sentence for help texts and documentation.
  std::string_view description;
};

// Every method in the order "all" runs and reports them.
std::span<const Method> all_methods();
const SolverInfo& info(Method method);

// The scaled models of one program on one machine and processor count. The approximate model
// is always there; the exact one (a mixture of scenarios with their probabilities) only when
// some requested method needs it and it is within the task limit.
struct ScaledModels {
  const graph::SpTree* approximate = nullptr;
  std::span<const WeightedGraph> exact;
  // Where set, the solver reports now and then the fraction of its work done, in [0, 1], never
  // falling, for a progress display (Monte Carlo per chunk of samples, the state space per
  // batch of states, the bounds per method; the series-parallel reduction not at all), at most
  // every 5 ms or so (solvers/progress.hpp). May be called from any of the solver's threads,
  // but not from two at once. No figure depends on it.
  std::function<void(double)> report_progress = {};
};

// The options of every method, each with its documented defaults.
struct SolverOptions {
  SeriesParallelOptions series_parallel;
  BoundsOptions bounds;
  MonteCarloOptions monte_carlo;
  StateSpaceOptions state_space;
  // Memory one solve may use besides the models it is given: make_solver puts it in place of
  // each method's own memory_budget_bytes. A study gives every solve the run's budget less the
  // exact model (analysis::Request::memory_budget_bytes).
  std::uint64_t memory_budget_bytes = kDefaultMemoryBudget;
  // Levels in (0, 1), ascending, of the quantiles every method with a distribution or samples
  // reports in Result::quantiles (approx and mc; bounds and exact compute means only). None by
  // default; the command asks for 0.5, 0.95, 0.99 in JSON (analysis::kJsonQuantileLevels).
  // make_solver puts them in place of the series-parallel and Monte Carlo options' own.
  std::vector<double> quantiles;

  bool IsValid(std::string* why) const;
};

// What a solve would hold at its peak besides the models, planned before any work.
struct MemoryPlan {
  double bytes = 0.0;
  // Set when not even the cheapest way to solve fits the budget (Reason::OverMemoryBudget or
  // StateSpaceTooLarge); solve() then returns this refusal.
  std::optional<Unsolved> refusal;
};

class Solver {
 public:
  virtual ~Solver() = default;
  virtual const SolverInfo& info() const = 0;
  // The peak memory of solve(models) besides the models, from their sizes (the state space
  // enumerates its downsets, at most about 0.2 s; the others count nodes and arcs): within the
  // budget whenever there is no refusal. A caller running solves side by side reserves it.
  virtual MemoryPlan plan_memory(const ScaledModels& models) const = 0;
  // The figure for these models. A method that does not apply (a node it cannot handle, a
  // model beyond its budget) returns a Result whose `unsolved` says why, typed; it throws only
  // for a bug (std::logic_error) or a model without what info() says it needs
  // (std::invalid_argument).
  virtual Result solve(const ScaledModels& models) const = 0;
  // The seconds solve() takes on one free core of the reference machine, estimated from the
  // models' sizes alone at `costs` (reference_costs() unless a test counts units). Where the
  // sizes cannot tell (info().cost_needs_models), the figure at the method's limit, at_limit.
  virtual SolveCost cost(const ModelSizes& sizes, const UnitCosts& costs) const = 0;
  // The estimate from the built models, for a method whose info().cost_needs_models; the
  // sizes' figure otherwise.
  virtual SolveCost cost_of_models(const ScaledModels& models, const ModelSizes& sizes, const UnitCosts& costs) const {
    (void)models;
    return cost(sizes, costs);
  }
  // The seconds solve() of within_seconds(models, seconds) would take, estimated from the sizes
  // alone; nothing when within_seconds would return null (or the method cannot tell).
  virtual std::optional<double> cost_within(const ModelSizes& sizes, const UnitCosts& costs, double seconds) const {
    (void)sizes;
    (void)costs;
    (void)seconds;
    return std::nullopt;
  }
  // A solver of this method whose solve(models) takes at most about `seconds` on one free core
  // of the reference machine (solvers/reference_costs.hpp), tuned down where the method can be
  // (Monte Carlo draws fewer samples and says so in its note), or null when it cannot be done
  // within them or the method cannot tell. Decided from the models' sizes alone, never from a
  // clock, so that the same models give the same answer on every run, thread count and rank.
  // The solver returned is for these models (it may keep what it learnt of them, e.g. its plan).
  virtual std::unique_ptr<Solver> within_seconds(const ScaledModels& models, double seconds) const {
    (void)models;
    (void)seconds;
    return nullptr;
  }
};

// The solver for `method` with its part of `options`. The solver runs its own parallel work
// inside the caller's TBB arena (its options' thread counts are not used).
std::unique_ptr<Solver> make_solver(Method method, const SolverOptions& options);

}  // namespace solvers
