// What every solver returns: one figure per (processor count, method), with its error bar.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "distributions/distribution.hpp"

namespace solvers {

// The methods, by an id: those named here, and any a file of its own adds with the next number
// (`inline constexpr Method kMyMethod{4};`, docs/architecture.md "How to add a method"). What a
// method is and does is in its SolverInfo (solver.hpp), never in a switch over this enum.
enum class Method : int { SeriesParallel, Bounds, MonteCarlo, StateSpace };

// "approx", "bounds", "mc", "exact": the names used on the command line and in JSON
// (solvers::info(method).name; solver.hpp).
std::string_view to_string(Method method);
std::optional<Method> method_from_string(std::string_view name);

// Why a method gave no figure for a model: a typed outcome that the caller words in its own
// vocabulary (the command names its options), never an exception caught by its text.
struct Unsolved {
  enum class Reason {
    ExactModelTooLarge,  // the exact model would have more tasks than the limit
    StateSpaceTooLarge,  // the state space is estimated beyond the memory budget or state limit
    OverMemoryBudget,    // the method (or the exact model it needs) is estimated beyond the memory
                         // budget; `explanation` names what needs it, `bytes` the estimate
    NotSupported,        // the model has a node the method cannot handle; `explanation` says which
    // The method's arithmetic gave a figure that is not finite, or an interval whose ends are
    // inverted (solvers::finite_or_unsolved): no such figure reaches a report.
    NumericalFailure,
  };
  // The limit a TooLarge reason exceeded.
  enum class Limit { Tasks, States, Memory };
  Reason reason = Reason::NotSupported;
  Limit limit = Limit::Tasks;
  double size = 0.0;                 // the exact model's tasks, or the estimated states
  bool size_is_lower_bound = false;  // the estimate stopped early: at least `size`
  double bytes = 0.0;                // StateSpaceTooLarge, OverMemoryBudget: the estimated memory
  double limit_value = 0.0;          // the limit exceeded, in tasks, states or bytes
  std::string explanation;           // one sentence in the model's terms
};

struct Statistics {
  double seconds = 0.0;                // wall-clock time of the solve
  std::int64_t tree_nodes = 0;         // series-parallel tree nodes evaluated
  std::int64_t represented_tasks = 0;  // task-graph nodes the model stands for
  std::int64_t grid_points = 0;        // points of the result's numerical grid (0: closed form)
  std::int64_t samples = 0;            // Monte Carlo samples
  std::int64_t states = 0;             // state-space states
};

// One quantile of the runtime: the level q in (0, 1), the method's estimate of the q-quantile
// and an interval [lower, upper] that contains it in the same sense as the mean's interval
// (docs/methods.md, "Quantiles"): the series-parallel reduction brackets the q-quantile of the
// approximate model by those of its lower and upper lattices; Monte Carlo gives an order
// statistic of its first `samples` samples with a distribution-free 95% confidence interval
// (binomial ranks), whose upper end is +infinity when n is too small for the level.
struct Quantile {
  double level = 0.0;
  double estimate = 0.0;
  double lower = 0.0;
  double upper = 0.0;
  std::int64_t samples = 0;  // Monte Carlo: the n the order statistics are over; 0 otherwise
};

struct Result {
  Method method = Method::SeriesParallel;
  // The estimate of the mean runtime and an interval that contains the exact value of what
  // the method computes: the discretisation bracket for series-parallel reduction, the bound
  // pair for bounds, the 95% confidence interval for Monte Carlo; lower == upper == mean for
  // exact closed-form results.
  double mean = 0.0;
  double lower = 0.0;
  double upper = 0.0;
  std::optional<distributions::Distribution> distribution;  // the whole runtime distribution
  // The quantiles asked for (SolverOptions::quantiles), by ascending level; empty for a method
  // that computes the mean only (bounds, the state space) and for an unsolved result.
  std::vector<Quantile> quantiles;
  // Monte Carlo with MonteCarloOptions::keep_samples: its first samples in block order, which
  // pair up with another run's of the same seed (common random numbers); empty otherwise.
  std::vector<double> samples;
  std::string detail;  // how the figure was obtained, e.g. "closed form" or "numerical grid"
  // A caveat on a solved figure that a report shows under its table, the same words for every
  // p it applies to (e.g. Monte Carlo stopped at its most samples before the precision asked);
  // empty for none. `detail` gives the specifics.
  std::string note;
  // Set when the method was not run on this model (too large, or a node it cannot handle):
  // mean, lower and upper are then meaningless.
  std::optional<Unsolved> unsolved;
  Statistics statistics;

  bool solved() const { return !unsolved; }
};

// The last line of defence between the methods and the reports: `result` as it is when it is
// unsolved or when its mean, lower and upper are finite and ordered (lower <= upper, the mean
// within them up to rounding); otherwise an unsolved result, Reason::NumericalFailure, whose
// explanation gives the figures. Every solver made by make_solver passes its results through
// it, and turns a std::overflow_error from its arithmetic into the same outcome.
Result finite_or_unsolved(Result result);

// True when every level lies in (0, 1) and they ascend without repeats; otherwise false and,
// if why != nullptr, a message.
bool valid_quantile_levels(const std::vector<double>& levels, std::string* why);

}  // namespace solvers
