#include "importers/located.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "pdl/parse.hpp"

namespace importers {

pdl::Diagnostic diagnose(const ImportInput& input, Place place, pdl::Severity severity, std::string message) {
  const std::string_view text = input.text;
  const std::size_t offset = std::min(place.offset, text.size());
  const std::size_t previous_newline = offset == 0 ? std::string_view::npos : text.rfind('\n', offset - 1);
  const std::size_t start = previous_newline == std::string_view::npos ? 0 : previous_newline + 1;
  const std::size_t end = std::min(text.find('\n', offset), text.size());
  const pdl::Source line(input.filename, std::string(text.substr(start, end - start)));
  pdl::Diagnostic diagnostic = line.diagnose(severity, offset - start, std::move(message));
  diagnostic.line = place.line;
  return diagnostic;
}

Holdings::Holdings(const ImportInput& input, const ImportLimits& limits)
    : input_bytes_(input.text.size()),
      memory_budget_bytes_(limits.memory_budget_bytes),
      max_program_bytes_(limits.max_program_bytes == 0 ? pdl::kMaxSourceBytes : limits.max_program_bytes) {}

std::optional<std::string> Holdings::add(std::size_t table_bytes, std::size_t program_bytes) {
  table_bytes_ += table_bytes;
  program_bytes_ += program_bytes;
  if (program_bytes_ > max_program_bytes_) {
    return program_too_large(max_program_bytes_);
  }
  const std::size_t held = input_bytes_ + table_bytes_ + program_bytes_;
  if (memory_budget_bytes_ > 0 && held > memory_budget_bytes_) {
    return fmt::format(
        "reading the input up to here holds about {} (the input, the reader's tables and the program "
        "so far), more than the memory budget of {}",
        size_text(held), size_text(memory_budget_bytes_));
  }
  return std::nullopt;
}

std::string program_too_large(std::size_t max_program_bytes) {
  return fmt::format(
      "the imported program passes {} here, the most the PDL reader takes: the input is too large to "
      "import whole",
      size_text(max_program_bytes));
}

std::string cut_input_reason(const ImportInput& input, const ImportLimits& limits) {
  return fmt::format(
      "the input is {}; within the memory budget of {} the import holds only its first {} beside "
      "what it builds from them, and they end here",
      size_text(input.whole_bytes), size_text(limits.memory_budget_bytes), size_text(input.text.size()));
}

std::string size_text(std::uintmax_t bytes) {
  constexpr std::uintmax_t kKiB = 1024, kMiB = kKiB * 1024, kGiB = kMiB * 1024;
  const auto in = [bytes](std::uintmax_t unit) { return static_cast<double>(bytes) / static_cast<double>(unit); };
  if (bytes >= kGiB) return fmt::format("{:.1f} GiB", in(kGiB));
  if (bytes >= kMiB) return fmt::format("{:.1f} MiB", in(kMiB));
  if (bytes >= kKiB) return fmt::format("{:.1f} KiB", in(kKiB));
  return fmt::format("{} bytes", bytes);
}

}  // namespace importers
