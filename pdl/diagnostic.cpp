#include "pdl/diagnostic.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace pdl {

namespace {

const char* label(Severity severity) {
  switch (severity) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
  }
  return "error";
}

// Very long lines (a generated or binary file) are shown as a window around the column.
constexpr std::size_t kMaxShownLine = 160;

}  // namespace

std::string format(const Diagnostic& d) {
  std::string out = fmt::format("{}:{}:{}: {}: {}\n", d.file, d.line, d.column, label(d.severity), d.message);
  if (d.line > 0) {
    out += d.source_line;
    out += '\n';
    // Tabs in the source line are kept under the caret so that it lines up in a terminal.
    for (std::size_t i = 0; i < d.caret && i < d.source_line.size(); ++i) {
      out += d.source_line[i] == '\t' ? '\t' : ' ';
    }
    out += "^\n";
  }
  return out;
}

std::string format(const std::vector<Diagnostic>& diagnostics) {
  std::string out;
  for (const Diagnostic& d : diagnostics) out += format(d);
  return out;
}

std::string excerpt(std::string_view text) {
  constexpr std::size_t kWhole = 64, kShown = 48;
  if (text.size() <= kWhole) return std::string(text);
  std::size_t cut = kShown;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 character
  return fmt::format("{}... ({} bytes)", text.substr(0, cut), text.size());
}

bool has_errors(const std::vector<Diagnostic>& diagnostics) { return count(diagnostics, Severity::Error) > 0; }

std::size_t count(const std::vector<Diagnostic>& diagnostics, Severity severity) {
  return static_cast<std::size_t>(std::count_if(diagnostics.begin(), diagnostics.end(),
                                                [severity](const Diagnostic& d) { return d.severity == severity; }));
}

Source::Source(std::string filename, std::string text) : filename_(std::move(filename)), text_(std::move(text)) {
  line_starts_.push_back(0);
  for (std::size_t i = 0; i < text_.size(); ++i) {
    if (text_[i] == '\n') line_starts_.push_back(i + 1);
  }
}

int Source::add_range(std::size_t begin, std::size_t end) {
  ranges_.emplace_back(begin, end);
  return static_cast<int>(ranges_.size() - 1);
}

std::size_t Source::offset(const boost::spirit::x3::position_tagged& node) const {
  if (node.id_first < 0 || static_cast<std::size_t>(node.id_first) >= ranges_.size()) return 0;
  return ranges_[static_cast<std::size_t>(node.id_first)].first;
}

std::pair<std::size_t, std::size_t> Source::line_column(std::size_t offset) const {
  offset = std::min(offset, text_.size());
  const auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  const std::size_t line = static_cast<std::size_t>(it - line_starts_.begin());  // 1-based
  return {line, offset - line_starts_[line - 1] + 1};
}

models::SourceLocation Source::location(std::size_t offset) const {
  const auto [line, column] = line_column(offset);
  return {filename_, line, column};
}

std::size_t Source::offset(const models::SourceLocation& location) const {
  if (location.line == 0 || location.line > line_starts_.size()) return 0;
  return std::min(text_.size(), line_starts_[location.line - 1] + (location.column > 0 ? location.column - 1 : 0));
}

models::SourceLocation Source::location(const boost::spirit::x3::position_tagged& node) const {
  return location(offset(node));
}

Diagnostic Source::diagnose(Severity severity, std::size_t offset, std::string message) const {
  Diagnostic d;
  d.severity = severity;
  d.file = filename_;
  d.message = std::move(message);
  const auto [line, column] = line_column(offset);
  d.line = line;
  d.column = column;
  const std::size_t start = line_starts_[line - 1];
  std::size_t end = text_.find('\n', start);
  if (end == std::string::npos) end = text_.size();
  if (end > start && text_[end - 1] == '\r') --end;
  std::size_t first = start;
  std::size_t last = end;
  std::size_t caret = column - 1;
  std::string prefix;
  std::string suffix;
  if (last - first > kMaxShownLine) {
    const std::size_t at = start + caret;
    first = at > start + kMaxShownLine / 2 ? at - kMaxShownLine / 2 : start;
    last = std::min(end, first + kMaxShownLine);
    if (first > start) prefix = "...";
    if (last < end) suffix = "...";
    caret = at - first + prefix.size();
  }
  d.source_line = prefix;
  for (std::size_t i = first; i < last; ++i) {
    const auto c = static_cast<unsigned char>(text_[i]);
    // Keep the line printable whatever the file holds (binary garbage, UTF-8 is kept).
    d.source_line += (c == '\t' || c >= 0x80 || (c >= 0x20 && c < 0x7f)) ? static_cast<char>(c) : '?';
  }
  d.source_line += suffix;
  d.caret = caret;
  return d;
}

Diagnostic Source::diagnose(Severity severity, const boost::spirit::x3::position_tagged& node,
                            std::string message) const {
  return diagnose(severity, offset(node), std::move(message));
}

}  // namespace pdl
