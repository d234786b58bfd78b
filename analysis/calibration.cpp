#include "analysis/calibration.hpp"

#include <ceres/ceres.h>
#include <ceres/covariance.h>
#include <glog/logging.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <mutex>

#include <fmt/format.h>

#include "analysis/calibration_problem.hpp"
#include "analysis/calibration_statistics.hpp"
#include "analysis/run_model.hpp"
#include "models/bind.hpp"
#include "models/limits.hpp"
#include "models/machine_constants.hpp"

namespace analysis {

bool CalibrationOptions::IsValid(std::string* why) const {
  auto fail = [&](std::string message) {
    if (why != nullptr) *why = std::move(message);
    return false;
  };
  if (parameters.empty()) return fail("no parameter to fit");
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (parameters[i] == parameters[j]) return fail("the parameter '" + parameters[i] + "' is named twice");
    }
  }
  if (max_iterations < 1 || max_iterations > 10000) return fail("the iterations must be in [1, 10000]");
  if (starts < 1 || starts > 9) return fail("the starts must be in [1, 9]");
  for (const auto& [name, range] : ranges) {
    if (std::find(parameters.begin(), parameters.end(), name) == parameters.end()) {
      return fail("a range is given for '" + name + "', which is not fitted");
    }
    if (!(range.lower > 0.0) || !(range.upper > range.lower) || !std::isfinite(range.upper)) {
      return fail(
          fmt::format("--fit {}={:g}..{:g}: a range is 0 < LOW < HIGH, both finite", name, range.lower, range.upper));
    }
  }
  return series_parallel.IsValid(why);
}

