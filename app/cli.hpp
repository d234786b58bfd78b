// The command line: CLI11 fills app::Options (enums through transformers, the analysis's
// knobs straight into Options::request, so their defaults are the analysis library's).
#pragma once

#include <optional>
#include <ostream>
#include <string>

#include "app/command.hpp"
#include "app/options.hpp"

namespace app {

// The command argv asks for (argv[0] first): parsed into `options`, which may come with its
// read_file and output_rank set, and made into one mode (command_from); --help and --version as
// a TextCommand, `pdl-scale fit ...` as a FitCommand, or why the line is refused. Prints
// nothing: the command's main() and Python print or raise with the refusal's text.
analysis::Outcome<Command, UsageError> parse_command_line(int argc, char** argv, Options options);

// The help text (printed when no file is given).
std::string help_text();

}  // namespace app
