#include "models/bind.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace models {

std::string BindError::message() const {
  switch (code) {
    case Code::UnknownVariable: return fmt::format("the program declares no variable '{}'", variable);
    case Code::NoValue: return fmt::format("variable '{}' has no default value", variable);
    case Code::BadDefault: return fmt::format("default value of variable '{}': {}", variable, detail);
    case Code::ClashWithMachine:
      return fmt::format("variable '{}' clashes with the constant of that name in machine '{}'", variable, detail);
  }
  return "variable '" + variable + "' cannot be bound";
}

Binding bind(const Program& program, const Machine& machine, const std::map<std::string, double>& values) {
  Binding binding;
  Environment& env = binding.environment;
  for (const auto& [name, value] : machine.constants) env.values[name] = value;
  env.values["RTFactor"] = machine.rt_factor;
  for (const auto& [type, bytes] : machine.sizes) env.sizes[type] = bytes;
  for (const auto& given : values) {
    const std::string& name = given.first;
    if (!declares_variable(program, name)) binding.errors.push_back({BindError::Code::UnknownVariable, name, "", {}});
  }
  // Names whose value waits for the processor count: P, then every variable whose default
  // mentions one of them (weak scaling, docs/scaling.md).
  std::vector<std::string> per_processor{"P"};
  const auto depends_on_p = [&](const Expr& expr) {
    for (const std::string& name : identifiers(expr)) {
      if (std::find(per_processor.begin(), per_processor.end(), name) != per_processor.end()) return true;
    }
    return false;
  };
  for (const Variable& variable : program.variables) {
    if (machine.constants.count(variable.name) != 0) {
      binding.errors.push_back({BindError::Code::ClashWithMachine, variable.name, machine.name, variable.location});
      continue;
    }
    if (const auto given = values.find(variable.name); given != values.end()) {
      env.values[variable.name] = given->second;
      continue;
    }
    if (!variable.default_value) {
      binding.errors.push_back({BindError::Code::NoValue, variable.name, "", variable.location});
      continue;
    }
    if (depends_on_p(*variable.default_value)) {
      per_processor.push_back(variable.name);
      env.per_processor.push_back({variable.name, *variable.default_value, variable.location});
      continue;
    }
    const Evaluation value = evaluate(*variable.default_value, env);
    if (!value.ok()) {
      binding.errors.push_back({BindError::Code::BadDefault, variable.name, value.error, variable.location});
      continue;
    }
    env.values[variable.name] = value.value;
  }
  return binding;
}

bool is_weak_scaling(const Program& program, const Environment& environment) {
  const auto of_p = [&](const std::string& name) {
    return std::any_of(environment.per_processor.begin(), environment.per_processor.end(),
                       [&](const Environment::PerProcessorVariable& variable) { return variable.name == name; });
  };
  const std::vector<const Expr*> sizes = size_expressions(program);
  return std::any_of(sizes.begin(), sizes.end(), [&](const Expr* size) {
    const std::vector<std::string> names = identifiers(*size);
    return std::any_of(names.begin(), names.end(), of_p);
  });
}

}  // namespace models
