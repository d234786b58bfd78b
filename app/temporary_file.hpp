// The temporary file a result is written into before it is renamed over its target, and its
// removal on every way out: a failed write, an exception, and SIGINT, SIGTERM or SIGHUP
// arriving while it exists.
#pragma once

#include <optional>
#include <string>

namespace app {

// A new file beside its target, named ".NAME.XXXXXX" (NAME the target's file name, XXXXXX six
// random letters and digits, as mkstemp names them): hidden, and recognisably the target's.
// It is created 0666 & ~umask, so that a new result is as readable as any file the user
// writes. Until it is renamed over its target, the destructor removes it, and so does a
// SIGINT, SIGTERM or SIGHUP delivered to any thread of the process, which then ends the
// process by the same signal with its default action (a signal the process ignores stays
// ignored). One temporary file exists at a time: -o and --plot are written one after the other.
class TemporaryFile {
 public:
  // A fresh file in `directory` for the target file name `name`; the errno on failure.
  static TemporaryFile create(const std::string& directory, const std::string& name, int* error);

  TemporaryFile(TemporaryFile&& other) noexcept;
  TemporaryFile& operator=(TemporaryFile&&) = delete;
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;
  ~TemporaryFile();

  bool valid() const { return fd_ >= 0; }
  int fd() const { return fd_; }
  const std::string& path() const { return path_; }

  // Closes the file and renames it over `target`: 0, or the errno (the file is then removed
  // by the destructor).
  int close_and_rename_over(const std::string& target);

 private:
  TemporaryFile() = default;
  std::string path_;
  int fd_ = -1;
  bool renamed_ = false;
};

// What the signal handler does before it re-raises the signal, callable directly (tests):
// removes the temporary file that exists now, if any, and forgets it. Async-signal-safe.
void remove_pending_temporary() noexcept;

// The temporary file that exists now, if any (tests).
std::optional<std::string> pending_temporary();

}  // namespace app
