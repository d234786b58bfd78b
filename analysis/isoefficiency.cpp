#include "analysis/isoefficiency.hpp"

#include <algorithm>
#include <cmath>

#include "analysis/parallel.hpp"
#include "models/bind.hpp"
#include "scaling/approximate_model.hpp"

namespace analysis {

bool IsoefficiencyOptions::IsValid(std::string* why) const {
  auto fail = [&](std::string message) {
    if (why != nullptr) *why = std::move(message);
    return false;
  };
  if (!(target > 0.0 && target <= 1.0)) return fail("the target efficiency must be in (0, 1]");
  if (variable.empty()) return fail("no variable to search over");
  if (!(min_size >= 1.0 && max_size >= min_size && max_size <= 1e15)) {
    return fail("the sizes must satisfy 1 <= min_size <= max_size <= 1e15");
  }
  return series_parallel.IsValid(why);
}

std::pair<double, double> approximate_efficiency(const models::Program& program, const models::Machine& machine,
                                                 const models::Environment& environment, int p,
                                                 const solvers::SeriesParallelOptions& options) {
  const double one = solvers::solve_series_parallel(scaling::approximate_model(program, machine, environment, 1),
                                                    options).mean;
  const double many =
      p == 1 ? one
             : solvers::solve_series_parallel(scaling::approximate_model(program, machine, environment, p), options)
                   .mean;
  if (!(many > 0.0)) return {0.0, many};
  return {one / (static_cast<double>(p) * many), many};
}

namespace {

// The search of one (machine, p); a size whose variables cannot be bound ends it with the error.
struct Search {
  const MachineInput& input;
  const IsoefficiencyOptions& options;
  IsoefficiencyPoint point;
  std::optional<models::BindError> bind_error;

  // Whether the target holds at `size`; *efficiency and *mean receive the figures.
  std::optional<bool> holds(double size, double* efficiency, double* mean) {
    ++point.evaluations;
    std::map<std::string, double> values = input.values;
    values[options.variable] = size;
    const models::Binding binding = models::bind(*input.program, input.machine, values);
    if (!binding.ok()) {
      bind_error = binding.errors.front();
      return std::nullopt;
    }
    const auto [e, t] = approximate_efficiency(*input.program, input.machine, binding.environment, point.p,
                                               options.series_parallel);
    *efficiency = e;
    *mean = t;
    return e >= options.target;
  }

  // Doubling, then bisection; false when a size could not be bound.
  bool run() {
    double efficiency = 0.0, mean = 0.0;
    double low = options.min_size;  // the last size known to fail, once one has
    std::optional<bool> ok = holds(low, &efficiency, &mean);
    if (!ok) return false;
    if (*ok) return found(low, efficiency, mean);
    double high = low, high_efficiency = 0.0, high_mean = 0.0;
    while (true) {
      if (high >= options.max_size) {
        point.efficiency = efficiency;  // not reached: the figures at the limit
        point.mean = mean;
        return true;
      }
      low = high;
      high = std::min(options.max_size, std::max(high * 2, high + 1));
      ok = holds(high, &high_efficiency, &high_mean);
      if (!ok) return false;
      if (*ok) break;
      efficiency = high_efficiency;
      mean = high_mean;
    }
    // low fails, high holds: bisect over the integers between them.
    while (high - low > 1) {
      const double middle = std::floor((low + high) / 2);
      double e = 0.0, t = 0.0;
      ok = holds(middle, &e, &t);
      if (!ok) return false;
      if (*ok) {
        high = middle;
        high_efficiency = e;
        high_mean = t;
      } else {
        low = middle;
      }
    }
    return found(high, high_efficiency, high_mean);
  }

  bool found(double size, double efficiency, double mean) {
    point.size = size;
    point.efficiency = efficiency;
    point.mean = mean;
    return true;
  }
};

}  // namespace

Outcome<std::vector<IsoefficiencyPoint>> run_isoefficiency(const std::vector<MachineInput>& machines,
                                                           const std::vector<int>& processors,
                                                           const IsoefficiencyOptions& options, int threads) {
  std::string why;
  if (!options.IsValid(&why)) throw std::invalid_argument("isoefficiency: " + why);
  std::vector<IsoefficiencyPoint> points(machines.size() * processors.size());
  const auto machine_of = [&](std::size_t k) { return k / processors.size(); };
  const auto item = [&](std::size_t k) -> std::optional<Failure> {
    Search search{machines[machine_of(k)], options, {}, {}};
    search.point.machine_index = machine_of(k);
    search.point.p = processors[k % processors.size()];
    if (!search.run()) return Failure::of_binding(machine_of(k), *search.bind_error);
    points[k] = search.point;
    return std::nullopt;
  };
  Outcome<std::vector<IsoefficiencyPoint>> outcome;
  outcome.failure = run_items(points.size(), threads, item, machine_of);
  if (!outcome.failure) outcome.value = std::move(points);
  return outcome;
}

}  // namespace analysis
