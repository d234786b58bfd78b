#include "analysis/calibration.hpp"

#include <ceres/ceres.h>
#include <ceres/covariance.h>
#include <glog/logging.h>

#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <mutex>

#include <fmt/format.h>

#include "analysis/run_model.hpp"
#include "models/bind.hpp"
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
  return series_parallel.IsValid(why);
}

namespace {

// The approximate model's mean for every run, given the parameters' logarithms. Runs of one
// setting (the same p and column values: repetitions) share one solve, so that an evaluation
// costs the distinct settings, not the rows.
class Predictor {
 public:
  Predictor(const MachineInput& input, const models::Runs& runs, const CalibrationOptions& options)
      : runs_(runs), options_(options), distinct_(settings_of(runs)) {
    // Each setting is made once, not on every evaluation.
    for (const std::size_t first : distinct_.first_run) {
      const models::Run& run = runs_.runs[first];
      Outcome<MachineInput> setting = with_values(input, runs_.variables, run.values);
      if (!setting.ok()) {
        fail(run, setting.failure->message);
        return;
      }
      settings_.push_back(std::move(*setting.value));
    }
  }

  // False (with failure()) when a run cannot be bound or solved. With `spreads`, also each run's
  // own log spread (log_spread of its runtime law) into it.
  bool predict(const double* logs, double* times, double* spreads = nullptr) {
    if (failure_) return false;
    std::vector<double> values(options_.parameters.size());
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = std::exp(logs[i]);
    std::vector<double> setting_times(settings_.size()), setting_spreads(settings_.size());
    for (std::size_t s = 0; s < settings_.size(); ++s) {
      const models::Run& run = runs_.runs[distinct_.first_run[s]];
      const Outcome<MachineInput> fitted = with_values(settings_[s], options_.parameters, values);
      if (!fitted.ok()) return fail(run, fitted.failure->message);
      solvers::SeriesParallelOptions series_parallel = options_.series_parallel;
      series_parallel.keep_distribution = spreads != nullptr;
      const Outcome<solvers::Result> solved = solve_approximate(*fitted.value, run.p, series_parallel);
      if (!solved.ok()) return fail(run, solved.failure->text());
      setting_times[s] = solved.value->mean;
      if (spreads != nullptr) {
        if (!solved.value->distribution) return fail(run, "the model's runtime law could not be kept");
        setting_spreads[s] = log_spread(*solved.value->distribution, setting_times[s]);
      }
    }
    for (std::size_t r = 0; r < runs_.runs.size(); ++r) {
      times[r] = setting_times[distinct_.of_run[r]];
      if (spreads != nullptr) spreads[r] = setting_spreads[distinct_.of_run[r]];
    }
    return true;
  }

  std::size_t settings() const { return distinct_.first_run.size(); }
  const std::optional<Failure>& failure() const { return failure_; }

 private:
  bool fail(const models::Run& run, const std::string& why) {
    if (!failure_) {
      failure_ = Failure::of_value(0, fmt::format("the run at p = {}: {}", run.p, why), run.location);
    }
    return false;
  }

