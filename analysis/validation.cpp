#include "analysis/validation.hpp"

#include <cmath>
#include <fmt/format.h>

#include "analysis/run_model.hpp"

namespace analysis {

Outcome<std::vector<ValidatedRun>> validate_runs(const MachineInput& input, const models::Runs& runs,
                                                 const ParameterUncertainty& uncertainty,
                                                 const PredictionIntervalOptions& options) {
  Outcome<std::vector<ValidatedRun>> outcome;
  // Each distinct setting predicted once, in the order of its first run.
  const RunSettings distinct = settings_of(runs);
  std::vector<PredictionInterval> predictions;
  for (const std::size_t first : distinct.first_run) {
    const models::Run& run = runs.runs[first];
    const Outcome<MachineInput> setting = with_values(input, runs.variables, run.values);
    Outcome<PredictionInterval> prediction =
        setting.ok() ? predict_interval(*setting.value, run.p, uncertainty, options, setting_stream(run.p, run.values))
                     : Outcome<PredictionInterval>{std::nullopt, setting.failure};
    if (!prediction.ok()) {
      outcome.failure =
          Failure::of_value(0, fmt::format("the run at p = {}: {}", run.p, prediction.failure->text()), run.location);
      return outcome;
    }
    predictions.push_back(*prediction.value);
  }
  std::vector<ValidatedRun> validated;
  for (std::size_t r = 0; r < runs.runs.size(); ++r) {
    const models::Run& run = runs.runs[r];
    ValidatedRun one;
    one.run = run;
    one.prediction = predictions[distinct.of_run[r]];
    one.error = (one.prediction.mean - run.time) / run.time;
    one.inside = run.time >= one.prediction.low && run.time <= one.prediction.high;
    validated.push_back(std::move(one));
  }
  outcome.value = std::move(validated);
  return outcome;
}

ValidationSummary summarize(const std::vector<ValidatedRun>& runs) {
  ValidationSummary summary;
  summary.runs = runs.size();
  if (runs.empty()) return summary;
  double lower_ratios = 0.0, upper_ratios = 0.0;
  for (const ValidatedRun& run : runs) {
    const double size = std::abs(run.error);
    summary.mean_absolute_error += size;
    summary.mean_signed_error += run.error;
    summary.largest_absolute_error = std::max(summary.largest_absolute_error, size);
    summary.within_10 += size <= 0.10 ? 1.0 : 0.0;
    summary.within_20 += size <= 0.20 ? 1.0 : 0.0;
    summary.within_40 += size <= 0.40 ? 1.0 : 0.0;
    summary.inside += run.inside ? 1 : 0;
    if (run.prediction.placement && run.prediction.placement->extrapolated()) {
      ++summary.extrapolated;
      summary.extrapolated_inside += run.inside ? 1 : 0;
    }
    if (run.lower_bound && run.upper_bound) {
      ++summary.bounded;
      lower_ratios += *run.lower_bound / run.run.time;
      upper_ratios += *run.upper_bound / run.run.time;
    }
  }
  const auto n = static_cast<double>(runs.size());
  summary.mean_absolute_error /= n;
  summary.mean_signed_error /= n;
  summary.within_10 /= n;
  summary.within_20 /= n;
  summary.within_40 /= n;
  summary.coverage = static_cast<double>(summary.inside) / n;
  if (summary.bounded > 0) {
    summary.mean_ratio_lower = lower_ratios / static_cast<double>(summary.bounded);
    summary.mean_ratio_upper = upper_ratios / static_cast<double>(summary.bounded);
  }
  return summary;
}

}  // namespace analysis
