#include "app/output_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include <sys/stat.h>
#include <unistd.h>

namespace app {

void write_file_atomically(const std::string& path, const std::string& contents) {
  const std::filesystem::path target(path);
  if (path.empty() || std::filesystem::is_directory(target)) {
    throw std::runtime_error("cannot write '" + path + "': not a file name");
  }
  std::filesystem::path directory = target.parent_path();
  if (directory.empty()) directory = ".";
  std::string hidden_name = target.filename().string();
  hidden_name.insert(0, 1, '.');
  hidden_name.append(".XXXXXX");
  std::string temporary = (directory / hidden_name).string();
  const int fd = ::mkstemp(temporary.data());
  if (fd < 0) {
    throw std::runtime_error("cannot write '" + path + "': " + std::strerror(errno));
  }
  auto fail = [&](int error) {
    ::close(fd);
    std::remove(temporary.c_str());
    throw std::runtime_error("cannot write '" + path + "': " + std::strerror(error));
  };
  const char* data = contents.data();
  std::size_t left = contents.size();
  while (left > 0) {
    const ssize_t written = ::write(fd, data, left);
    if (written < 0) {
      if (errno == EINTR) continue;
      fail(errno);
    }
    data += written;
    left -= static_cast<std::size_t>(written);
  }
  if (::fsync(fd) != 0) fail(errno);
  // mkstemp creates the file 0600; a result file is as readable as any other the user writes.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, 0666 & ~mask);
  if (::close(fd) != 0) {
    std::remove(temporary.c_str());
    throw std::runtime_error("cannot write '" + path + "': " + std::strerror(errno));
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const int error = errno;
    std::remove(temporary.c_str());
    throw std::runtime_error("cannot write '" + path + "': " + std::strerror(error));
  }
}

}  // namespace app
