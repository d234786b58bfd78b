// The command line: CLI11 fills app::Options (enums through transformers, the analysis's
// knobs straight into Options::request, so their defaults are the analysis library's).
#pragma once

#include <optional>
#include <ostream>
#include <string>

#include "app/options.hpp"

namespace app {

// Parses argv into *options. Returns an exit status when the command is already done (--help
// and --version printed on `out`, a usage error on `err`), nothing when the command should run.
// Prints nowhere else: through Python the streams are the exception's text.
std::optional<int> parse_command_line(int argc, char** argv, Options* options, std::ostream& out, std::ostream& err);

// The help text (printed when no file is given).
std::string help_text();

}  // namespace app
