#include "analysis/solves_cost.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <utility>

#include "analysis/parallel.hpp"
#include "analysis/run_model.hpp"
#include "models/bind.hpp"
#include "scaling/approximate_model.hpp"
#include "distributions/distribution.hpp"

namespace analysis {

namespace {

// Time the estimate may spend solving sample settings.
constexpr double kTimingSeconds = 0.25;
// Sample settings at most (spread over the list: the settings' p differ).
constexpr std::size_t kTimedSettings = 16;

// One setting to time: the input at the columns' values, at p.
struct Setting {
  MachineInput input;
  std::int64_t p = 1;
};

// A kept runtime law's bytes per grid point: two lattices and their prefix sums
// (distributions::CdfTable).
constexpr double kLawBytesPerPoint = 4 * sizeof(double);

struct TimedSolves {
  double seconds_per_solve = 0.0;
  double law_bytes = 0.0;  // the largest kept law's
};

// The mean seconds of one solve over up to kTimedSettings of `count` settings spread evenly,
// within kTimingSeconds, and the largest law kept; `make(i)` gives setting i.
template <typename Make>
Outcome<TimedSolves> time_solves(std::size_t count, const Make& make, solvers::SeriesParallelOptions options) {
  options.keep_distribution = true;  // the fits' weighings and the intervals keep it
  const std::size_t stride = std::max<std::size_t>(1, count / kTimedSettings);
  const auto begin = std::chrono::steady_clock::now();
  TimedSolves timed;
  double solved = 0.0;
  for (std::size_t i = 0; i < count; i += stride) {
    const Outcome<Setting> setting = make(i);
    if (!setting.ok()) return {std::nullopt, setting.failure};
    const Outcome<solvers::Result> result = solve_approximate(setting.value->input, setting.value->p, options);
    if (!result.ok()) return {std::nullopt, result.failure};
    if (result.value->distribution) {
      const double points = static_cast<double>(distributions::grid_size(*result.value->distribution));
      timed.law_bytes = std::max(timed.law_bytes, sizeof(distributions::CdfTable) + kLawBytesPerPoint * points);
    }
    solved += 1.0;
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count() > kTimingSeconds) break;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  timed.seconds_per_solve = solved > 0.0 ? seconds / solved : 0.0;
  return {timed, std::nullopt};
}

SolvesCost cost_of(std::size_t settings, double solves_per_setting, const TimedSolves& timed, double bytes) {
  SolvesCost cost;
  cost.settings = settings;
  cost.solves = static_cast<double>(settings) * solves_per_setting;
  cost.seconds = cost.solves * timed.seconds_per_solve;
  cost.bytes = bytes;
  return cost;
}

// Over the distinct settings of `runs`; `bytes(timed)` the step's peak.
template <typename Bytes>
Outcome<SolvesCost> of_runs(const MachineInput& input, const models::Runs& runs, double solves_per_setting,
                            const solvers::SeriesParallelOptions& options, const Bytes& bytes) {
  const std::vector<std::size_t> firsts = settings_of(runs).first_run;
  const auto make = [&](std::size_t i) -> Outcome<Setting> {
    const models::Run& run = runs.runs[firsts[i]];
    Outcome<MachineInput> with = with_values(input, runs.variables, run.values);
    if (!with.ok()) return {std::nullopt, with.failure};
    return {Setting{std::move(*with.value), run.p}, std::nullopt};
  };
  const Outcome<TimedSolves> timed = time_solves(firsts.size(), make, options);
  if (!timed.ok()) return {std::nullopt, timed.failure};
  return {cost_of(firsts.size(), solves_per_setting, *timed.value, bytes(*timed.value)), std::nullopt};
}

// The refits of the calibrated range (docs/calibration.md, "Beyond the calibrated range"): two per
// axis (p and each column) that has two or more values.
double range_refits(const models::Runs& runs) {
  double refits = 0.0;
  for (std::size_t axis = 0; axis <= runs.variables.size(); ++axis) {
    const auto value = [&](const models::Run& run) {
      return axis == 0 ? static_cast<double>(run.p) : run.values[axis - 1];
    };
    const bool varies = std::any_of(runs.runs.begin(), runs.runs.end(),
                                    [&](const models::Run& run) { return value(run) != value(runs.runs.front()); });
    refits += varies ? 2.0 : 0.0;
  }
  return refits;
}

}  // namespace

Outcome<SolvesCost> estimate_fit(const MachineInput& input, const models::Runs& runs, std::size_t parameters,
                                 int starts, const solvers::SeriesParallelOptions& options) {
  const double jacobian = 1.0 + 2.0 * static_cast<double>(parameters);
  const double coarse =
      static_cast<double>(std::max(starts, 1) - 1) * kTypicalFitIterations * (1.0 + static_cast<double>(parameters));
  const double one_fit = kTypicalFitIterations * jacobian + jacobian + 3.0;
  // Each refit of the range: one fit from the fitted values (over at most every setting), and
  // the settings left out predicted with their delta method's central differences.
  const double refits = range_refits(runs) * (one_fit + jacobian);
  // Per run: its time, spread, weight and residual, and a row of the Jacobian.
  const double per_run = sizeof(double) * (4.0 + jacobian);
  return of_runs(input, runs, one_fit + coarse + refits, options,
                 [&](const TimedSolves&) { return per_run * static_cast<double>(runs.runs.size()); });
}

Outcome<SolvesCost> estimate_intervals(const MachineInput& input, const models::Runs& runs, int draws,
                                       const solvers::SeriesParallelOptions& options) {
  const double laws = 1.0 + static_cast<double>(draws);
  return of_runs(input, runs, laws, options, [&](const TimedSolves& timed) { return laws * timed.law_bytes; });
}

Outcome<SolvesCost> estimate_intervals(const MachineInput& input, const std::vector<int>& processors, int draws,
                                       const solvers::SeriesParallelOptions& options) {
  const auto make = [&](std::size_t i) -> Outcome<Setting> { return {Setting{input, processors[i]}, std::nullopt}; };
  const Outcome<TimedSolves> timed = time_solves(processors.size(), make, options);
  if (!timed.ok()) return {std::nullopt, timed.failure};
  const double laws = 1.0 + static_cast<double>(draws);
  return {cost_of(processors.size(), laws, *timed.value, laws * timed.value->law_bytes), std::nullopt};
}

double search_evaluations(const IsoefficiencyOptions& options, bool machine_constant, double constant_range) {
  // A range of one value, or sizes of one, still take an evaluation or two.
  if (machine_constant) {
    const double steps = std::log2(std::log(std::max(constant_range, 2.0)) / std::log1p(options.relative_precision));
    return std::ceil(std::max(steps, 0.0)) + 2.0;
  }
  return 2.0 * std::ceil(std::log2(std::max(options.max_size / options.min_size, 1.0))) + 2.0;
}

Outcome<SolvesCost> estimate_search(const std::vector<MachineInput>& machines, const std::vector<int>& processors,
                                    const std::string& variable, double start, double evaluations,
                                    const solvers::SeriesParallelOptions& options) {
  const ItemGrid grid{machines.size(), processors.size()};  // (machine, p), as run_isoefficiency's
  const std::size_t points = grid.size();
  solvers::SeriesParallelOptions means = options;
  means.keep_distribution = false;
  const auto begin = std::chrono::steady_clock::now();
  const std::size_t stride = std::max<std::size_t>(1, points / kTimedSettings);
  double timed = 0.0;
  for (std::size_t k = 0; k < points; k += stride) {
    const MachineInput& input = machines[grid.outer_of(k)];
    std::map<std::string, double> values = input.values;
    if (models::declares_variable(*input.program, variable)) values.try_emplace(variable, start);
    const models::Binding binding = models::bind(*input.program, input.machine, values);
    if (!binding.ok()) break;  // the variable has no value here: the search gives it one
    try {
      approximate_efficiency(*input.program, input.machine, binding.environment, processors[grid.inner_of(k)], means);
    } catch (const scaling::ScalingError&) {
      break;  // a value the model refuses: the search says where
    }
    timed += 1.0;
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count() > kTimingSeconds) break;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  SolvesCost cost;
  cost.settings = points;
  cost.solves = static_cast<double>(points) * evaluations;
  cost.seconds = timed > 0.0 ? cost.solves * seconds / timed : 0.0;
  return {cost, std::nullopt};
}

}  // namespace analysis