  const models::Runs& runs_;
  const CalibrationOptions& options_;
  RunSettings distinct_;
  std::vector<MachineInput> settings_;  // per distinct setting: the input with its column values
  std::optional<Failure> failure_;
};

// The relative residuals (T - time) / time of every run, each divided by its standard deviation.
struct RelativeResiduals {
  Predictor* predictor;
  const models::Runs* runs;
  const std::vector<double>* deviations;
  bool operator()(double const* const* parameters, double* residuals) const {
    if (!predictor->predict(parameters[0], residuals)) return false;
    for (std::size_t r = 0; r < runs->runs.size(); ++r) {
      residuals[r] = (residuals[r] / runs->runs[r].time - 1.0) / (*deviations)[r];
    }
    return true;
  }
};

// The u^2 >= 0 where `excess`, a function that falls as u^2 grows, crosses zero: 0 when it is
// not positive at 0, else by doubling out from 10^-12 (up to 10^6) and bisection to a relative
// 10^-12. Both variance estimates below are such zeros.
template <typename Excess>
double zero_from_above(const Excess& excess) {
  if (excess(0.0) <= 0.0) return 0.0;
  double high = 1e-12;
  while (excess(high) > 0.0 && high < 1e6) high *= 4.0;
  double low = 0.0;
  for (int step = 0; step < 200 && high - low > 1e-12 * high; ++step) {
    const double middle = 0.5 * (low + high);
    (excess(middle) > 0.0 ? low : high) = middle;
  }
  return 0.5 * (low + high);
}

// Paule and Mandel's u^2 >= 0: sum of e_r^2 / (v_r + u^2) = degrees of freedom, or 0 when the
// runs' spread v alone accounts for the residuals e (the sum is at most the degrees of freedom
// at u = 0). The sum decreases in u^2.
double unexplained_variance(const std::vector<double>& e, const std::vector<double>& v, double degrees_of_freedom) {
  return zero_from_above([&](double u2) {
    double sum = 0.0;
    for (std::size_t r = 0; r < e.size(); ++r) {
      const double variance = v[r] + u2;
      if (variance > 0.0) {
        sum += e[r] * e[r] / variance;
      } else if (e[r] != 0.0) {
        return std::numeric_limits<double>::infinity();
      }
    }
    return sum - degrees_of_freedom;
  });
}

// The restricted maximum likelihood u^2 >= 0 of log times y_gi = mu_g + e_gi with e_gi normal of
// variance v_g + u^2, over the groups g of repetitions: the zero of
//   sum over g of [S_g / (v_g + u^2)^2 - (m_g - 1) / (v_g + u^2)],
// S_g the squared deviations from the group's mean and m_g its runs; 0 when the derivative is
// not positive at 0. The derivative's sign changes once on the cases that matter (all v_g equal
// gives the pooled S / (m - 1) - v).
double repetition_variance(const std::vector<double>& squares, const std::vector<double>& degrees,
                           const std::vector<double>& v) {
  return zero_from_above([&](double u2) {
    double sum = 0.0;
    for (std::size_t g = 0; g < squares.size(); ++g) {
      const double variance = std::max(v[g] + u2, 1e-300);
      sum += squares[g] / (variance * variance) - degrees[g] / variance;
    }
    return sum;
  });
}

// One Ceres fit of the logs from where they are, each run's residual divided by deviations[r].
struct Fit {
  std::unique_ptr<ceres::Problem> problem;
  ceres::Solver::Summary summary;
};
Fit solve(Predictor& predictor, const models::Runs& runs, const std::vector<double>& deviations,
          const CalibrationOptions& options, std::vector<double>& logs) {
  auto* cost = new ceres::DynamicNumericDiffCostFunction<RelativeResiduals, ceres::CENTRAL>(
      new RelativeResiduals{&predictor, &runs, &deviations});
  cost->AddParameterBlock(static_cast<int>(logs.size()));
  cost->SetNumResiduals(static_cast<int>(runs.runs.size()));
  Fit fit;
  fit.problem = std::make_unique<ceres::Problem>();
  fit.problem->AddResidualBlock(cost, nullptr, logs.data());
  ceres::Solver::Options solver;
  solver.max_num_iterations = options.max_iterations;
  solver.linear_solver_type = ceres::DENSE_QR;
  solver.logging_type = ceres::SILENT;
  solver.num_threads = 1;
  ceres::Solve(solver, fit.problem.get(), &fit.summary);
  return fit;
}

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
    if (!(start > 0.0) || !std::isfinite(start)) {
      return fmt::format("the fit of '{}' starts from its value, which must be > 0, got {}", name, start);
    }
    logs.push_back(std::log(start));
    starts.push_back({name, start, std::nullopt, start, is_constant});
  }
  return std::nullopt;
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
  weights.unexplained = unexplained_variance(weights.log_residuals, weights.spreads, static_cast<double>(n - k));
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

