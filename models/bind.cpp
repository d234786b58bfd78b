#include "models/bind.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace models {

Binding bind(const Program& program, const Machine& machine,
             const std::map<std::string, double>& sets) {
  Binding binding;
  Environment& env = binding.environment;
  for (const auto& [name, value] : machine.constants) env.values[name] = value;
  env.values["RTFactor"] = machine.rt_factor;
  for (const auto& [type, bytes] : machine.sizes) env.sizes[type] = bytes;

  for (const auto& set : sets) {
    const std::string& name = set.first;
    const bool declared = std::any_of(program.variables.begin(), program.variables.end(),
                                      [&](const Variable& v) { return v.name == name; });
    if (!declared) {
      binding.errors.push_back(
          fmt::format("--set {}: the program declares no variable '{}'", name, name));
    }
  }
  for (const Variable& variable : program.variables) {
    if (machine.constants.count(variable.name) != 0) {
      binding.errors.push_back(fmt::format(
          "variable '{}' clashes with the constant of that name in machine '{}'",
          variable.name, machine.name));
      continue;
    }
    if (const auto set = sets.find(variable.name); set != sets.end()) {
      env.values[variable.name] = set->second;
      continue;
    }
    if (!variable.default_value) {
      binding.errors.push_back(fmt::format(
          "variable '{}' has no default value: bind it with --set {}=VALUE", variable.name,
          variable.name));
      continue;
    }
    const Evaluation value = evaluate(*variable.default_value, env);
    if (!value.ok()) {
      binding.errors.push_back(
          fmt::format("default value of variable '{}': {}", variable.name, value.error));
      continue;
    }
    env.values[variable.name] = value.value;
  }
  return binding;
}

}  // namespace models
