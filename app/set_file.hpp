// --set-file FILE (docs/calibration.md): a file of --set lines, as --write-fit writes them, read
// into the --set values with every refusal located at its line and column of the file.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "pdl/file_reader.hpp"

namespace app {

// Every line NAME=VALUE (or `--set NAME=VALUE`, as --write-fit writes them), `#` comments and
// blank lines ignored, appended to `sets`. False with a located message when the file cannot be
// read or a line is not of that form or its value does not parse as --set's.
bool read_set_file(const std::string& file, std::vector<std::string>& sets, const pdl::FileReader& read,
                   std::ostream& err);

}  // namespace app
