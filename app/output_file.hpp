// Writing a result file whole or not at all.
#pragma once

#include <string>

namespace app {

// Writes `contents` to a temporary file beside `path` and renames it over `path`, so a reader
// sees the old file or the complete new one, never a part. Throws std::runtime_error with the
// path and the system's reason when the file cannot be written; nothing is left behind then.
void write_file_atomically(const std::string& path, const std::string& contents);

}  // namespace app
