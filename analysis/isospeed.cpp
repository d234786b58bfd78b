#include "analysis/isospeed.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "models/bind.hpp"
#include "scaling/approximate_model.hpp"

namespace analysis {

bool IsospeedOptions::IsValid(std::string* why) const {
  auto fail = [&](std::string message) {
    if (why != nullptr) *why = std::move(message);
    return false;
  };
  if (variable.empty()) return fail("no variable to search over");
  if (fraction && !(*fraction > 0.0 && *fraction <= 1.0))
    return fail("the fraction of one processor's speed must be in (0, 1]");
  if (!(max_size >= 1.0 && max_size <= 1e15)) return fail("the largest size must be in [1, 1e15]");
  return series_parallel.IsValid(why);
}

std::optional<double> isospeed_scalability(const IsospeedPoint& from, const IsospeedPoint& to) {
  if (!from.size || !to.size || !(to.work > 0.0)) return std::nullopt;
  return static_cast<double>(to.p) * from.work / (static_cast<double>(from.p) * to.work);
}

namespace {

// W and a of one point from the efficiency E = T(n,1) / (p T(n,p)) and T(n,p):
// W = T(n,1) / RTFactor = E p T / RTFactor, a = W / (p T) = E / RTFactor.
void set_work(IsospeedPoint& point, double efficiency, double mean, double rt_factor) {
  point.mean = mean;
  point.speed = efficiency / rt_factor;
  point.work = point.speed * static_cast<double>(point.p) * mean;
}

// The point of the smallest p at the size the input binds, and its efficiency (at most 1): the
// fraction of one processor's speed to hold when none is given.
struct BasePoint {
  IsospeedPoint point;
  double fraction = 0.0;
};
Outcome<BasePoint> base_point(const MachineInput& input, std::size_t m, int p, const IsospeedOptions& options) {
  Outcome<BasePoint> outcome;
  const models::Binding binding = models::bind(*input.program, input.machine, input.values);
  if (!binding.ok()) {
    outcome.failure = Failure::of_binding(m, binding.errors.front());
    return outcome;
  }
  const auto value = binding.environment.values.find(options.variable);
  if (value == binding.environment.values.end()) {
    // The variable depends on P, or has no value: there is no base size.
    outcome.failure = Failure::of_binding(m, {models::BindError::Code::NoValue, options.variable, "", {}});
    return outcome;
  }
  BasePoint base;
  base.point.machine_index = m;
  base.point.p = p;
  base.point.size = value->second;
  base.point.evaluations = 1;
  try {
    const auto [efficiency, mean] = approximate_efficiency(*input.program, input.machine, binding.environment,
                                                           base.point.p, options.series_parallel);
    set_work(base.point, efficiency, mean, input.machine.rt_factor);
    base.fraction = std::min(efficiency, 1.0);
  } catch (const scaling::ScalingError& error) {
    Failure failure;
    failure.machine = m;
    failure.message = error.what();
    failure.location = error.location();
    outcome.failure = std::move(failure);
    return outcome;
  }
  outcome.value = std::move(base);
  return outcome;
}

// The sizes at which the processor counts hold the efficiency `fraction` on machine m.
Outcome<std::vector<IsoefficiencyPoint>> sizes_holding(const MachineInput& input, std::size_t m,
                                                       const std::vector<int>& processors, double fraction,
                                                       const IsospeedOptions& options, int threads) {
  IsoefficiencyOptions iso;
  iso.target = fraction;
  iso.variable = options.variable;
  iso.max_size = options.max_size;
  iso.series_parallel = options.series_parallel;
  auto searched = run_isoefficiency({input}, processors, iso, threads);
  if (!searched.ok()) searched.failure->machine = m;
  return searched;
}

// The isoefficiency points found on machine m as isospeed points.
void add_points(const std::vector<IsoefficiencyPoint>& found, std::size_t m, double rt_factor, IsospeedResult& result) {
  for (const IsoefficiencyPoint& one : found) {
    IsospeedPoint point;
    point.machine_index = m;
    point.p = one.p;
    point.size = one.size;
    point.evaluations = one.evaluations;
    set_work(point, one.efficiency, one.mean, rt_factor);
    result.points.push_back(point);
  }
}

}  // namespace

Outcome<IsospeedResult> run_isospeed(const std::vector<MachineInput>& machines, const std::vector<int>& processors,
                                     const IsospeedOptions& options, int threads) {
  std::string why;
  if (!options.IsValid(&why)) throw std::invalid_argument("isospeed: " + why);
  Outcome<IsospeedResult> outcome;
  IsospeedResult result;
  for (std::size_t m = 0; m < machines.size(); ++m) {
    const MachineInput& input = machines[m];
    const double rt_factor = input.machine.rt_factor;
    // The speed to hold: given, or that of the smallest p at the bound size.
    std::optional<IsospeedPoint> base;
    double fraction = options.fraction.value_or(0.0);
    if (!options.fraction) {
      const Outcome<BasePoint> measured = base_point(input, m, processors.front(), options);
      if (!measured.ok()) {
        outcome.failure = measured.failure;
        return outcome;
      }
      base = measured.value->point;
      fraction = measured.value->fraction;
      if (!(fraction > 0.0)) {
        // A program that takes no time (every task DETERMINISTIC(0)) has no speed to hold.
        outcome.failure = Failure::of_value(
            m, fmt::format("--isospeed base: at p = {} and {} = {:g} the program's efficiency is {:g} (its runtime "
                           "{:g}): there is no speed to hold; give the speed as a fraction (--isospeed A)",
                           processors.front(), options.variable, base->size.value_or(0.0), fraction, base->mean));
        return outcome;
      }
    }
    std::vector<int> rest(processors.begin() + (base ? 1 : 0), processors.end());
    std::vector<IsoefficiencyPoint> found;
    if (!rest.empty()) {
      auto searched = sizes_holding(input, m, rest, fraction, options, threads);
      if (!searched.ok()) {
        outcome.failure = searched.failure;
        return outcome;
      }
      found = std::move(*searched.value);
    }
    result.speed.push_back(fraction / rt_factor);
    result.fraction.push_back(fraction);
    if (base) result.points.push_back(*base);
    add_points(found, m, rt_factor, result);
  }
  outcome.value = std::move(result);
  return outcome;
}

}  // namespace analysis