namespace {

using detail::Fit;
using detail::LogBounds;
using detail::Predictor;
using detail::SettingSums;
using detail::solve;

Outcome<CalibrationResult> refuse(std::string message) {
  Outcome<CalibrationResult> outcome;
  outcome.failure = Failure::of_value(0, std::move(message));
  return outcome;
}

Outcome<CalibrationResult> refused(Failure failure) {
  Outcome<CalibrationResult> outcome;
  outcome.failure = std::move(failure);
  return outcome;
}

// Each parameter's starting value and its logarithm, where the fit starts; why not when a name is
// not declared or its value is not > 0.
std::optional<std::string> start_from_input(const MachineInput& input, const CalibrationOptions& options,
                                            std::vector<double>& logs, std::vector<FittedParameter>& starts) {
  // A variable starts from its value as the input binds it: --set, else its default.
  const models::Binding binding = models::bind(*input.program, input.machine, input.values);
  for (const std::string& name : options.parameters) {
    double start = 0.0;
    const bool is_constant = !models::declares_variable(*input.program, name);
    if (models::declares_variable(*input.program, name)) {
      const auto bound = binding.ok() ? binding.environment.values.find(name) : binding.environment.values.end();
      if (!binding.ok() || bound == binding.environment.values.end()) {
        return fmt::format("'{}' has no value to start the fit from: give one with --set", name);
      }
      start = bound->second;
    } else if (models::declares_constant(input.machine, name)) {
      start = input.machine.constants.at(name);
    } else {
      return fmt::format("'{}' is neither a variable of the program nor a constant of machine '{}'", name,
                         input.machine.name);
    }
    const auto range = options.ranges.find(name);
    if (range != options.ranges.end()) {
      // A range gives a start where the input has none, and holds the input's within it.
      const ParameterRange& r = range->second;
      start = start > 0.0 && std::isfinite(start) ? std::clamp(start, r.lower, r.upper) : std::sqrt(r.lower * r.upper);
    }
    if (!(start > 0.0) || !std::isfinite(start)) {
      return fmt::format(
          "the fit of '{}' starts from its value, which must be > 0, got {}: give a start with --set, "
          "or a range with --fit {}=LOW..HIGH",
          name, start, name);
    }
    logs.push_back(std::log(start));
    FittedParameter parameter{name, start, std::nullopt, start, is_constant};
    if (range != options.ranges.end()) parameter.range = range->second;
    starts.push_back(std::move(parameter));
  }
  return std::nullopt;
}

// The logarithms each parameter keeps within: its --fit range, else a factor kFreeRange either
// side of its start, within the model's [1e-100, 1e100].
LogBounds log_bounds(const std::vector<FittedParameter>& parameters) {
  LogBounds bounds;
  for (const FittedParameter& parameter : parameters) {
    const double lower = parameter.range ? parameter.range->lower : parameter.start / kFreeRange;
    const double upper = parameter.range ? parameter.range->upper : parameter.start * kFreeRange;
    bounds.lower.push_back(std::log(std::max(lower, models::kSmallestMagnitude)));
    bounds.upper.push_back(std::log(std::min(upper, models::kLargestMagnitude)));
    bounds.ranged.push_back(parameter.range.has_value());
  }
  return bounds;
}

// Stage 1's starts: the input's values, then count - 1 others, each parameter on a pattern of
// its own (shifted by its index) so that the starts spread in every direction: a free one
// 10^d times its start, d in kDecades; a ranged one at the shares kShares of its range's logs.
std::vector<std::vector<double>> start_points(const std::vector<double>& first, const LogBounds& bounds,
                                              const std::vector<FittedParameter>& parameters, int count) {
  static constexpr double kDecades[] = {-2, 2, -1, 1, -3, 3, -4, 4};
  static constexpr double kShares[] = {0.1, 0.9, 0.3, 0.7, 0.03, 0.97, 0.5, 0.2};
  std::vector<std::vector<double>> points{first};
  for (int j = 1; j < count; ++j) {
    std::vector<double> point = first;
    for (std::size_t i = 0; i < point.size(); ++i) {
      const std::size_t pattern = (static_cast<std::size_t>(j) - 1 + i) % std::size(kDecades);
      point[i] = parameters[i].range
                     ? bounds.lower[i] + kShares[pattern] * (bounds.upper[i] - bounds.lower[i])
                     : std::clamp(first[i] + kDecades[pattern] * std::log(10.0), bounds.lower[i], bounds.upper[i]);
    }
    points.push_back(std::move(point));
  }
  return points;
}

// Per run: the standard deviation its residual is divided by, and what it comes from.
struct Weights {
  explicit Weights(std::size_t runs) : deviations(runs, 1.0), times(runs), spreads(runs, 0.0), log_residuals(runs) {}
  std::vector<double> deviations, times, spreads, log_residuals;
  double unexplained = 0.0;
};

// The weights at the fit `logs`; false (with the predictor's failure) when a run cannot be solved.
bool weigh(Predictor& predictor, const models::Runs& runs, std::size_t k, const std::vector<double>& logs,
           Weights& weights) {
  const std::size_t n = runs.runs.size();
  if (!predictor.predict(logs.data(), weights.times.data(), weights.spreads.data())) return false;
  for (std::size_t r = 0; r < n; ++r) weights.log_residuals[r] = std::log(runs.runs[r].time / weights.times[r]);
  weights.unexplained =
      detail::unexplained_variance(weights.log_residuals, weights.spreads, static_cast<double>(n - k));
  // A floor keeps runs that fit to the last digit from weighing infinitely.
  for (std::size_t r = 0; r < n; ++r) {
    weights.deviations[r] = std::sqrt(std::max(weights.spreads[r] + weights.unexplained, 1e-30));
  }
  return true;
}

// The last fit with the weights of both stages. Neither copied nor moved: the fit's problem reads
// weights.deviations at its address (the covariance evaluates it again with the last weights).
struct TwoStageFit {
  explicit TwoStageFit(std::size_t runs) : weights(runs) {}
  TwoStageFit(const TwoStageFit&) = delete;
  TwoStageFit& operator=(const TwoStageFit&) = delete;
  Weights weights;
  Fit fit;
  int iterations = 0;
};

// What stage 1 shares between its starts: the problem's pieces and the tally.
struct StageOne {
  Predictor& predictor;
  const SettingSums& sums;
  const CalibrationOptions& options;
  const LogBounds& bounds;
  TwoStageFit& stages;
};

// The fit from one start into `outcome` (its end and cost, or why none), and the fit itself.
std::optional<Fit> fit_from(StageOne& one, const std::vector<double>& point, bool coarse, StartOutcome& outcome,
                            std::vector<double>& at, const std::vector<double>* known_basin = nullptr) {
  std::vector<double> times(one.sums.a.size());
  if (!one.predictor.predict_settings(point.data(), times.data(), nullptr, false)) {
    outcome.failure = one.predictor.last_failure();
    return std::nullopt;
  }
  at = point;
  Fit fit =
      solve(one.predictor, one.sums, one.stages.weights.deviations, one.options, one.bounds, at, coarse, known_basin);
  one.stages.iterations += static_cast<int>(fit.summary.iterations.size());
  if (!fit.summary.IsSolutionUsable()) {
    outcome.failure = "the fit did not converge: " + fit.summary.message;
    return std::nullopt;
  }
  outcome.values.clear();
  for (const double log : at) outcome.values.push_back(std::exp(log));
  // Ceres's cost is half the folded residuals' squares: the runs' own sum of squares is that plus
  // the terms the folding leaves out (SettingSums).
  outcome.cost =
      fit.summary.final_cost + 0.5 * one.sums.constant(one.predictor.distinct(), one.stages.weights.deviations);
  return fit;
}

// Stage 1 (docs/calibration.md, "Starts"): every run weighs alike; a fit from the input's values,
// then a coarse one (looser tolerances) from each other start, looking for a better basin; where
// one is better it is fitted again to the full tolerance. The best is kept in `stages` and
// `logs`; each start's outcome goes into `outcomes`. A failure when no start gives a fit: the run
// the input's own start cannot solve (at its row), or why the fits did not converge.
std::optional<Failure> stage_one(StageOne one, const std::vector<std::vector<double>>& points,
                                 std::vector<double>& logs, std::vector<StartOutcome>& outcomes) {
  std::optional<std::size_t> best;
  std::vector<double> at;
  for (std::size_t j = 0; j < points.size(); ++j) {
    StartOutcome& outcome = outcomes.emplace_back();
    for (const double log : points[j]) outcome.start.push_back(std::exp(log));
    std::optional<Fit> fit = fit_from(one, points[j], j > 0, outcome, at, best ? &logs : nullptr);
    if (!fit) continue;
    // A better basin lowers the cost by more than the coarse fit's tolerance.
    if (j > 0 && best && !(outcome.cost < outcomes[*best].cost * (1.0 - 1e-3))) continue;
    if (j > 0) fit = fit_from(one, std::vector<double>(at), false, outcome, at);  // polished
    if (!fit) continue;
    best = j;
    one.stages.fit = std::move(*fit);
    logs = at;
  }
  if (!best) {
    std::vector<double> times(one.sums.a.size());
    if (!one.predictor.predict_settings(points.front().data(), times.data(), nullptr, true)) {
      return one.predictor.failure();
    }
    return Failure::of_request("--fit: no start gave a fit (the input's: " + outcomes.front().failure + ")");
  }
  outcomes[*best].best = true;
  for (StartOutcome& outcome : outcomes) {
    // Every value within 1% of the best's: the same fit, for a user (a coarse fit stops a little
    // short of the optimum).
    outcome.same_fit = !outcome.values.empty();
    for (std::size_t i = 0; i < outcome.values.size(); ++i) {
      outcome.same_fit &= std::abs(std::log(outcome.values[i] / outcomes[*best].values[i])) < 0.01;
    }
  }
  return std::nullopt;
}

// Stage 2 (docs/calibration.md, "Weights"): from stage 1's best, each run's residual divided by
// the standard deviation its own law and the unexplained spread give it. The failure of a run or
// of the fit, if any.
std::optional<Failure> stage_two(Predictor& predictor, const models::Runs& runs, const SettingSums& sums,
                                 const CalibrationOptions& options, const LogBounds& bounds, std::vector<double>& logs,
                                 TwoStageFit& stages) {
  const std::size_t n = runs.runs.size();
  const std::size_t k = options.parameters.size();
  if (n <= k) return std::nullopt;
  if (!weigh(predictor, runs, k, logs, stages.weights)) return predictor.failure();
  stages.fit = solve(predictor, sums, stages.weights.deviations, options, bounds, logs);
  stages.iterations += static_cast<int>(stages.fit.summary.iterations.size());
  if (predictor.failure()) return predictor.failure();
  if (!stages.fit.summary.IsSolutionUsable()) {
    return Failure::of_request("--fit: the weighted fit did not converge: " + stages.fit.summary.message);
  }
  if (!weigh(predictor, runs, k, logs, stages.weights)) return predictor.failure();
  return std::nullopt;
}

// The largest relative change of a run's model time when parameter i doubles (0: none at all);
// empty when a run cannot be solved there (with `record`, the predictor's failure says why).
std::optional<double> change_on_doubling(Predictor& predictor, std::size_t runs, std::vector<double> logs,
                                         std::size_t i, bool record) {
  std::vector<double> at(runs), doubled(runs);
  if (!predictor.predict(logs.data(), at.data(), nullptr, record)) return std::nullopt;
  logs[i] += std::log(2.0);
  if (!predictor.predict(logs.data(), doubled.data(), nullptr, record)) return std::nullopt;
  double largest = 0.0;
  for (std::size_t r = 0; r < runs; ++r) {
    if (doubled[r] != at[r]) largest = std::max(largest, std::abs(doubled[r] - at[r]) / std::abs(at[r]));
  }
  return largest;
}

// A free parameter ran off when it ended more than kDivergedBeyond above every start, or more
// than a factor 1,000 below every start where it no longer matters: the runs do not hold it.
// Refused with what would pin it. A ranged one that stopped at an end is marked.
std::optional<Failure> diverged_parameter(Predictor& predictor, std::size_t runs, const std::vector<double>& logs,
                                          const std::vector<StartOutcome>& outcomes, const LogBounds& bounds,
                                          std::vector<FittedParameter>& parameters) {
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    FittedParameter& parameter = parameters[i];
    if (parameter.range) {
      const auto near = [&](double end) { return std::abs(logs[i] - end) <= 1e-9 * std::max(1.0, std::abs(end)); };
      parameter.at_end = near(bounds.lower[i]) ? -1 : near(bounds.upper[i]) ? 1 : 0;
      continue;
    }
    std::string starts;
    double lowest = std::numeric_limits<double>::infinity(), highest = 0.0;
    for (const StartOutcome& outcome : outcomes) {
      lowest = std::min(lowest, outcome.start[i]);
      highest = std::max(highest, outcome.start[i]);
      starts += fmt::format("{}{:g}", starts.empty() ? "" : ", ", outcome.start[i]);
    }
    const double value = std::exp(logs[i]);
    const bool up = value > highest * kDivergedBeyond;
    const auto change = value < lowest / 1e3 ? change_on_doubling(predictor, runs, logs, i, false) : std::nullopt;
    const bool down = change && *change <= 1e-6;  // it no longer matters
    if (!up && !down) continue;
    return Failure::of_request(fmt::format(
        "--fit {0}: the fit diverged: '{0}' ran off towards {1} (to {2:.3g}) from every start ({3}): the runs do not "
        "hold it; pin it: fix it (--set {0}=VALUE, and leave it out of --fit), bound it (--fit {0}=LOW..HIGH), or add "
        "runs at settings where it matters",
        parameter.name, down ? "0" : "infinity", std::exp(logs[i]), starts));
  }
  return std::nullopt;
}

