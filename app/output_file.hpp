// Writing a result file (-o, --plot) whole or not at all, wherever it points (docs/cli.md,
// "Output files").
#pragma once

#include <optional>
#include <string>

namespace app {

// Where a write to `path` lands: the path with every symbolic link followed, also a last link
// that dangles (the file is then created where it points). The path itself when it is no
// link, or when the links cannot be followed (a loop: the write then fails with its reason).
std::string landing_path(const std::string& path);

// Without writing anything, whether write_output_file(path, ...) can succeed; checked before a
// run that may be long, so that it does not end in a failed write. Nothing when it can, else
// "cannot write 'PATH': REASON": a directory, a missing or unwritable directory for a new
// file, a read-only file (see write_output_file), a device that does not open for writing, a
// FIFO without write permission, a socket.
std::optional<std::string> check_output_path(const std::string& path);

// Writes `contents` to `path`:
// - a regular file or a new one: into a TemporaryFile (temporary_file.hpp) beside the file
//   the path lands on (through symbolic links, which stay), synced, then renamed over it, so
//   that a reader sees the old file or the complete new one, never a part. An existing file
//   keeps its permission bits (and, where the process may set them, its owner and group); a
//   new one gets 0666 & ~umask. A read-only file is not replaced: the user made it so.
// - a character or block device or a FIFO (/dev/null, a terminal, a named pipe): opened and
//   written in place, neither replaced nor renamed (a FIFO blocks until a reader opens it).
// Returns nothing on success, else "cannot write 'PATH': REASON"; no temporary file is left
// behind then.
std::optional<std::string> write_output_file(const std::string& path, const std::string& contents);

}  // namespace app
