#include "analysis/calibration.hpp"

#include <ceres/ceres.h>
#include <ceres/covariance.h>

#include <cmath>
#include <map>
#include <memory>

#include <fmt/format.h>

#include "models/bind.hpp"
#include "models/machine_constants.hpp"
#include "scaling/approximate_model.hpp"

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

// The approximate model's mean for every run, given the parameters' logarithms.
class Predictor {
 public:
  Predictor(const MachineInput& input, const models::Runs& runs, const CalibrationOptions& options)
      : input_(input), runs_(runs), options_(options) {
    // Which names are the program's (the rest are the machine's), decided once, not per evaluation.
    for (const std::string& name : options_.parameters) fitted_is_variable_.push_back(models::declares_variable(*input_.program, name));
    for (const std::string& name : runs_.variables) column_is_variable_.push_back(models::declares_variable(*input_.program, name));
  }

  // False (with failure()) when a run cannot be bound or solved.
  bool predict(const double* logs, double* times) {
    std::map<std::string, double> fitted_constants;
    std::map<std::string, double> fitted_variables;
    for (std::size_t i = 0; i < options_.parameters.size(); ++i) {
      const std::string& name = options_.parameters[i];
      (fitted_is_variable_[i] ? fitted_variables : fitted_constants)[name] = std::exp(logs[i]);
    }
    for (std::size_t r = 0; r < runs_.runs.size(); ++r) {
      const models::Run& run = runs_.runs[r];
      std::map<std::string, double> values = input_.values;
      std::map<std::string, double> constants = fitted_constants;
      for (std::size_t v = 0; v < runs_.variables.size(); ++v) {
        (column_is_variable_[v] ? values : constants)[runs_.variables[v]] = run.values[v];
      }
      for (const auto& [name, value] : fitted_variables) values[name] = value;
      const models::Machine* machine = &input_.machine;
      std::optional<models::Machine> changed;
      if (!constants.empty()) {
        models::MachineWithConstants with = models::with_constants(input_.machine, constants);
        if (!with.machine) return fail(run, with.error);
        changed = std::move(with.machine);
        machine = &*changed;
      }
      const models::Binding binding = models::bind(*input_.program, *machine, values);
      if (!binding.ok()) return fail(run, binding.errors.front().message());
      try {
        times[r] = solvers::solve_series_parallel(
                       scaling::approximate_model(*input_.program, *machine, binding.environment, static_cast<int>(run.p)),
                       options_.series_parallel)
                       .mean;
      } catch (const std::exception& error) {
        return fail(run, error.what());
      }
      if (!std::isfinite(times[r])) return fail(run, "the model's mean is not finite");
    }
    return true;
  }

  const std::optional<Failure>& failure() const { return failure_; }

 private:
  bool fail(const models::Run& run, const std::string& why) {
    if (!failure_) {
      failure_ = Failure::of_value(0, fmt::format("{}:{}: the run at p = {}: {}", runs_.file, run.location.line, run.p, why),
                                   run.location);
    }
    return false;
  }

  const MachineInput& input_;
  const models::Runs& runs_;
  const CalibrationOptions& options_;
  std::vector<bool> fitted_is_variable_;  // per parameter
  std::vector<bool> column_is_variable_;  // per variable column of the runs
  std::optional<Failure> failure_;
};

// The relative residuals (T - time) / time of every run.
struct RelativeResiduals {
  Predictor* predictor;
  const models::Runs* runs;
  bool operator()(double const* const* parameters, double* residuals) const {
    if (!predictor->predict(parameters[0], residuals)) return false;
    for (std::size_t r = 0; r < runs->runs.size(); ++r) residuals[r] = residuals[r] / runs->runs[r].time - 1.0;
    return true;
  }
};

Outcome<CalibrationResult> refuse(std::string message) {
  Outcome<CalibrationResult> outcome;
  outcome.failure = Failure::of_value(0, std::move(message));
  return outcome;
}

}  // namespace

