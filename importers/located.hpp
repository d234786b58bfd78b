// Places in a reader's input and the diagnostics at them, shown as the PDL reader shows its own
// (file:line:col, the source line, a caret: pdl::format), and the bounds a reader keeps while it
// reads (ImportLimits), each refused at the place of the input where it is crossed.
#pragma once

#include "importers/imported.hpp"

#include <cstddef>
#include <optional>
#include <string>

namespace importers {

// A place in the input: a byte offset and the line (from 1) that holds it. A reader counts lines
// as it goes, so that a diagnostic needs no pass over the text before it.
struct Place {
  std::size_t offset = 0;
  std::size_t line = 1;
};

// A diagnostic at `place` of the input, built by pdl::Source::diagnose from the one line that
// holds it (a long line is shown as a window around the column), so that a diagnostic at the end
// of a large input copies one line, not the input.
pdl::Diagnostic diagnose(const ImportInput& input, Place place, pdl::Severity severity, std::string message);

// What a reader holds against its bounds: the input's text (which the command holds whole from
// the start), an estimate of the bytes of its own tables, and the bytes of the program it will
// write. Each add says which bound it crosses, if any, in a sentence for a diagnostic.
class Holdings {
 public:
  Holdings(const ImportInput& input, const ImportLimits& limits);

  // Adds `table_bytes` to the reader's tables and `program_bytes` to the program; the reason to
  // refuse when either bound is then passed, else nothing.
  std::optional<std::string> add(std::size_t table_bytes, std::size_t program_bytes);

  std::size_t max_program_bytes() const { return max_program_bytes_; }

 private:
  std::size_t input_bytes_;
  std::size_t memory_budget_bytes_;
  std::size_t max_program_bytes_;
  std::size_t table_bytes_ = 0;
  std::size_t program_bytes_ = 0;
};

// The reason to refuse a program that passes `max_program_bytes` at the place where it does.
std::string program_too_large(std::size_t max_program_bytes);

// The reason to refuse a cut input (ImportInput::cut) at the end of the part the command holds.
std::string cut_input_reason(const ImportInput& input, const ImportLimits& limits);

// "512 MiB", "3.5 KiB", "100 bytes": a size in a message.
std::string size_text(std::uintmax_t bytes);

}  // namespace importers