// Stage 1: every run weighs alike. Stage 2 (docs/calibration.md, "Weights"): each run's
// residual divided by the standard deviation its own law and the unexplained spread give it.
// The failure of a run or of a fit, if any.
std::optional<Failure> fit_in_two_stages(Predictor& predictor, const models::Runs& runs,
                                         const CalibrationOptions& options, std::vector<double>& logs,
                                         TwoStageFit& stages) {
  const std::size_t n = runs.runs.size();
  const std::size_t k = options.parameters.size();
  stages.fit = solve(predictor, runs, stages.weights.deviations, options, logs);
  if (predictor.failure()) return predictor.failure();
  if (!stages.fit.summary.IsSolutionUsable()) {
    return Failure::of_value(0, "the fit did not converge: " + stages.fit.summary.message);
  }
  stages.iterations = static_cast<int>(stages.fit.summary.iterations.size());
  if (n > k) {
    if (!weigh(predictor, runs, k, logs, stages.weights)) return predictor.failure();
    stages.fit = solve(predictor, runs, stages.weights.deviations, options, logs);
    stages.iterations += static_cast<int>(stages.fit.summary.iterations.size());
    if (predictor.failure()) return predictor.failure();
    if (!stages.fit.summary.IsSolutionUsable()) {
      return Failure::of_value(0, "the weighted fit did not converge: " + stages.fit.summary.message);
    }
    if (!weigh(predictor, runs, k, logs, stages.weights)) return predictor.failure();
  }
  return std::nullopt;
}

// A parameter pushed off towards 0 or infinity means the model cannot take the runs' shape with
// these parameters free: refused rather than reported as a fit.
std::optional<std::string> runaway_parameter(const CalibrationOptions& options, const std::vector<double>& logs,
                                             const std::vector<FittedParameter>& starts) {
  const std::size_t k = options.parameters.size();
  for (std::size_t i = 0; i < k; ++i) {
    if (!(std::abs(logs[i] - std::log(starts[i].start)) < 230.0)) {
      return fmt::format(
          "the fit drove '{}' towards {} (from {:g}): the model does not fit these runs with {} "
          "free; fit other or more parameters, or check the model against the runs",
          options.parameters[i], logs[i] < std::log(starts[i].start) ? "0" : "infinity", starts[i].start,
          k == 1 ? "it alone" : "these parameters");
    }
  }
  return std::nullopt;
}

