#include "analysis/run_model.hpp"

#include <cmath>
#include <stdexcept>
#include <exception>
#include <limits>
#include <map>
#include <utility>

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

solvers::Result solve_approximate_tree(const graph::SpTree& tree, const solvers::SeriesParallelOptions& options) {
  solvers::SolverOptions all;
  all.series_parallel = options;
  all.quantiles = options.quantiles;  // make_solver puts these in place of the reduction's own
  all.memory_budget_bytes = std::numeric_limits<std::uint64_t>::max();
  solvers::ScaledModels models;
  models.approximate = &tree;
  return solvers::make_solver(solvers::Method::SeriesParallel, all)->solve(models);
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
    outcome.value = solve_approximate_tree(
        scaling::approximate_model(*input.program, input.machine, binding.environment, static_cast<int>(p)), options);
  } catch (const scaling::ScalingError& error) {
    // A value the model refuses at this setting (a count that is not whole, ...): the input's.
    outcome.failure = Failure::of_value(0, error.what(), error.location());
    return outcome;
  }
  if (!outcome.value->solved()) {
    // A distribution whose support passes the largest double: no finite figure.
    outcome.failure =
        Failure::of_value(0, "the model's figures are not finite (" + outcome.value->unsolved->explanation + ")");
    outcome.value.reset();
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

RunSettings settings_of(const models::Runs& runs) {
  std::map<std::pair<std::int64_t, std::vector<double>>, std::size_t> index;
  RunSettings settings;
  for (std::size_t r = 0; r < runs.runs.size(); ++r) {
    const auto [at, added] = index.try_emplace({runs.runs[r].p, runs.runs[r].values}, settings.first_run.size());
    if (added) settings.first_run.push_back(r);
    settings.of_run.push_back(at->second);
  }
  return settings;
}

}  // namespace analysis
