#include "pdl/file_reader.hpp"

#include <array>
#include <cerrno>
#include <filesystem>
#include <fstream>

namespace pdl {

FileFacts read_file(const std::string& path, std::size_t limit) {
  FileFacts facts;
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  facts.exists = !ec && std::filesystem::exists(status);
  facts.directory = facts.exists && std::filesystem::is_directory(status);
  facts.regular = facts.exists && std::filesystem::is_regular_file(status);
  if (facts.regular) {
    facts.size = std::filesystem::file_size(path, ec);
    if (ec) facts.size = 0;
  }
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    facts.open_error = errno != 0 ? errno : ENOENT;
    return facts;
  }
  // In chunks up to one byte past the limit: a huge file is refused without being read whole.
  std::array<char, 1 << 16> chunk;
  while (facts.text.size() <= limit) {
    in.read(chunk.data(), static_cast<std::streamsize>(std::min(chunk.size(), limit + 1 - facts.text.size())));
    facts.text.append(chunk.data(), static_cast<std::size_t>(in.gcount()));
    if (!in) break;
  }
  facts.read_error = in.bad();
  return facts;
}

}  // namespace pdl
