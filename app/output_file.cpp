#include "app/output_file.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/temporary_file.hpp"

namespace app {

namespace {

// "OPTION: cannot write 'PATH': WHY" as a refusal.
Refusal cannot_write(const OutputFile& file, const std::string& why) {
  return refuse(fmt::format("{}: cannot write '{}': {}", file.option, file.path, why));
}

// Writes every byte to fd, retrying interrupted and partial writes; 0 or the errno.
int write_all(int fd, const std::string& contents) {
  const char* data = contents.data();
  std::size_t left = contents.size();
  while (left > 0) {
    const ssize_t written = ::write(fd, data, left);
    if (written < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    data += written;
    left -= static_cast<std::size_t>(written);
  }
  return 0;
}

// The file a path lands on, as the write will find it.
struct Landing {
  std::string path;  // landing_path()
  bool exists = false;
  int error = 0;          // stat's errno when it failed other than by the file's absence
  struct stat status {};  // when it exists
};

Landing land(const std::string& path) {
  Landing landing;
  landing.path = landing_path(path);
  if (::stat(landing.path.c_str(), &landing.status) == 0) {
    landing.exists = true;
  } else if (errno != ENOENT && errno != ENOTDIR) {  // absent: check_replace() says why
    landing.error = errno;
  }
  return landing;
}

// Devices and FIFOs are written through: replacing them by a regular file would break them
// (a `-o /dev/null` run as root would leave a file named /dev/null for every later program).
bool written_in_place(const struct stat& status) {
  return S_ISCHR(status.st_mode) || S_ISBLK(status.st_mode) || S_ISFIFO(status.st_mode);
}

std::string directory_of(const std::string& landing_path) {
  const std::filesystem::path directory = std::filesystem::path(landing_path).parent_path();
  return directory.empty() ? std::string(".") : directory.string();
}

// A device or FIFO that cannot be written refused.
Check check_in_place(const OutputFile& file, const Landing& landing) {
  if (S_ISFIFO(landing.status.st_mode)) {
    // Only the permission: opening a FIFO now would block until a reader comes, and closing
    // it again would give that reader an end of file before the report.
    if (::access(landing.path.c_str(), W_OK) != 0) return cannot_write(file, std::strerror(errno));
    return passed();
  }
  const int fd = ::open(landing.path.c_str(), O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return cannot_write(file, std::strerror(errno));
  ::close(fd);
  return passed();
}

// A new file that cannot be created at the landing path, or an existing regular one that cannot
// be replaced there, refused.
Check check_replace(const OutputFile& file, const Landing& landing) {
  const std::string directory = directory_of(landing.path);
  struct stat status {};
  if (::stat(directory.c_str(), &status) != 0) {
    if (errno == ENOENT) return cannot_write(file, fmt::format("the directory '{}' does not exist", directory));
    return cannot_write(file, fmt::format("the directory '{}': {}", directory, std::strerror(errno)));
  }
  if (!S_ISDIR(status.st_mode)) return cannot_write(file, fmt::format("'{}' is not a directory", directory));
  // The temporary file is created there and renamed: the directory itself must be writable.
  if (::access(directory.c_str(), W_OK | X_OK) != 0) {
    return cannot_write(file, fmt::format("cannot create a file in '{}': {}", directory, std::strerror(errno)));
  }
  if (!landing.exists) return passed();
  // The write bits, not access(): root may write any file, but a file nobody may write was
  // made read-only on purpose, and replacing it would undo that silently.
  const mode_t mode = landing.status.st_mode & 07777;
  if ((mode & 0222) == 0) {
    return cannot_write(file, fmt::format("it is read-only (mode {:04o}); pdl-scale does not replace a read-only "
                                          "file: make it writable (chmod u+w) or remove it",
                                          mode));
  }
  if (::access(landing.path.c_str(), W_OK) != 0) return cannot_write(file, std::strerror(errno));
  return passed();
}

// The replaced file's permission bits on the temporary file, and its owner and group where
// the process may give them (root, or a group it belongs to): best effort, as cp -p does.
int keep_mode(int fd, const struct stat& replaced) {
  [[maybe_unused]] const int ignored = ::fchown(fd, replaced.st_uid, replaced.st_gid);
  return ::fchmod(fd, replaced.st_mode & 07777) != 0 ? errno : 0;
}

Check write_in_place(const OutputFile& file, const Landing& landing, const std::string& contents) {
  const int fd = ::open(landing.path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return cannot_write(file, std::strerror(errno));
  int error = write_all(fd, contents);
  if (::close(fd) != 0 && error == 0) error = errno;
  if (error != 0) return cannot_write(file, std::strerror(error));
  return passed();
}

Check replace(const OutputFile& file, const Landing& landing, const std::string& contents) {
  int error = 0;
  TemporaryFile temporary = TemporaryFile::create(directory_of(landing.path),
                                                  std::filesystem::path(landing.path).filename().string(), &error);
  if (!temporary.valid()) return cannot_write(file, std::strerror(error));
  error = write_all(temporary.fd(), contents);
  // Synced before the rename: after a crash the name holds the old file or the new one whole.
  if (error == 0 && ::fsync(temporary.fd()) != 0) error = errno;
  if (error == 0 && landing.exists) error = keep_mode(temporary.fd(), landing.status);
  if (error == 0) error = temporary.close_and_rename_over(landing.path);
  if (error != 0) return cannot_write(file, std::strerror(error));  // ~TemporaryFile removes it
  return passed();
}

}  // namespace

std::string landing_path(const std::string& path) {
  // The kernel's own limit on links followed in one lookup (MAXSYMLINKS).
  constexpr int kMaxLinks = 40;
  std::filesystem::path current(path);
  for (int hop = 0; hop < kMaxLinks; ++hop) {
    struct stat status {};
    if (::lstat(current.c_str(), &status) != 0 || !S_ISLNK(status.st_mode)) return current.string();
    std::error_code error;
    const std::filesystem::path target = std::filesystem::read_symlink(current, error);
    if (error) return current.string();
    current = target.is_absolute() ? target : current.parent_path() / target;
  }
  return path;
}

Check check_output_path(const OutputFile& file) {
  if (file.path.empty()) return cannot_write(file, "not a file name");
  const Landing landing = land(file.path);
  if (landing.error != 0) return cannot_write(file, std::strerror(landing.error));
  if (landing.exists) {
    const mode_t type = landing.status.st_mode;
    if (S_ISDIR(type)) return cannot_write(file, "it is a directory");
    if (S_ISSOCK(type)) return cannot_write(file, "it is a socket");
    if (written_in_place(landing.status)) return check_in_place(file, landing);
  }
  if (std::filesystem::path(landing.path).filename().empty()) return cannot_write(file, "not a file name");
  return check_replace(file, landing);
}

Check write_output_file(const OutputFile& file, const std::string& contents) {
  // The same refusals at the end of a run as at its start: the target may have changed since.
  if (Check writable = check_output_path(file); !writable.ok()) return writable;
  const Landing landing = land(file.path);
  if (landing.exists && written_in_place(landing.status)) return write_in_place(file, landing, contents);
  return replace(file, landing, contents);
}

}  // namespace app