// Beyond it two fitted parameters are one combination as far as the runs can tell.
constexpr double kUnidentifiedCorrelation = 0.9999;

// The standard errors, correlations and log covariance of the parameters from the covariance of the
// fit, with s and the unexplained spread; why not when the runs do not determine them.
std::optional<std::string> add_covariance(ceres::Problem& problem, const std::vector<double>& logs,
                                          const CalibrationOptions& options, const models::Runs& runs,
                                          const Weights& weights, CalibrationResult& result) {
  const std::size_t k = options.parameters.size();
  const std::size_t n = runs.runs.size();
  ceres::Covariance::Options covariance_options;
  covariance_options.algorithm_type = ceres::DENSE_SVD;
  // The pseudo-inverse where J^T J is singular: two parameters the runs see only together then
  // show as a correlation of +-1, which names them (below), rather than a bare refusal.
  covariance_options.null_space_rank = -1;
  ceres::Covariance covariance(covariance_options);
  const std::vector<std::pair<const double*, const double*>> blocks{{logs.data(), logs.data()}};
  if (!covariance.Compute(blocks, &problem)) {
    return "--fit: the runs do not determine every parameter (the model's times do not change independently "
           "with each): fit fewer, or add runs where they matter";
  }
  std::vector<double> inverse(k * k);
  covariance.GetCovarianceBlock(logs.data(), logs.data(), inverse.data());
  for (std::size_t i = 0; i < k; ++i) {
    if (!(inverse[i * k + i] > 0.0) || !std::isfinite(inverse[i * k + i])) {
      return fmt::format(
          "--fit {0}: the runs do not determine '{0}' (the model's times do not change with it at the "
          "fit): fix it (--set), or add runs where it matters",
          options.parameters[i]);
    }
  }
  // The residuals are divided by their standard deviations, so (J^T J)^-1 is the covariance
  // itself, without the usual factor s^2.
  const double s2 = 1.0;
  double squares = 0.0;
  for (std::size_t r = 0; r < n; ++r)
    squares += (weights.times[r] / runs.runs[r].time - 1.0) * (weights.times[r] / runs.runs[r].time - 1.0);
  result.residual_standard_error = std::sqrt(squares / static_cast<double>(result.degrees_of_freedom));
  result.unexplained = std::sqrt(weights.unexplained);
  result.correlation.assign(k, std::vector<double>(k, 0.0));
  result.log_covariance.assign(k, std::vector<double>(k, 0.0));
  for (std::size_t i = 0; i < k; ++i) {
    result.parameters[i].standard_error = result.parameters[i].value * std::sqrt(s2 * inverse[i * k + i]);
    for (std::size_t j = 0; j < k; ++j) {
      result.log_covariance[i][j] = s2 * inverse[i * k + j];
      result.correlation[i][j] = inverse[i * k + j] / std::sqrt(inverse[i * k + i] * inverse[j * k + j]);
    }
  }
  // Two parameters the runs see only together (their product, their sum): each has an error bar,
  // but any value of one is matched by the other.
  for (std::size_t i = 0; i < k; ++i) {
    for (std::size_t j = i + 1; j < k; ++j) {
      if (std::abs(result.correlation[i][j]) > kUnidentifiedCorrelation) {
        return fmt::format(
            "--fit {0},{1}: the runs do not tell '{0}' from '{1}' (correlation {2:.6f} at the fit): they see "
            "only a combination of the two; fix one (--set), or add runs at settings where they act differently",
            options.parameters[i], options.parameters[j], result.correlation[i][j]);
      }
    }
  }
  return std::nullopt;
}

