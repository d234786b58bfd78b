// How the checker and the command read their input files: from disk in one process, or, in a
// job of several ranks, by rank 0 for every rank (app/shared_input.hpp), so that the ranks
// see the same bytes and the file system is read once (docs/scale-out.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace pdl {

// What reading a file found, as plain facts each caller words in its own messages.
struct FileFacts {
  bool exists = false;
  bool directory = false;
  bool regular = false;
  std::uintmax_t size = 0;  // of a regular file
  int open_error = 0;       // errno when it exists but does not open, else 0
  bool read_error = false;  // opened, but reading failed part way
  std::string text;         // its first limit + 1 bytes at most: more than `limit` is "too large"
};

// Reads `path` from this process's file system.
FileFacts read_file(const std::string& path, std::size_t limit);

// A way to read a file: read_file, or one shared by the ranks of a job.
using FileReader = std::function<FileFacts(const std::string& path, std::size_t limit)>;

}  // namespace pdl
