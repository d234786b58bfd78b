#include "app/output_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>

#include <sys/stat.h>
#include <unistd.h>

namespace app {

namespace {

std::string cannot_write(const std::string& path, const std::string& why) {
  return "cannot write '" + path + "': " + why;
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
  return ::fsync(fd) != 0 ? errno : 0;
}

}  // namespace

std::optional<std::string> write_file_atomically(const std::string& path, const std::string& contents) {
  const std::filesystem::path target(path);
  std::error_code ignored;
  if (path.empty() || std::filesystem::is_directory(target, ignored)) return cannot_write(path, "not a file name");
  std::filesystem::path directory = target.parent_path();
  if (directory.empty()) directory = ".";
  std::string hidden_name = target.filename().string();
  hidden_name.insert(0, 1, '.');
  hidden_name.append(".XXXXXX");
  std::string temporary = (directory / hidden_name).string();
  const int fd = ::mkstemp(temporary.data());
  if (fd < 0) return cannot_write(path, std::strerror(errno));
  if (const int error = write_all(fd, contents); error != 0) {
    ::close(fd);
    std::remove(temporary.c_str());
    return cannot_write(path, std::strerror(error));
  }
  // mkstemp creates the file 0600; a result file is as readable as any other the user writes.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, 0666 & ~mask);
  if (::close(fd) != 0) {
    const int error = errno;
    std::remove(temporary.c_str());
    return cannot_write(path, std::strerror(error));
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const int error = errno;
    std::remove(temporary.c_str());
    return cannot_write(path, std::strerror(error));
  }
  return std::nullopt;
}

}  // namespace app