// A parameter the model's time does not depend on at any run's setting at `logs` (doubling it
// changes no prediction): the runs cannot determine it, and the fit would report it at its start
// with a made-up precision. Its refusal, or the predictor's failure, or nothing.
std::optional<Failure> inert_parameter(Predictor& predictor, std::size_t runs, const CalibrationOptions& options,
                                       const std::vector<double>& logs) {
  for (std::size_t i = 0; i < logs.size(); ++i) {
    const std::optional<double> change = change_on_doubling(predictor, runs, logs, i, true);
    if (!change) return predictor.failure();
    if (*change == 0.0) {
      return Failure::of_request(fmt::format(
          "--fit {0}: the model's time does not depend on '{0}' at any run's setting with the fitted values "
          "(doubling it changes no prediction): the runs cannot determine it; fit the names the model uses, "
          "or start the others nearer the runs (--set)",
          options.parameters[i]));
    }
  }
  return std::nullopt;
}

// Ceres reports through glog: a fit or covariance that fails is refused here with its own
// message, so glog's lines (and its warning that it was never initialised) would only be noise
// around it on stderr.
void silence_ceres_logging() {
  static std::once_flag once;
  std::call_once(once, [] { FLAGS_minloglevel = google::GLOG_FATAL; });
}

// Both stages from the starts into `stages`, `logs` and `outcomes`, then the checks a fit must
// pass: no parameter ran off, and each matters at the fit. The failure, if any. The last fit's
// problem reads `sums` and `bounds`: they must outlive `stages`.
std::optional<Failure> fit_and_check(Predictor& predictor, const models::Runs& runs, const CalibrationOptions& options,
                                     const SettingSums& sums, const LogBounds& bounds, std::vector<double>& logs,
                                     std::vector<FittedParameter>& starts, TwoStageFit& stages,
                                     std::vector<StartOutcome>& outcomes) {
  const auto points = start_points(logs, bounds, starts, options.starts);
  if (auto failure = stage_one({predictor, sums, options, bounds, stages}, points, logs, outcomes)) return failure;
  if (auto failure = stage_two(predictor, runs, sums, options, bounds, logs, stages)) return failure;
  if (auto failure = diverged_parameter(predictor, runs.runs.size(), logs, outcomes, bounds, starts)) return failure;
  // At the fit, where every name has its say (from a far-off start one may drown in another).
  return inert_parameter(predictor, runs.runs.size(), options, logs);
}

}  // namespace

