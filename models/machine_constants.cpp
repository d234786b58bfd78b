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

MachineWithConstants with_constants(const Machine& machine, const std::map<std::string, double>& new_values) {
  MachineWithConstants result;
  // Values given before (--set, then a swept value) stay unless given again.
  std::map<std::string, double> values = new_values;
  values.insert(machine.given_constants.begin(), machine.given_constants.end());
  for (const auto& [name, value] : new_values) {
    if (!declares_constant(machine, name)) {
      result.error = fmt::format("machine '{}' has no constant '{}'", machine.name, name);
      return result;
    }
    if (!std::isfinite(value)) {
      result.error = fmt::format("constant '{}' must be a finite number, got {}", name, value);
      return result;
    }
  }
  Machine changed = machine;
  Environment environment;
  for (const MachineConstant& constant : machine.constant_definitions) {
    double value = 0.0;
    if (const auto given = values.find(constant.name); given != values.end()) {
      value = given->second;
    } else {
      const Evaluation evaluation = evaluate(constant.definition, environment);
      if (!evaluation.ok()) {
        result.error = fmt::format("constant '{}' of machine '{}' cannot be evaluated: {}", constant.name, machine.name,
                                   evaluation.error);
        return result;
      }
      value = evaluation.value;
    }
    environment.values[constant.name] = value;
    changed.constants[constant.name] = value;
  }
  // A machine built in code has values without definitions.
  for (const auto& [name, value] : values) changed.constants[name] = value;
  for (const auto& [name, value] : changed.constants) environment.values[name] = value;

  if (machine.rt_factor_definition) {
    const Evaluation rt_factor = evaluate(*machine.rt_factor_definition, environment);
    if (!rt_factor.ok()) {
      result.error = fmt::format("RTFACTOR of machine '{}' cannot be evaluated: {}", machine.name, rt_factor.error);
      return result;
    }
    if (!(rt_factor.value >= kSmallestMagnitude && rt_factor.value <= kLargestMagnitude)) {
      result.error = fmt::format("RTFACTOR of machine '{}' must lie in [{:g}, {:g}], got {}", machine.name,
                                 kSmallestMagnitude, kLargestMagnitude, rt_factor.value);
      return result;
    }
    changed.rt_factor = rt_factor.value;
  }
  for (const auto& [type, definition] : machine.size_definitions) {
    const Evaluation bytes = evaluate(definition, environment);
    if (!bytes.ok()) {
      result.error = fmt::format("SIZEOF {} of machine '{}' cannot be evaluated: {}", type, machine.name, bytes.error);
      return result;
    }
    if (!(bytes.value > 0 && bytes.value <= kLargestMagnitude)) {
      result.error = fmt::format("SIZEOF {} of machine '{}' must be > 0 and at most {:g} bytes, got {}", type,
                                 machine.name, kLargestMagnitude, bytes.value);
      return result;
    }
    changed.sizes[type] = bytes.value;
  }
  changed.given_constants = values;
  for (const auto& [name, value] : new_values) changed.constant_ranges.erase(name);  // now one value
  result.machine = std::move(changed);
  return result;
}

}  // namespace models
