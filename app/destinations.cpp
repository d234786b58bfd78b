#include "app/destinations.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <optional>
#include <system_error>
#include <tuple>
#include <variant>

#include <sys/stat.h>

#include "app/output_file.hpp"

namespace app {

namespace {

void add_measured(const models::RuntimeSpec& spec, std::vector<RunInput>& inputs) {
  if (spec.kind == models::DistKind::Numerical && spec.measurements) {
    inputs.push_back({spec.measurements->file, fmt::format("measured data of NUMERICAL('{}')", spec.file)});
  }
  for (const models::RuntimeSpec& component : spec.components) add_measured(component, inputs);
}

void add_measured(const std::optional<models::RuntimeSpec>& spec, std::vector<RunInput>& inputs) {
  if (spec) add_measured(*spec, inputs);
}

// Every runtime of the phase, wherever its scheme keeps it.
void add_measured(const models::Phase& phase, std::vector<RunInput>& inputs) {
  if (const auto* sequential = std::get_if<models::SequentialPhase>(&phase)) {
    add_measured(sequential->runtime, inputs);
    return;
  }
  const auto& work = std::get<models::WorkPhase>(phase);
  add_measured(work.runtime, inputs);
  add_measured(work.interarrival, inputs);
  add_measured(work.join, inputs);
  if (work.independent) add_measured(work.independent->runtime, inputs);
  if (work.dependent) add_measured(work.dependent->runtime, inputs);
  for (const models::Task& task : work.tasks) add_measured(task.runtime, inputs);
}

struct FileIdentity {
  dev_t device = 0;
  ino_t inode = 0;
  mode_t type = 0;
  bool operator==(const FileIdentity& other) const { return device == other.device && inode == other.inode; }
};

// The file the path names (through symbolic links); nothing when there is none.
std::optional<FileIdentity> identity(const std::string& path) {
  struct stat status {};
  if (::stat(path.c_str(), &status) != 0) return std::nullopt;
  return FileIdentity{status.st_dev, status.st_ino, status.st_mode & S_IFMT};
}

// The input a destination would overwrite; nothing when none.
std::optional<RunInput> overwritten_input(const OutputFile& destination, const std::vector<RunInput>& inputs) {
  const auto target = identity(destination.path);
  if (!target || !S_ISREG(target->type)) return std::nullopt;
  for (const RunInput& input : inputs) {
    if (identity(input.path) == target) return input;
  }
  return std::nullopt;
}

// Whether two destinations would write one file: the same existing file, or the same place
// for a new one (two names of a directory, or two links to one missing file).
bool same_file(const OutputFile& a, const OutputFile& b) {
  const auto first = identity(a.path), second = identity(b.path);
  if (first && second) return *first == *second && !S_ISCHR(first->type);
  if (first || second) return false;
  std::error_code ignored;
  return std::filesystem::weakly_canonical(landing_path(a.path), ignored) ==
         std::filesystem::weakly_canonical(landing_path(b.path), ignored);
}

}  // namespace

std::vector<RunInput> run_inputs(const std::string& program_file, const std::vector<Loaded>& machines) {
  std::vector<RunInput> inputs{{program_file, "the program"}};
  for (const Loaded& loaded : machines) {
    if (!loaded.machine_file.empty()) inputs.push_back({loaded.machine_file, "the machine file"});
    for (const auto& [name, phase] : loaded.program->phases) add_measured(phase, inputs);
  }
  return inputs;
}

namespace {

Check destinations_fit(const std::vector<OutputFile>& outputs, const std::vector<RunInput>& declared,
                       const std::string& program_file, const std::vector<Loaded>& machines) {
  for (const OutputFile& destination : outputs) {
    if (Check writable = check_output_path(destination); !writable.ok()) return writable;
  }
  std::vector<RunInput> inputs = run_inputs(program_file, machines);
  inputs.insert(inputs.end(), declared.begin(), declared.end());
  for (const OutputFile& destination : outputs) {
    if (const auto input = overwritten_input(destination, inputs)) {
      return refuse(fmt::format("{} {} would overwrite an input of this run ({}, '{}')", destination.option,
                                destination.path, input->role, input->path));
    }
  }
  for (std::size_t a = 0; a < outputs.size(); ++a) {
    for (std::size_t b = a + 1; b < outputs.size(); ++b) {
      if (!same_file(outputs[a], outputs[b])) continue;
      return refuse(fmt::format("{} {} and {} {} are the same file: the two outputs would overwrite each other",
                                outputs[a].option, outputs[a].path, outputs[b].option, outputs[b].path));
    }
  }
  return passed();
}

}  // namespace

Check check_destinations(const std::vector<OutputFile>& outputs, const std::vector<RunInput>& declared,
                         const std::string& program_file, const std::vector<Loaded>& machines,
                         const distributed::Communicator* ranks) {
  if (ranks == nullptr || ranks->alone()) return destinations_fit(outputs, declared, program_file, machines);
  // Rank 0's verdict on every rank: nothing when the destinations fit, else its refusal's text.
  std::string refusal;
  if (ranks->rank() == 0) {
    const Check fit = destinations_fit(outputs, declared, program_file, machines);
    if (!fit.ok()) refusal = fit.failure->text;
  }
  refusal = ranks->broadcast(std::move(refusal), 0);
  if (refusal.empty()) return passed();
  return refuse(UsageError{refusal});
}

}  // namespace app
