// Writing a result file (-o, --plot) whole or not at all, wherever it points (docs/cli.md,
// "Output files").
#pragma once

#include <string>

#include "app/usage_error.hpp"

namespace app {

// A file a mode writes, with the option that names it in messages ("-o", "--plot").
struct OutputFile {
  std::string option;
  std::string path;
};

// Where a write to `path` lands: the path with every symbolic link followed, also a last link
// that dangles (the file is then created where it points). The path itself when it is no
// link, or when the links cannot be followed (a loop: the write then fails with its reason).
std::string landing_path(const std::string& path);

// Without writing anything, whether write_output_file(file, ...) can succeed; checked before a
// run that may be long, so that it does not end in a failed write. Refused as "OPTION: cannot
// write 'PATH': REASON": a directory, a missing or unwritable directory for a new file, a
// read-only file (see write_output_file), a device that does not open for writing, a FIFO
// without write permission, a socket.
Check check_output_path(const OutputFile& file);

// Writes `contents` to `file.path`:
// - a regular file or a new one: into a TemporaryFile (temporary_file.hpp) beside the file
//   the path lands on (through symbolic links, which stay), synced, then renamed over it, so
//   that a reader sees the old file or the complete new one, never a part. An existing file
//   keeps its permission bits (and, where the process may set them, its owner and group); a
//   new one gets 0666 & ~umask. A read-only file is not replaced: the user made it so.
// - a character or block device or a FIFO (/dev/null, a terminal, a named pipe): opened and
//   written in place, neither replaced nor renamed (a FIFO blocks until a reader opens it).
// Refused as "OPTION: cannot write 'PATH': REASON" when it fails; no temporary file is left
// behind then.
Check write_output_file(const OutputFile& file, const std::string& contents);

}  // namespace app
