// The formats `pdl-scale import FORMAT FILE` reads: one line each in formats.cpp, so that a new
// reader is its own files and one more line (docs/import.md).
#pragma once

#include "importers/imported.hpp"

#include <span>
#include <string>
#include <string_view>

namespace importers {

// The choices of the command that a reader may read; a reader ignores those of other formats.
struct ReadOptions {
  bool keep_auxiliary = true;  // wfformat: Pegasus's staging and bookkeeping jobs stay tasks
};

using Reader = ImportResult (*)(const ImportInput& input, const ImportLimits& limits, const ReadOptions& options);

struct Format {
  std::string_view name;       // as the command takes it: "goal"
  std::string_view describes;  // what it reads, for the help
  Reader read;
};

std::span<const Format> formats();

// The format of that name, or null.
const Format* format_named(std::string_view name);

// "goal, wfformat": the names, for a message.
std::string format_names();

}  // namespace importers
