#include "analysis/calibration_problem.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace analysis::detail {

Predictor::Predictor(const MachineInput& input, const models::Runs& runs, const CalibrationOptions& options)
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

bool Predictor::predict(const double* logs, double* times, double* spreads, bool record) {
  std::vector<double> setting_times(settings_.size()), setting_spreads(settings_.size());
  if (!predict_settings(logs, setting_times.data(), spreads != nullptr ? setting_spreads.data() : nullptr, record)) {
    return false;
  }
  for (std::size_t r = 0; r < runs_.runs.size(); ++r) {
    times[r] = setting_times[distinct_.of_run[r]];
    if (spreads != nullptr) spreads[r] = setting_spreads[distinct_.of_run[r]];
  }
  return true;
}

bool Predictor::predict_settings(const double* logs, double* setting_times, double* setting_spreads, bool record) {
  if (failure_) return false;
  record_ = record;
  std::vector<double> values(options_.parameters.size());
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = std::exp(logs[i]);
  const bool spreads = setting_spreads != nullptr;
  for (std::size_t s = 0; s < settings_.size(); ++s) {
    const models::Run& run = runs_.runs[distinct_.first_run[s]];
    const Outcome<MachineInput> fitted = with_values(settings_[s], options_.parameters, values);
    if (!fitted.ok()) return fail(run, fitted.failure->message);
    solvers::SeriesParallelOptions series_parallel = options_.series_parallel;
    series_parallel.keep_distribution = spreads;
    const Outcome<solvers::Result> solved = solve_approximate(*fitted.value, run.p, series_parallel);
    if (!solved.ok()) return fail(run, solved.failure->text());
    setting_times[s] = solved.value->mean;
    if (spreads) {
      if (!solved.value->distribution) return fail(run, "the model's runtime law could not be kept");
      setting_spreads[s] = log_spread(*solved.value->distribution, setting_times[s]);
    }
  }
  return true;
}

bool Predictor::fail(const models::Run& run, const std::string& why) {
  last_failure_ = fmt::format("the run at p = {}: {}", run.p, why);
  if (record_ && !failure_) failure_ = Failure::of_value(0, last_failure_, run.location);
  return false;
}

SettingSums::SettingSums(const models::Runs& runs, const RunSettings& distinct)
    : a(distinct.first_run.size(), 0.0), b(distinct.first_run.size(), 0.0), m(distinct.first_run.size(), 0.0) {
  for (std::size_t r = 0; r < runs.runs.size(); ++r) {
    const double inverse = 1.0 / runs.runs[r].time;
    a[distinct.of_run[r]] += inverse * inverse;
    b[distinct.of_run[r]] += inverse;
    m[distinct.of_run[r]] += 1.0;
  }
}

double SettingSums::constant(const RunSettings& distinct, const std::vector<double>& deviations) const {
  double sum = 0.0;
  for (std::size_t s = 0; s < a.size(); ++s) {
    const double deviation = deviations[distinct.first_run[s]];
    sum += std::max(m[s] - b[s] * b[s] / a[s], 0.0) / (deviation * deviation);
  }
  return sum;
}

namespace {

// Per setting, its runs' relative residuals (T - time) / time folded into one (SettingSums),
// divided by the setting's standard deviation.
struct RelativeResiduals {
  Predictor* predictor;
  const SettingSums* sums;
  const std::vector<double>* deviations;
  const LogBounds* bounds;
  bool operator()(double const* const* parameters, double* residuals) const {
    // A free parameter's range is kept by refusing the step beyond it (Ceres's bounds, for
    // --fit ranges, cost the fit 60% more iterations).
    // (A ranged one may be evaluated a derivative's step beyond its end: Ceres keeps the steps.)
    for (std::size_t i = 0; i < bounds->lower.size(); ++i) {
      if (bounds->ranged[i]) continue;
      if (!(parameters[0][i] >= bounds->lower[i] - 1e-3 && parameters[0][i] <= bounds->upper[i] + 1e-3)) return false;
    }
    if (!predictor->predict_settings(parameters[0], residuals, nullptr, false)) return false;
    const RunSettings& distinct = predictor->distinct();
    for (std::size_t s = 0; s < sums->a.size(); ++s) {
      const double root = std::sqrt(sums->a[s]);
      residuals[s] = (root * residuals[s] - sums->b[s] / root) / (*deviations)[distinct.first_run[s]];
    }
    return true;
  }
};

// Ends a coarse fit once it is inside a basin already found: every parameter within 1% of it.
class EntersKnownBasin : public ceres::IterationCallback {
 public:
  EntersKnownBasin(const std::vector<double>& at, const std::vector<double>& basin) : at_(at), basin_(basin) {}
  ceres::CallbackReturnType operator()(const ceres::IterationSummary&) override {
    for (std::size_t i = 0; i < at_.size(); ++i) {
      if (!(std::abs(at_[i] - basin_[i]) < 0.01)) return ceres::SOLVER_CONTINUE;
    }
    return ceres::SOLVER_TERMINATE_SUCCESSFULLY;
  }

 private:
  const std::vector<double>& at_;
  const std::vector<double>& basin_;
};

}  // namespace

Fit solve(Predictor& predictor, const SettingSums& sums, const std::vector<double>& deviations,
          const CalibrationOptions& options, const LogBounds& bounds, std::vector<double>& logs, bool coarse,
          const std::vector<double>* known_basin) {
  // A coarse fit takes forward differences: k + 1 evaluations per Jacobian instead of 2k + 1.
  ceres::DynamicCostFunction* cost = nullptr;
  if (coarse) {
    cost = new ceres::DynamicNumericDiffCostFunction<RelativeResiduals, ceres::FORWARD>(
        new RelativeResiduals{&predictor, &sums, &deviations, &bounds});
  } else {
    cost = new ceres::DynamicNumericDiffCostFunction<RelativeResiduals, ceres::CENTRAL>(
        new RelativeResiduals{&predictor, &sums, &deviations, &bounds});
  }
  cost->AddParameterBlock(static_cast<int>(logs.size()));
  cost->SetNumResiduals(static_cast<int>(sums.a.size()));
  Fit fit;
  fit.problem = std::make_unique<ceres::Problem>();
  fit.problem->AddResidualBlock(cost, nullptr, logs.data());
  for (std::size_t i = 0; i < logs.size(); ++i) {
    if (!bounds.ranged[i]) continue;
    fit.problem->SetParameterLowerBound(logs.data(), static_cast<int>(i), bounds.lower[i]);
    fit.problem->SetParameterUpperBound(logs.data(), static_cast<int>(i), bounds.upper[i]);
  }
  ceres::Solver::Options solver;
  solver.max_num_iterations = options.max_iterations;
  solver.linear_solver_type = ceres::DENSE_QR;
  solver.logging_type = ceres::SILENT;
  solver.num_threads = 1;
  if (coarse) {
    // Where the basin is, not its bottom: a better one is fitted again with central differences.
    // (Looser tolerances stop a start whose first steps are all refused: a small enough trust
    // region changes the cost by less than any tolerance.)
    solver.parameter_tolerance = 1e-4;
    solver.max_num_iterations = std::min(options.max_iterations, 50);
  }
  EntersKnownBasin stop(logs, known_basin != nullptr ? *known_basin : logs);
  if (coarse && known_basin != nullptr) {
    solver.update_state_every_iteration = true;
    solver.callbacks.push_back(&stop);
  }
  ceres::Solve(solver, fit.problem.get(), &fit.summary);
  return fit;
}

}  // namespace analysis::detail
