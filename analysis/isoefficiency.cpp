#include "analysis/isoefficiency.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "analysis/parallel.hpp"
#include "analysis/run_model.hpp"
#include "models/bind.hpp"
#include "models/machine_constants.hpp"
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
  if (constant_min && !(*constant_min > 0.0 && std::isfinite(*constant_min))) {
    return fail("the smallest value of a machine constant must be a finite number > 0");
  }
  if (constant_max && !(*constant_max > 0.0 && std::isfinite(*constant_max))) {
    return fail("the largest value of a machine constant must be a finite number > 0");
  }
  if (constant_min && constant_max && !(*constant_min < *constant_max)) {
    return fail("the range of a machine constant must have its smallest value below its largest");
  }
  if (!(relative_precision >= 1e-12 && relative_precision <= 0.1)) {
    return fail("the relative precision must be in [1e-12, 0.1]");
  }
  return series_parallel.IsValid(why);
}

std::pair<double, double> approximate_efficiency(const models::Program& program, const models::Machine& machine,
                                                 const models::Environment& environment, int p,
                                                 const solvers::SeriesParallelOptions& options) {
  const double one = solve_approximate_tree(scaling::approximate_model(program, machine, environment, 1), options).mean;
  const double many =
      p == 1 ? one : solve_approximate_tree(scaling::approximate_model(program, machine, environment, p), options).mean;
  if (!(many > 0.0)) return {0.0, many};
  return {one / (static_cast<double>(p) * many), many};
}

namespace {

// The search of one (machine, p); a value that cannot be bound ends it with the failure.
struct Search {
  const MachineInput& input;
  std::size_t machine_index;
  const IsoefficiencyOptions& options;
  IsoefficiencyPoint point;
  std::optional<Failure> failure;

  // Whether the target holds at `value` of the variable; *efficiency and *mean receive the figures.
  std::optional<bool> holds(double value, double* efficiency, double* mean) {
    ++point.evaluations;
    std::map<std::string, double> values = input.values;
    const models::Machine* machine = &input.machine;
    std::optional<models::Machine> changed;
    if (point.machine_constant) {
      models::MachineWithConstants with = models::with_constants(input.machine, {{options.variable, value}});
      if (!with.machine) {
        failure = Failure::of_value(machine_index, fmt::format("with {} = {}: {}", options.variable, value, with.error),
                                    models::constant_location(input.machine, options.variable));
        return std::nullopt;
      }
      changed = std::move(with.machine);
      machine = &*changed;
    } else {
      values[options.variable] = value;
    }
    const models::Binding binding = models::bind(*input.program, *machine, values);
    if (!binding.ok()) {
      failure = Failure::of_binding(machine_index, binding.errors.front());
      return std::nullopt;
    }
    const auto [e, t] =
        approximate_efficiency(*input.program, *machine, binding.environment, point.p, options.series_parallel);
    *efficiency = e;
    *mean = t;
    return e >= options.target;
  }

  bool run() {
    if (!models::declares_variable(*input.program, options.variable) &&
        models::declares_constant(input.machine, options.variable))
      return run_constant();
    return run_size();
  }

  // Doubling, then bisection over the integers; false when a size could not be bound.
  bool run_size() {
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
    return bisect(
        high, low, high_efficiency, high_mean, [](double good, double bad) { return std::floor((good + bad) / 2); },
        [](double good, double bad) { return good - bad <= 1; });
  }

  // Between `good` (a value that holds, with its figures) and `bad` (one that fails) until
  // done(good, bad), each step trying middle(good, bad); the answer is the last value that held.
  template <class Middle, class Done>
  bool bisect(double good, double bad, double good_efficiency, double good_mean, Middle middle, Done done) {
    while (!done(good, bad)) {
      const double next = middle(good, bad);
      if (next == good || next == bad) break;
      double e = 0.0, t = 0.0;
      const std::optional<bool> ok = holds(next, &e, &t);
      if (!ok) return false;
      if (*ok) {
        good = next;
        good_efficiency = e;
        good_mean = t;
      } else {
        bad = next;
      }
    }
    return found(good, good_efficiency, good_mean);
  }

  // The ends of the range decide the direction; then bisection on log(value) between the end
  // that holds and the end that fails.
  bool run_constant() {
    point.machine_constant = true;
    const double value = input.machine.constants.at(options.variable);
    if ((!options.constant_min || !options.constant_max) && !(value > 0.0)) {
      failure = Failure::of_value(machine_index,
                                  fmt::format("the constant '{}' of machine '{}' is {}: a search over it needs a range "
                                              "of values > 0 (give its smallest and largest value)",
                                              options.variable, input.machine.name, value));
      return false;
    }
    point.range_low = options.constant_min.value_or(value / 1000);
    point.range_high = options.constant_max.value_or(value * 1000);
    if (!(point.range_low < point.range_high)) {
      failure = Failure::of_value(machine_index, fmt::format("the range [{}, {}] of '{}' is empty", point.range_low,
                                                             point.range_high, options.variable));
      return false;
    }
    double low_e = 0.0, low_t = 0.0, high_e = 0.0, high_t = 0.0;
    const std::optional<bool> low_ok = holds(point.range_low, &low_e, &low_t);
    if (!low_ok) return false;
    const std::optional<bool> high_ok = holds(point.range_high, &high_e, &high_t);
    if (!high_ok) return false;
    point.holds = low_e >= high_e ? IsoefficiencyPoint::Holds::AtMost : IsoefficiencyPoint::Holds::AtLeast;
    if (*low_ok && *high_ok) {
      point.whole_range = true;
      return point.holds == IsoefficiencyPoint::Holds::AtMost ? found(point.range_high, high_e, high_t)
                                                              : found(point.range_low, low_e, low_t);
    }
    if (!*low_ok && !*high_ok) {
      const bool low_better = low_e >= high_e;
      point.efficiency = low_better ? low_e : high_e;
      point.mean = low_better ? low_t : high_t;
      return true;
    }
    // `good` holds, `bad` fails; bisect between them on a log scale.
    point.holds = *low_ok ? IsoefficiencyPoint::Holds::AtMost : IsoefficiencyPoint::Holds::AtLeast;
    const double precision = options.relative_precision;
    return bisect(
        *low_ok ? point.range_low : point.range_high, *low_ok ? point.range_high : point.range_low,
        *low_ok ? low_e : high_e, *low_ok ? low_t : high_t,
        [](double good, double bad) { return std::sqrt(good * bad); },
        [precision](double good, double bad) { return std::abs(bad - good) <= precision * std::min(good, bad); });
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
  const ItemGrid grid{machines.size(), processors.size()};  // (machine, p)
  std::vector<IsoefficiencyPoint> points(grid.size());
  const auto machine_of = [&](std::size_t k) { return grid.outer_of(k); };
  const auto item = [&](std::size_t k) -> std::optional<Failure> {
    Search search{machines[machine_of(k)], machine_of(k), options, {}, {}};
    search.point.machine_index = machine_of(k);
    search.point.p = processors[grid.inner_of(k)];
    if (!search.run()) return *search.failure;
    points[k] = search.point;
    return std::nullopt;
  };
  Outcome<std::vector<IsoefficiencyPoint>> outcome;
  outcome.failure = run_items(points.size(), threads, item, machine_of);
  if (!outcome.failure) outcome.value = std::move(points);
  return outcome;
}

}  // namespace analysis
