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

struct Destination {
  const char* option;
  std::string path;
};

// The input a destination would overwrite; nothing when none.
std::optional<RunInput> overwritten_input(const Destination& destination, const std::vector<RunInput>& inputs) {
  const auto target = identity(destination.path);
  if (!target || !S_ISREG(target->type)) return std::nullopt;
  for (const RunInput& input : inputs) {
    if (identity(input.path) == target) return input;
  }
  return std::nullopt;
}

// Whether two destinations would write one file: the same existing file, or the same place
// for a new one (two names of a directory, or two links to one missing file).
bool same_file(const Destination& a, const Destination& b) {
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

bool check_destinations(const Options& options, const std::vector<Loaded>& machines, std::ostream& err) {
  // Every file option the run writes: (its name as `given` records it, as messages write it, value).
  const std::tuple<const char*, const char*, const std::optional<std::string>*> outputs[] = {
      {"--output", "-o", &options.output},
      {"--plot", "--plot", &options.plot},
      {"--tail-plot", "--tail-plot", &options.tail_plot},
      {"--breakdown-plot", "--breakdown-plot", &options.breakdown_plot},
      {"--write-fit", "--write-fit", &options.write_fit},
      {"--validation-plot", "--validation-plot", &options.validation_plot}};
  std::vector<Destination> destinations;
  for (const auto& [given, option, path] : outputs) {
    if (*path) {
      destinations.push_back({option, **path});
    } else if (options.given.contains(given)) {
      // Given as '': the run would write nothing where a file was asked for.
      usage_error(err, fmt::format("{} '': expected a file name", option));
      return false;
    }
  }
  for (const Destination& destination : destinations) {
    if (const auto problem = check_output_path(destination.path)) {
      usage_error(err, fmt::format("{}: {}", destination.option, *problem));
      return false;
    }
  }
  std::vector<RunInput> inputs = run_inputs(options.file, machines);
  for (const std::string& file : options.other_files) inputs.push_back({file, "the program"});
  if (options.calibrate) inputs.push_back({*options.calibrate, "the runs of --calibrate"});
  if (options.validate) inputs.push_back({*options.validate, "the runs of --validate"});
  for (const std::string& file : options.set_files) inputs.push_back({file, "a --set-file"});
  for (const Destination& destination : destinations) {
    if (const auto input = overwritten_input(destination, inputs)) {
      usage_error(err, fmt::format("{} {} would overwrite an input of this run ({}, '{}')", destination.option,
                                   destination.path, input->role, input->path));
      return false;
    }
  }
  for (std::size_t a = 0; a < destinations.size(); ++a) {
    for (std::size_t b = a + 1; b < destinations.size(); ++b) {
      if (!same_file(destinations[a], destinations[b])) continue;
      usage_error(
          err, fmt::format("{} {} and {} {} are the same file: the two outputs would overwrite each other",
                           destinations[a].option, destinations[a].path, destinations[b].option, destinations[b].path));
      return false;
    }
  }
  return true;
}

}  // namespace app