// The standard errors, correlations and log covariance of the parameters from the covariance of the
// fit, with s and the unexplained spread; why not when the runs do not determine them.
std::optional<std::string> add_covariance(ceres::Problem& problem, const std::vector<double>& logs,
                                          const CalibrationOptions& options, const models::Runs& runs,
                                          const Weights& weights, CalibrationResult& result) {
  const std::size_t k = options.parameters.size();
  const std::size_t n = runs.runs.size();
  ceres::Covariance::Options covariance_options;
  covariance_options.algorithm_type = ceres::DENSE_SVD;
  ceres::Covariance covariance(covariance_options);
  const std::vector<std::pair<const double*, const double*>> blocks{{logs.data(), logs.data()}};
  if (!covariance.Compute(blocks, &problem)) {
    return "the runs do not determine every parameter (the model's times do not change independently with "
           "each): fit fewer, or add runs where they matter";
  }
  std::vector<double> inverse(k * k);
  covariance.GetCovarianceBlock(logs.data(), logs.data(), inverse.data());
  for (std::size_t i = 0; i < k; ++i) {
    if (!(inverse[i * k + i] > 0.0) || !std::isfinite(inverse[i * k + i])) {
      return fmt::format(
          "the runs do not determine '{}' (the model's times do not change with it at the "
          "fit): fit fewer, or add runs where it matters",
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
  return std::nullopt;
}

// R^2 on the times themselves.
double r_squared(const models::Runs& runs, const std::vector<double>& fitted) {
  double mean = 0.0;
  for (const models::Run& run : runs.runs) mean += run.time;
  mean /= static_cast<double>(runs.runs.size());
  double residual = 0.0, total = 0.0;
  for (std::size_t r = 0; r < runs.runs.size(); ++r) {
    residual += (fitted[r] - runs.runs[r].time) * (fitted[r] - runs.runs[r].time);
    total += (runs.runs[r].time - mean) * (runs.runs[r].time - mean);
  }
  return total > 0.0 ? 1.0 - residual / total : 1.0;
}

// The repetition spread and the settings it comes from, when there are repetitions and degrees of
// freedom; `spreads` are the runs' own log spreads.
void add_repetitions(const models::Runs& runs, const std::vector<double>& spreads, std::size_t k,
                     CalibrationResult& result) {
  const std::size_t n = runs.runs.size();
  // Repetitions: the runs grouped by setting (p and column values), in order of appearance.
  std::vector<double> squares, degrees, group_spreads;
  std::vector<bool> grouped(n, false);
  for (std::size_t r = 0; r < n && n > k; ++r) {
    if (grouped[r]) continue;
    std::vector<double> logs_of_group;
    for (std::size_t q = r; q < n; ++q) {
      if (runs.runs[q].p == runs.runs[r].p && runs.runs[q].values == runs.runs[r].values) {
        grouped[q] = true;
        logs_of_group.push_back(std::log(runs.runs[q].time));
      }
    }
    if (logs_of_group.size() < 2) continue;
    double mean_log = 0.0;
    for (const double y : logs_of_group) mean_log += y;
    mean_log /= static_cast<double>(logs_of_group.size());
    double sum = 0.0;
    for (const double y : logs_of_group) sum += (y - mean_log) * (y - mean_log);
    squares.push_back(sum);
    degrees.push_back(static_cast<double>(logs_of_group.size() - 1));
    group_spreads.push_back(spreads[r]);
  }
  if (!squares.empty()) {
    result.repeated_settings = squares.size();
    result.repetition_spread = std::sqrt(repetition_variance(squares, degrees, group_spreads));
  }
}

// A parameter the model's time does not depend on at any run's setting at `logs` (doubling it
// changes no prediction): the runs cannot determine it, and the fit would report it at its start
// with a made-up precision. Its refusal, or the predictor's failure, or nothing.
std::optional<Failure> inert_parameter(Predictor& predictor, std::size_t runs, const CalibrationOptions& options,
                                       std::vector<double> logs) {
  std::vector<double> at_start(runs), moved(runs);
  if (!predictor.predict(logs.data(), at_start.data())) return predictor.failure();
  for (std::size_t i = 0; i < logs.size(); ++i) {
    logs[i] += std::log(2.0);
    if (!predictor.predict(logs.data(), moved.data())) return predictor.failure();
    logs[i] -= std::log(2.0);
    if (moved == at_start) {
      return Failure::of_value(
          0, fmt::format("the model's time does not depend on '{}' at any run's setting with the fitted values "
                         "(doubling it changes no prediction): the runs cannot determine it; fit "
                         "the names the model uses, or start the others nearer the runs (--set)",
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
  TwoStageFit stages(runs.runs.size());
  if (auto failure = fit_in_two_stages(predictor, runs, options, logs, stages)) return refused(std::move(*failure));
  if (const auto refusal = runaway_parameter(options, logs, starts)) return refuse(*refusal);
  // At the fit, where every name has its say (from a far-off start one may drown in another).
  if (auto inert = inert_parameter(predictor, runs.runs.size(), options, logs)) return refused(std::move(*inert));

  CalibrationResult result;
  result.runs = runs.runs.size();
  result.degrees_of_freedom = runs.runs.size() - k;
  result.parameters = std::move(starts);
  for (std::size_t i = 0; i < k; ++i) result.parameters[i].value = std::exp(logs[i]);
  if (result.degrees_of_freedom > 0) {
    if (const auto refusal = add_covariance(*stages.fit.problem, logs, options, runs, stages.weights, result)) {
      return refuse(*refusal);
    }
  }
  std::vector<double> fitted(runs.runs.size());
  if (!predictor.predict(logs.data(), fitted.data())) return refused(*predictor.failure());
  result.r_squared = r_squared(runs, fitted);
  add_repetitions(runs, stages.weights.spreads, k, result);
  result.fitted = std::move(fitted);
  result.iterations = stages.iterations;
  result.termination = stages.fit.summary.BriefReport();
  Outcome<CalibrationResult> outcome;
  outcome.value = std::move(result);
  return outcome;
}

}  // namespace analysis
