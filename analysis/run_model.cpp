#include "analysis/run_model.hpp"

#include <cmath>
#include <stdexcept>
#include <exception>
#include <map>

#include "models/bind.hpp"
#include "models/machine_constants.hpp"
#include "scaling/approximate_model.hpp"

namespace analysis {

Outcome<MachineInput> with_values(const MachineInput& input, const std::vector<std::string>& names,
                                  const std::vector<double>& values) {
  Outcome<MachineInput> outcome;
  MachineInput changed = input;
  std::map<std::string, double> constants;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (models::declares_variable(*input.program, names[i])) {
      changed.values[names[i]] = values[i];
    } else {
      constants[names[i]] = values[i];
    }
  }
  if (!constants.empty()) {
    models::MachineWithConstants with = models::with_constants(input.machine, constants);
    if (!with.machine) {
      outcome.failure = Failure::of_value(0, with.error);
      return outcome;
    }
    changed.machine = std::move(*with.machine);
  }
  outcome.value = std::move(changed);
  return outcome;
}

Outcome<solvers::Result> solve_approximate(const MachineInput& input, std::int64_t p,
                                           const solvers::SeriesParallelOptions& options) {
  Outcome<solvers::Result> outcome;
  const models::Binding binding = models::bind(*input.program, input.machine, input.values);
  if (!binding.ok()) {
    outcome.failure = Failure::of_binding(0, binding.errors.front());
    return outcome;
  }
  try {
    outcome.value = solvers::solve_series_parallel(
        scaling::approximate_model(*input.program, input.machine, binding.environment, static_cast<int>(p)), options);
  } catch (const scaling::ScalingError& error) {
    // A value the model refuses at this setting (a count that is not whole, ...): the input's.
    outcome.failure = Failure::of_value(0, error.what(), error.location());
    return outcome;
  } catch (const std::overflow_error& error) {
    // A distribution whose support passes the largest double: no finite figure.
    outcome.failure = Failure::of_value(0, std::string("the model's figures are not finite (") + error.what() + ")");
    return outcome;
  }
  if (!std::isfinite(outcome.value->mean)) {
    outcome.value.reset();
    outcome.failure = Failure::of_value(0, "the model's mean is not finite");
  }
  return outcome;
}

double log_spread(const distributions::Distribution& d, double mean) {
  constexpr int kPoints = 200;
  const distributions::CdfTable law(d);
  double sum = 0.0;
  for (int j = 0; j < kPoints; ++j) {
    const double x = law.quantile((j + 0.5) / kPoints);
    if (x > 0.0 && mean > 0.0) sum += std::log(x / mean) * std::log(x / mean);
  }
  return sum / kPoints;
}

}  // namespace analysis
