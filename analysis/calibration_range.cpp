#include "analysis/calibration_range.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "analysis/calibration.hpp"
#include "analysis/calibration_problem.hpp"
#include "analysis/run_model.hpp"
#include "models/bind.hpp"

namespace analysis {

namespace {

// How far apart two values of axis a are: the log of their ratio on a logarithmic axis, their
// difference in units of the span on a linear one (and on a logarithmic one for a value <= 0,
// which only a new setting can have).
double axis_distance(const CalibratedRange& range, std::size_t a, double x, double y) {
  if (range.logarithmic[a] && x > 0.0 && y > 0.0) return std::abs(std::log(x / y));
  return std::abs(x - y) / range.scale[a];
}

// The largest difference of one coordinate between two settings (raw values per axis).
double distance_between(const CalibratedRange& range, const std::vector<double>& x, const std::vector<double>& y) {
  double distance = 0.0;
  for (std::size_t a = 0; a < range.axes.size(); ++a)
    distance = std::max(distance, axis_distance(range, a, x[a], y[a]));
  return distance;
}

}  // namespace

Placement place(const CalibratedRange& range, const MachineInput& setting, std::int64_t p) {
  Placement placement;
  const models::Binding binding = models::bind(*setting.program, setting.machine, setting.values);
  const auto value_of = [&](const std::string& name) -> std::optional<double> {
    const auto found = binding.environment.values.find(name);
    if (found == binding.environment.values.end()) return std::nullopt;
    return found->second;
  };
  // On the axes the calibration did not vary, the distance from the one value it ran at.
  double fixed_distance = 0.0;
  for (const auto& [name, calibrated] : range.fixed) {
    const std::optional<double> value = value_of(name);
    if (!value || *value == calibrated) continue;
    const double distance = calibrated > 0.0 && *value > 0.0
                                ? std::abs(std::log(*value / calibrated))
                                : std::abs(*value - calibrated) / std::max(std::abs(calibrated), 1.0);
    fixed_distance = std::max(fixed_distance, distance);
    placement.beyond.push_back(name);
  }
  std::vector<double> point(range.axes.size(), static_cast<double>(p));
  for (std::size_t a = 1; a < range.axes.size(); ++a) point[a] = value_of(range.axes[a]).value_or(range.low[a]);
  for (std::size_t a = 0; a < range.axes.size(); ++a) {
    if (point[a] < range.low[a] || point[a] > range.high[a]) placement.beyond.push_back(range.axes[a]);
  }
  double nearest = range.settings.empty() ? 0.0 : std::numeric_limits<double>::infinity();
  for (const std::vector<double>& calibrated : range.settings) {
    nearest = std::min(nearest, distance_between(range, point, calibrated));
  }
  placement.distance = std::max(nearest, fixed_distance);
  placement.discrepancy = range.rate.value_or(0.0) * placement.distance;
  return placement;
}

namespace detail {

namespace {

// The range's axes and settings from the runs (their distinct settings), and the program's
// other variables (neither a column nor fitted) that every setting binds to one value.
CalibratedRange range_of(const MachineInput& input, const models::Runs& runs, const CalibrationOptions& options) {
  CalibratedRange range;
  const RunSettings distinct = settings_of(runs);
  std::map<std::string, std::optional<double>> values;  // empty: not one value
  for (const std::size_t first : distinct.first_run) {
    const Outcome<MachineInput> setting = with_values(input, runs.variables, runs.runs[first].values);
    if (!setting.ok()) continue;
    const models::Binding binding =
        models::bind(*setting.value->program, setting.value->machine, setting.value->values);
    for (const models::Variable& variable : input.program->variables) {
      const auto found = binding.environment.values.find(variable.name);
      const std::optional<double> value =
          found == binding.environment.values.end() ? std::nullopt : std::optional<double>(found->second);
      const auto [at, inserted] = values.emplace(variable.name, value);
      if (!inserted && at->second != value) at->second.reset();
    }
  }
  for (const auto& [name, value] : values) {
    const auto is = [&](const std::vector<std::string>& names) {
      return std::find(names.begin(), names.end(), name) != names.end();
    };
    if (value && !is(runs.variables) && !is(options.parameters)) range.fixed.emplace_back(name, *value);
  }
  range.axes.push_back("p");
  range.axes.insert(range.axes.end(), runs.variables.begin(), runs.variables.end());
  for (const std::size_t first : distinct.first_run) {
    std::vector<double> setting{static_cast<double>(runs.runs[first].p)};
    setting.insert(setting.end(), runs.runs[first].values.begin(), runs.runs[first].values.end());
    range.settings.push_back(std::move(setting));
  }
  for (std::size_t a = 0; a < range.axes.size(); ++a) {
    double low = std::numeric_limits<double>::infinity(), high = -low;
    for (const std::vector<double>& setting : range.settings) {
      low = std::min(low, setting[a]);
      high = std::max(high, setting[a]);
    }
    range.low.push_back(low);
    range.high.push_back(high);
    range.logarithmic.push_back(low > 0.0);
    range.scale.push_back(high > low ? high - low : 1.0);
  }
  return range;
}

// The settings (indices) beyond three quarters of axis a's span (upward) or below its first
// quarter: the outer quarter, which always holds the extreme value.
std::vector<std::size_t> outer_settings(const CalibratedRange& range, std::size_t a, bool upward) {
  const double span = axis_distance(range, a, range.high[a], range.low[a]);
  std::vector<std::size_t> outer;
  for (std::size_t s = 0; s < range.settings.size(); ++s) {
    const double x = axis_distance(range, a, range.settings[s][a], range.low[a]);
    if (upward ? x > 0.75 * span : x < 0.25 * span) outer.push_back(s);
  }
  return outer;
}

// The runs of the settings not in `left_out` (RunSettings indices of `distinct`).
models::Runs runs_without(const models::Runs& runs, const RunSettings& distinct,
                          const std::set<std::size_t>& left_out) {
  models::Runs kept = runs;
  kept.runs.clear();
  for (std::size_t r = 0; r < runs.runs.size(); ++r) {
    if (left_out.count(distinct.of_run[r]) == 0) kept.runs.push_back(runs.runs[r]);
  }
  return kept;
}

// The log of the model's mean at a held-out setting with the parameters at `values`; empty
// when it cannot be solved. With `law`, the mean's runtime law's log spread into it.
std::optional<double> log_mean(const MachineInput& input, const models::Runs& runs, std::size_t first,
                               const CalibrationResult& refit, const std::vector<double>& values,
                               const CalibrationOptions& options, double* law) {
  std::vector<std::string> names = runs.variables;
  std::vector<double> all = runs.runs[first].values;
  for (std::size_t i = 0; i < refit.parameters.size(); ++i) {
    names.push_back(refit.parameters[i].name);
    all.push_back(values[i]);
  }
  const Outcome<MachineInput> setting = with_values(input, names, all);
  if (!setting.ok()) return std::nullopt;
  solvers::SeriesParallelOptions solve = options.series_parallel;
  solve.keep_distribution = law != nullptr;
  const Outcome<solvers::Result> solved = solve_approximate(*setting.value, runs.runs[first].p, solve);
  if (!solved.ok() || !(solved.value->mean > 0.0)) return std::nullopt;
  if (law != nullptr) {
    if (!solved.value->distribution) return std::nullopt;
    *law = log_spread(*solved.value->distribution, solved.value->mean);
  }
  return std::log(solved.value->mean);
}

// A held-out setting's error e (the log of its runs' mean over the refit's prediction)
// and the variance v it would have if the model were right: the runs' own spread and the noise
// (the repetitions' spread, else the unexplained spread) over their number, and the refit's
// parameter uncertainty carried to the prediction (the delta method, central differences of the
// log mean in the log parameters). Empty when the setting cannot be solved.
std::optional<std::pair<double, double>> held_out_error(const MachineInput& input, const models::Runs& runs,
                                                        const RunSettings& distinct, std::size_t s,
                                                        const CalibrationResult& refit,
                                                        const CalibrationOptions& options, double noise) {
  const std::size_t first = distinct.first_run[s];
  std::vector<double> values;
  for (const FittedParameter& parameter : refit.parameters) values.push_back(parameter.value);
  double law = 0.0;
  const std::optional<double> predicted = log_mean(input, runs, first, refit, values, options, &law);
  if (!predicted) return std::nullopt;
  double sum = 0.0, n = 0.0;
  for (std::size_t r = 0; r < runs.runs.size(); ++r) {
    if (distinct.of_run[r] != s) continue;
    sum += runs.runs[r].time;
    n += 1.0;
  }
  double variance = (noise * noise + law) / n;
  if (!refit.log_covariance.empty()) {
    constexpr double kStep = 1e-4;  // in the log of a parameter
    std::vector<double> gradient(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
      std::vector<double> up = values, down = values;
      up[i] *= std::exp(kStep);
      down[i] *= std::exp(-kStep);
      const auto above = log_mean(input, runs, first, refit, up, options, nullptr);
      const auto below = log_mean(input, runs, first, refit, down, options, nullptr);
      if (!above || !below) return std::nullopt;
      gradient[i] = (*above - *below) / (2.0 * kStep);
    }
    for (std::size_t i = 0; i < values.size(); ++i) {
      for (std::size_t j = 0; j < values.size(); ++j)
        variance += gradient[i] * refit.log_covariance[i][j] * gradient[j];
    }
  }
  return std::pair{std::log(sum / n) - *predicted, variance};
}

// The split of axis a in one direction: refitted from the fit's values without its outer
// settings, which are then predicted.
RangeSplit split(const MachineInput& input, const models::Runs& runs, const CalibrationOptions& options,
                 const CalibrationResult& fit, const CalibratedRange& range, std::size_t a, bool upward,
                 const std::vector<std::size_t>& outer) {
  RangeSplit result{range.axes[a], upward, outer.size(), std::nullopt, ""};
  const RunSettings distinct = settings_of(runs);
  const std::set<std::size_t> left_out(outer.begin(), outer.end());
  CalibrationOptions refit_options = options;
  refit_options.starts = 1;
  refit_options.estimate_range = false;
  std::vector<double> fitted;
  for (const FittedParameter& parameter : fit.parameters) fitted.push_back(parameter.value);
  const Outcome<MachineInput> start = with_values(input, options.parameters, fitted);
  if (!start.ok()) {
    result.skipped = start.failure->text();
    return result;
  }
  const Outcome<CalibrationResult> refit =
      calibrate(*start.value, runs_without(runs, distinct, left_out), refit_options);
  if (!refit.ok()) {
    result.skipped = refit.failure->text();
    return result;
  }
  double excess = 0.0, squares = 0.0, null_variance = 0.0;
  for (const std::size_t s : outer) {
    const auto error = held_out_error(input, runs, distinct, s, *refit.value, options,
                                      fit.repetition_spread.value_or(fit.unexplained));
    if (!error) {
      result.skipped = "a setting left out could not be predicted";
      return result;
    }
    double nearest = std::numeric_limits<double>::infinity();
    for (std::size_t kept = 0; kept < range.settings.size(); ++kept) {
      if (left_out.count(kept) == 0)
        nearest = std::min(nearest, distance_between(range, range.settings[s], range.settings[kept]));
    }
    excess += error->first * error->first - error->second;
    null_variance += 2.0 * error->second * error->second;
    squares += nearest * nearest;
  }
  // A lack-of-fit test: were the model right, each e^2 - v would have mean 0 and variance 2 v^2
  // (e normal); an excess within two of its standard deviations is noise, and the rate 0.
  result.rate = excess > 2.0 * std::sqrt(null_variance) ? std::sqrt(excess / squares) : 0.0;
  return result;
}

}  // namespace

CalibratedRange estimate_range(const MachineInput& input, const models::Runs& runs, const CalibrationOptions& options,
                               const CalibrationResult& fit) {
  CalibratedRange range = range_of(input, runs, options);
  if (!options.estimate_range) return range;
  std::set<std::vector<std::size_t>> tried;
  for (std::size_t a = 0; a < range.axes.size(); ++a) {
    if (!(range.high[a] > range.low[a])) continue;
    for (const bool upward : {true, false}) {
      const std::vector<std::size_t> outer = outer_settings(range, a, upward);
      // Columns that vary together (rows and columns of a square grid) leave out the same settings.
      if (!tried.insert(outer).second) continue;
      RangeSplit one = split(input, runs, options, fit, range, a, upward, outer);
      if (one.rate) range.rate = std::max(range.rate.value_or(0.0), *one.rate);
      range.splits.push_back(std::move(one));
    }
  }
  return range;
}

}  // namespace detail

}  // namespace analysis