Outcome<CalibrationResult> calibrate(const MachineInput& input, const models::Runs& runs,
                                     const CalibrationOptions& options) {
  std::string why;
  if (!options.IsValid(&why)) return refuse(why);
  const std::size_t k = options.parameters.size();
  std::vector<double> logs;
  // A variable starts from its value as the input binds it: --set, else its default.
  const models::Binding binding = models::bind(*input.program, input.machine, input.values);
  for (const std::string& name : options.parameters) {
    double start = 0.0;
    if (models::declares_variable(*input.program, name)) {
      const auto bound = binding.ok() ? binding.environment.values.find(name) : binding.environment.values.end();
      if (!binding.ok() || bound == binding.environment.values.end()) {
        return refuse(fmt::format("'{}' has no value to start the fit from: give one with --set", name));
      }
      start = bound->second;
    } else if (models::declares_constant(input.machine, name)) {
      start = input.machine.constants.at(name);
    } else {
      return refuse(fmt::format("'{}' is neither a variable of the program nor a constant of machine '{}'", name,
                                input.machine.name));
    }
    if (!(start > 0.0) || !std::isfinite(start)) {
      return refuse(fmt::format("the fit of '{}' starts from its value, which must be > 0, got {}", name, start));
    }
    logs.push_back(std::log(start));
  }
  if (runs.runs.size() < k + 1) {
    return refuse(fmt::format("{} run(s) cannot determine {} parameter(s) and their errors: give at least {}",
                              runs.runs.size(), k, k + 1));
  }

  Predictor predictor(input, runs, options);
  auto* cost = new ceres::DynamicNumericDiffCostFunction<RelativeResiduals, ceres::CENTRAL>(
      new RelativeResiduals{&predictor, &runs});
  cost->AddParameterBlock(static_cast<int>(k));
  cost->SetNumResiduals(static_cast<int>(runs.runs.size()));
  ceres::Problem problem;
  problem.AddResidualBlock(cost, nullptr, logs.data());
  ceres::Solver::Options solver;
  solver.max_num_iterations = options.max_iterations;
  solver.linear_solver_type = ceres::DENSE_QR;
  solver.logging_type = ceres::SILENT;
  solver.num_threads = 1;
  ceres::Solver::Summary summary;
  ceres::Solve(solver, &problem, &summary);
  if (predictor.failure()) {
    Outcome<CalibrationResult> outcome;
    outcome.failure = predictor.failure();
    return outcome;
  }
  if (!summary.IsSolutionUsable()) return refuse("the fit did not converge: " + summary.message);

  ceres::Covariance::Options covariance_options;
  covariance_options.algorithm_type = ceres::DENSE_SVD;
  ceres::Covariance covariance(covariance_options);
  const std::vector<std::pair<const double*, const double*>> blocks{{logs.data(), logs.data()}};
  if (!covariance.Compute(blocks, &problem)) {
    return refuse("the runs do not determine every parameter (the model's times do not change independently with each): "
                  "fit fewer, or add runs where they matter");
  }
  std::vector<double> inverse(k * k);
  covariance.GetCovarianceBlock(logs.data(), logs.data(), inverse.data());

  CalibrationResult result;
  result.runs = runs.runs.size();
  result.degrees_of_freedom = runs.runs.size() - k;
  const double sse = 2.0 * summary.final_cost;  // Ceres's cost is half the sum of squares
  const double s2 = sse / static_cast<double>(result.degrees_of_freedom);
  result.residual_standard_error = std::sqrt(s2);
  for (std::size_t i = 0; i < k; ++i) {
    const double value = std::exp(logs[i]);
    result.parameters.push_back({options.parameters[i], value, value * std::sqrt(s2 * inverse[i * k + i])});
  }
  result.correlation.assign(k, std::vector<double>(k, 0.0));
  for (std::size_t i = 0; i < k; ++i) {
    for (std::size_t j = 0; j < k; ++j) {
      result.correlation[i][j] = inverse[i * k + j] / std::sqrt(inverse[i * k + i] * inverse[j * k + j]);
    }
  }
  // R^2 on the times themselves.
  std::vector<double> fitted(runs.runs.size());
  predictor.predict(logs.data(), fitted.data());
  double mean = 0.0;
  for (const models::Run& run : runs.runs) mean += run.time;
  mean /= static_cast<double>(runs.runs.size());
  double residual = 0.0, total = 0.0;
  for (std::size_t r = 0; r < runs.runs.size(); ++r) {
    residual += (fitted[r] - runs.runs[r].time) * (fitted[r] - runs.runs[r].time);
    total += (runs.runs[r].time - mean) * (runs.runs[r].time - mean);
  }
  result.r_squared = total > 0.0 ? 1.0 - residual / total : 1.0;
  result.iterations = static_cast<int>(summary.iterations.size());
  result.termination = summary.BriefReport();
  Outcome<CalibrationResult> outcome;
  outcome.value = std::move(result);
  return outcome;
}

}  // namespace analysis
