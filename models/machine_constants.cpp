#include "models/machine_constants.hpp"

#include "models/environment.hpp"
#include "models/limits.hpp"

#include <fmt/format.h>

#include <cmath>

namespace models {

bool declares_constant(const Machine& machine, const std::string& name) { return machine.constants.count(name) != 0; }

SourceLocation constant_location(const Machine& machine, const std::string& name) {
  for (const MachineConstant& constant : machine.constant_definitions) {
    if (constant.name == name) return constant.location;
  }
  return {};
}

namespace {

// Why `new_values` cannot be given to `machine` (a constant it does not declare, a value that
// is not finite); empty when they can.
std::string refused_value(const Machine& machine, const std::map<std::string, double>& new_values) {
  for (const auto& [name, value] : new_values) {
    if (!declares_constant(machine, name)) {
      return fmt::format("machine '{}' has no constant '{}'", machine.name, name);
    }
    if (!std::isfinite(value)) {
      return fmt::format("constant '{}' must be a finite number, got {}", name, value);
    }
  }
  return {};
}

// Sets the constants of `changed` and `environment`: the given values, and the definitions of
// the others evaluated in order. Returns the error, empty when there is none.
std::string evaluate_constants(const Machine& machine, const std::map<std::string, double>& values, Machine& changed,
                               Environment& environment) {
  for (const MachineConstant& constant : machine.constant_definitions) {
    double value = 0.0;
    if (const auto given = values.find(constant.name); given != values.end()) {
      value = given->second;
    } else {
      const Evaluation evaluation = evaluate(constant.definition, environment);
      if (!evaluation.ok()) {
        return fmt::format("constant '{}' of machine '{}' cannot be evaluated: {}", constant.name, machine.name,
                           evaluation.error);
      }
      value = evaluation.value;
    }
    environment.values[constant.name] = value;
    changed.constants[constant.name] = value;
  }
  return {};
}

// RTFACTOR and SIZEOF evaluated again from their definitions with the new constants.
// Returns the error, empty when there is none.
std::string evaluate_figures(const Machine& machine, const Environment& environment, Machine& changed) {
  if (machine.rt_factor_definition) {
    const Evaluation rt_factor = evaluate(*machine.rt_factor_definition, environment);
    if (!rt_factor.ok()) {
      return fmt::format("RTFACTOR of machine '{}' cannot be evaluated: {}", machine.name, rt_factor.error);
    }
    if (!(rt_factor.value >= kSmallestMagnitude && rt_factor.value <= kLargestMagnitude)) {
      return fmt::format("RTFACTOR of machine '{}' must lie in [{:g}, {:g}], got {}", machine.name, kSmallestMagnitude,
                         kLargestMagnitude, rt_factor.value);
    }
    changed.rt_factor = rt_factor.value;
  }
  for (const auto& [type, definition] : machine.size_definitions) {
    const Evaluation bytes = evaluate(definition, environment);
    if (!bytes.ok()) {
      return fmt::format("SIZEOF {} of machine '{}' cannot be evaluated: {}", type, machine.name, bytes.error);
    }
    if (!(bytes.value > 0 && bytes.value <= kLargestMagnitude)) {
      return fmt::format("SIZEOF {} of machine '{}' must be > 0 and at most {:g} bytes, got {}", type, machine.name,
                         kLargestMagnitude, bytes.value);
    }
    changed.sizes[type] = bytes.value;
  }
  return {};
}

}  // namespace

MachineWithConstants with_constants(const Machine& machine, const std::map<std::string, double>& new_values) {
  MachineWithConstants result;
  // Values given before (--set, then a swept value) stay unless given again.
  std::map<std::string, double> values = new_values;
  values.insert(machine.given_constants.begin(), machine.given_constants.end());
  result.error = refused_value(machine, new_values);
  if (!result.error.empty()) return result;
  Machine changed = machine;
  Environment environment;
  result.error = evaluate_constants(machine, values, changed, environment);
  if (!result.error.empty()) return result;
  // A machine built in code has values without definitions.
  for (const auto& [name, value] : values) changed.constants[name] = value;
  for (const auto& [name, value] : changed.constants) environment.values[name] = value;

  result.error = evaluate_figures(machine, environment, changed);
  if (!result.error.empty()) return result;
  changed.given_constants = values;
  for (const auto& [name, value] : new_values) changed.constant_ranges.erase(name);  // now one value
  result.machine = std::move(changed);
  return result;
}

}  // namespace models
