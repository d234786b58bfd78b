// Writing a result file whole or not at all.
#pragma once

#include <optional>
#include <string>

namespace app {

// Writes `contents` to a temporary file beside `path` and renames it over `path`, so a reader
// sees the old file or the complete new one, never a part. Returns nothing on success, else
// "cannot write 'PATH': REASON" with the system's reason; nothing is left behind then.
std::optional<std::string> write_file_atomically(const std::string& path, const std::string& contents);

}  // namespace app
