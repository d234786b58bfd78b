// The cases of a study (study.hpp): every machine input, every combination of swept values,
// and with --loss each phase alone, bound and ready to solve.
#include <fmt/format.h>

#include "analysis/loss.hpp"
#include "analysis/study.hpp"
#include "models/bind.hpp"
#include "models/machine_constants.hpp"

namespace analysis {

std::vector<std::vector<std::pair<std::string, double>>> sweep_combinations(
    const std::vector<SweepVariable>& variables) {
  std::vector<std::vector<std::pair<std::string, double>>> combinations{{}};
  for (const SweepVariable& variable : variables) {
    std::vector<std::vector<std::pair<std::string, double>>> longer;
    for (const auto& combination : combinations) {
      for (double value : variable.values) {
        longer.push_back(combination);
        longer.back().emplace_back(variable.name, value);
      }
    }
    combinations = std::move(longer);
  }
  return combinations;
}

namespace {

// "ts = 10, tw = 0.1": the constants a machine was given, for a message about them.
std::string swept_text(const std::map<std::string, double>& constants) {
  std::string text;
  for (const auto& [name, value] : constants) text += fmt::format("{}{} = {}", text.empty() ? "" : ", ", name, value);
  return "with " + text;
}

}  // namespace

Outcome<std::vector<Case>> make_cases(const std::vector<MachineInput>& machines,
                                      const std::vector<SweepVariable>& sweeps, bool loss) {
  Outcome<std::vector<Case>> outcome;
  std::vector<Case> cases;
  for (std::size_t m = 0; m < machines.size(); ++m) {
    const MachineInput& input = machines[m];
    const auto machine = std::make_shared<const models::Machine>(input.machine);
    // The whole program, then each phase alone, then the barriers alone.
    std::vector<std::pair<std::string, std::shared_ptr<const models::Program>>> programs{{"", input.program}};
    if (loss) {
      for (const std::string& phase : pattern_phases(*input.program)) {
        programs.emplace_back(phase, std::make_shared<const models::Program>(with_only_phase(*input.program, phase)));
      }
      if (pattern_has_sync(*input.program)) {
        programs.emplace_back(kBarriersOnly,
                              std::make_shared<const models::Program>(with_only_phase(*input.program, kBarriersOnly)));
      }
    }
    for (const auto& combination : sweep_combinations(sweeps)) {
      std::map<std::string, double> values = input.values;
      std::map<std::string, double> constants;  // swept constants of the machine
      for (const auto& [name, value] : combination) {
        if (models::declares_variable(*input.program, name))
          values[name] = value;
        else if (models::declares_constant(input.machine, name))
          constants[name] = value;
      }
      std::shared_ptr<const models::Machine> swept_machine = machine;
      if (!constants.empty()) {
        models::MachineWithConstants changed = models::with_constants(input.machine, constants);
        if (!changed.machine) {
          outcome.failure = Failure::of_value(m, fmt::format("{}: {}", swept_text(constants), changed.error),
                                              models::constant_location(input.machine, constants.begin()->first));
          return outcome;
        }
        swept_machine = std::make_shared<const models::Machine>(std::move(*changed.machine));
      }
      models::Binding binding = models::bind(*input.program, *swept_machine, values);
      if (!binding.ok()) {
        outcome.failure = Failure::of_binding(m, binding.errors.front());
        return outcome;
      }
      for (const auto& [phase, program] : programs) {
        Case one;
        one.program = program;
        one.machine = swept_machine;
        one.environment = binding.environment;
        one.values = values;
        one.label = {m,     input.machine.name,  input.machine_file, combination,
                     phase, input.program_index, input.program_label};
        cases.push_back(std::move(one));
      }
    }
  }
  outcome.value = std::move(cases);
  return outcome;
}

}  // namespace analysis
