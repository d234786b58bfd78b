// --set-file FILE (docs/calibration.md): a file of --set lines, as --write-fit writes them, read
// into the --set values with every refusal located at its line and column of the file.
#pragma once

#include <string>
#include <vector>

#include "app/usage_error.hpp"
#include "pdl/file_reader.hpp"

namespace app {

// Every line NAME=VALUE (or `--set NAME=VALUE`, as --write-fit writes them) in the file's order,
// `#` comments and blank lines ignored. Refused with a located message when the file cannot be
// read or a line is not of that form or its value does not parse as --set's.
Checked<std::vector<std::string>> read_set_file(const std::string& file, const pdl::FileReader& read);

}  // namespace app
