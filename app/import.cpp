#include "app/import.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "app/destinations.hpp"
#include "app/options.hpp"
#include "app/output_file.hpp"
#include "importers/formats.hpp"
#include "pdl/diagnostic.hpp"
#include "solvers/memory.hpp"

namespace app {

namespace {

std::string formats_help() {
  std::string text = "Formats:\n";
  for (const importers::Format& format : importers::formats()) {
    text += fmt::format("  {:<10} {}\n", format.name, format.describes);
  }
  return text + "See docs/import.md.\n";
}

}  // namespace

analysis::Outcome<Command, UsageError> parse_import_command(int argc, char** argv, std::uint64_t memory_budget_bytes) {
  CLI::App cli{"pdl-scale import: a foreign description of a program made into a PDL program", "pdl-scale import"};
  ImportCommand command;
  command.memory_budget_bytes = memory_budget_bytes;
  std::string memory;
  bool drop_auxiliary = false;
  cli.add_option("FORMAT", command.format, "The input's format: " + importers::format_names())->required();
  cli.add_option("FILE", command.input, "The input")->required();
  cli.add_option("-o,--output", command.output,
                 "The program file to write; the files it reads are written beside it (default: the program on the "
                 "standard output, for an import without such files)");
  cli.add_flag("--drop-auxiliary", drop_auxiliary,
               "wfformat: leave out Pegasus's auxiliary jobs (staging, directory creation, clean-up), keeping the "
               "order they imposed");
  cli.add_option("--memory", memory, "What the import may hold (default: a quarter of the machine's memory)");
  cli.footer(formats_help());
  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    if (error.get_exit_code() == 0) {
      std::ostringstream out, err;
      cli.exit(error, out, err);
      return {TextCommand{out.str()}, std::nullopt};
    }
    return {std::nullopt, usage_error_of(fmt::format("import: {}", error.what()))};
  }
  if (importers::format_named(command.format) == nullptr) {
    return {std::nullopt, usage_error_of(fmt::format("import: unknown format '{}'; the formats are {}", command.format,
                                                     importers::format_names()))};
  }
  if (command.output && command.output->empty()) {
    return {std::nullopt, usage_error_of("import: -o: expected a file name, got ''")};
  }
  if (!memory.empty()) {
    const auto bytes = parse_bytes(memory);
    if (!bytes || *bytes < solvers::kSmallestMemoryBudget) {
      return {std::nullopt,
              usage_error_of(fmt::format(
                  "import: --memory {}: expected a size of at least 1M, such as 4G, 512M or 100000000", memory))};
    }
    command.memory_budget_bytes = *bytes;
  }
  command.keep_auxiliary = !drop_auxiliary;
  return {Command{std::move(command)}, std::nullopt};
}

namespace {

// The input, or as much of it as half the memory budget holds (the reader's tables and the
// program take the other half): a reader refuses a cut input where the part held ends.
struct HeldInput {
  std::string text;
  std::uintmax_t whole_bytes = 0;
};

std::optional<HeldInput> hold_input(const ImportCommand& command, std::ostream& err) {
  std::error_code error;
  const std::uintmax_t size = std::filesystem::file_size(command.input, error);
  std::ifstream file(command.input, std::ios::binary);
  if (error || !file) {
    err << fmt::format("pdl-scale: error: cannot read '{}': {}\n", command.input,
                       error ? error.message() : "it cannot be opened");
    return std::nullopt;
  }
  HeldInput held;
  held.whole_bytes = size;
  held.text.resize(static_cast<std::size_t>(std::min<std::uintmax_t>(size, command.memory_budget_bytes / 2)));
  file.read(held.text.data(), static_cast<std::streamsize>(held.text.size()));
  held.text.resize(static_cast<std::size_t>(file.gcount()));
  return held;
}

// The files the import writes, the program last, so that a program never stands without the
// files it reads; the program goes to `out` when there is no -o.
std::vector<std::pair<OutputFile, const std::string*>> destinations(const ImportCommand& command,
                                                                    const importers::Imported& imported) {
  std::vector<std::pair<OutputFile, const std::string*>> files;
  const std::filesystem::path directory = std::filesystem::path(*command.output).parent_path();
  for (const importers::ImportedFile& file : imported.data_files) {
    files.push_back({{"the data file", (directory / file.name).string()}, &file.text});
  }
  if (imported.machine) {
    files.push_back({{"the machine file", (directory / imported.machine->name).string()}, &imported.machine->text});
  }
  files.push_back({{"-o", *command.output}, &imported.program});
  return files;
}

int write_import(const ImportCommand& command, const importers::Imported& imported, std::ostream& out,
                 std::ostream& err) {
  if (!command.output) {
    if (!imported.data_files.empty() || imported.machine) {
      err << fmt::format("pdl-scale: error: import: the program reads {} file(s) written beside it: give -o PROGRAM\n",
                         imported.data_files.size() + (imported.machine ? 1 : 0));
      return kExitInput;
    }
    out << imported.program;
    return kExitSuccess;
  }
  const auto files = destinations(command, imported);
  std::vector<OutputFile> outputs;
  for (const auto& [file, text] : files) outputs.push_back(file);
  if (Check fit = check_destinations(outputs, {{command.input, "the input"}}, "", {}, nullptr); !fit.ok()) {
    err << fit.failure->text;
    return kExitInput;
  }
  // Whole or not at all: when a write fails, the files this import created before it go again.
  std::vector<std::string> created;
  for (const auto& [file, text] : files) {
    std::error_code ignored;
    const bool existed = std::filesystem::exists(file.path, ignored);
    if (Check written = write_output_file(file, *text); !written.ok()) {
      for (const std::string& path : created) std::filesystem::remove(path, ignored);
      err << written.failure->text;
      return kExitInput;
    }
    if (!existed) created.push_back(file.path);
  }
  for (const auto& [file, text] : files) out << fmt::format("wrote {}\n", file.path);
  return kExitSuccess;
}

}  // namespace

int run_import(const ImportCommand& command, std::ostream& out, std::ostream& err) {
  // -o is checked before the input is read (a mistake is named before any reading), the data
  // files beside it once the reader has named them (write_import).
  if (command.output) {
    const std::vector<OutputFile> outputs{{"-o", *command.output}};
    if (Check fit = check_destinations(outputs, {{command.input, "the input"}}, "", {}, nullptr); !fit.ok()) {
      err << fit.failure->text;
      return kExitInput;
    }
  }
  const std::optional<HeldInput> held = hold_input(command, err);
  if (!held) return kExitInput;
  const importers::Format& format = *importers::format_named(command.format);
  const importers::ImportInput input{command.input, held->text, held->whole_bytes};
  const importers::ImportLimits limits{.max_program_bytes = 0,
                                       .memory_budget_bytes = static_cast<std::size_t>(command.memory_budget_bytes)};
  const importers::ImportResult result = format.read(input, limits, {.keep_auxiliary = command.keep_auxiliary});
  err << pdl::format(result.diagnostics);
  if (!result.imported) return kExitInput;
  err << pdl::format(result.imported->notes);
  return write_import(command, *result.imported, out, err);
}

}  // namespace app
