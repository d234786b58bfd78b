// What a reader makes of a foreign description of a program (a GOAL schedule, a WfCommons
// workflow instance, an OTF2 trace): PDL text that `pdl-scale --check`s and runs, with the
// files it reads beside it, or the located diagnostics that say why not (docs/import.md).
// Readers are plain functions from the input's text to these values; the command writes them
// (app/import.cpp), whole or not at all.
#pragma once

#include "pdl/diagnostic.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace importers {

// A file the program reads (a NUMERICAL data file) or a machine file the source describes,
// named relative to the directory of the program file.
struct ImportedFile {
  std::string name;
  std::string text;
};

struct Imported {
  std::string program;                   // the PDL program
  std::optional<ImportedFile> machine;   // where the source says what the machine is
  std::vector<ImportedFile> data_files;  // measured runtimes, one file per task category
  std::vector<pdl::Diagnostic> notes;    // what the reader decided, located in the input
};

// `imported` is set exactly when `diagnostics` hold no error.
struct ImportResult {
  std::optional<Imported> imported;
  std::vector<pdl::Diagnostic> diagnostics;
};

// What a reader reads: the input's text and the name its diagnostics give it. The command may
// hold only the first part of a large input (as much as the memory budget allows it to hold
// beside what the reader builds): `whole_bytes` is then the input's real size, larger than
// `text.size()`, and a reader that reaches the end of `text` refuses the input there.
struct ImportInput {
  std::string filename;
  std::string_view text;
  std::uintmax_t whole_bytes = 0;  // 0 (or text.size()): `text` is the whole input

  bool cut() const { return whole_bytes > text.size(); }
};

// Bounds every reader keeps, so that a hostile input is refused at the place it crosses one
// instead of exhausting the machine: the program's text may not pass what the PDL reader takes
// (pdl::kMaxSourceBytes), and what the reader holds may not pass the memory budget.
struct ImportLimits {
  std::size_t max_program_bytes = 0;    // 0: pdl::kMaxSourceBytes
  std::size_t memory_budget_bytes = 0;  // 0: no budget beyond the program's size
};

}  // namespace importers