Outcome<CalibrationResult> calibrate(const MachineInput& input, const models::Runs& runs,
                                     const CalibrationOptions& options) {
  silence_ceres_logging();
  std::string why;
  if (!options.IsValid(&why)) return refuse(why);
  const std::size_t k = options.parameters.size();
  std::vector<double> logs;
  std::vector<FittedParameter> starts;
  if (const auto refusal = start_from_input(input, options, logs, starts)) return refuse(*refusal);
  if (runs.runs.size() < k) {
    return refuse(
        fmt::format("{} run(s) cannot determine {} parameter(s): give at least {} (and {} for their standard "
                    "errors)",
                    runs.runs.size(), k, k, k + 1));
  }

  Predictor predictor(input, runs, options);
  if (!predictor.failure() && predictor.settings() < k) {
    // Repetitions of one setting measure its noise, not how the time depends on the parameters.
    return refuse(fmt::format(
        "{} distinct setting(s) (p and column values) cannot determine {} parameter(s): give runs at {} or more "
        "settings",
        predictor.settings(), k, k));
  }
  const SettingSums sums(runs, predictor.distinct());
  const LogBounds bounds = log_bounds(starts);
  TwoStageFit stages(runs.runs.size());
  std::vector<StartOutcome> outcomes;
  if (auto failure = fit_and_check(predictor, runs, options, sums, bounds, logs, starts, stages, outcomes)) {
    return refused(std::move(*failure));
  }

  CalibrationResult result;
  result.runs = runs.runs.size();
  result.degrees_of_freedom = runs.runs.size() - k;
  result.parameters = std::move(starts);
  for (std::size_t i = 0; i < k; ++i) result.parameters[i].value = std::exp(logs[i]);
  if (result.degrees_of_freedom > 0) {
    if (const auto refusal = add_covariance(*stages.fit.problem, logs, options, runs, stages.weights, result)) {
      return refused(Failure::of_request(*refusal));
    }
  }
  std::vector<double> fitted(runs.runs.size());
  if (!predictor.predict(logs.data(), fitted.data())) return refused(*predictor.failure());
  result.r_squared = detail::r_squared(runs, fitted);
  detail::add_repetitions(runs, stages.weights.spreads, k, result);
  result.fitted = std::move(fitted);
  result.iterations = stages.iterations;
  result.starts = std::move(outcomes);
  result.termination = stages.fit.summary.BriefReport();
  result.range = detail::estimate_range(input, runs, options, result);
  Outcome<CalibrationResult> outcome;
  outcome.value = std::move(result);
  return outcome;
}

}  // namespace analysis
