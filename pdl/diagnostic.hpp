// Diagnostics as compilers print them, and the source text they point into.
#pragma once

#include "models/program.hpp"

#include <boost/spirit/home/x3/support/ast/position_tagged.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pdl {

enum class Severity { Error, Warning, Note };

struct Diagnostic {
  Severity severity = Severity::Error;
  std::string file;
  std::size_t line = 0;    // 1-based
  std::size_t column = 0;  // 1-based, in bytes
  std::string message;
  std::string source_line;  // the line of the source, printable, possibly shortened
  std::size_t caret = 0;    // 0-based position of the caret in source_line
};

// "file:line:col: error: message", then the source line and a caret under the column.
std::string format(const Diagnostic& diagnostic);
std::string format(const std::vector<Diagnostic>& diagnostics);
bool has_errors(const std::vector<Diagnostic>& diagnostics);

// A piece of the input quoted in a message: as it is up to 64 bytes, else its first 48 bytes,
// "..." and its length, so that an 8 MB field makes a short message (the source line under it
// is shortened too).
std::string excerpt(std::string_view text);
std::size_t count(const std::vector<Diagnostic>& diagnostics, Severity severity);

// A file's name and text, and the source ranges of the AST nodes the parser tagged.
class Source {
 public:
  Source() = default;
  Source(std::string filename, std::string text);

  const std::string& filename() const { return filename_; }
  const std::string& text() const { return text_; }

  // Records the range [begin, end) (offsets) of a node; returns its id.
  int add_range(std::size_t begin, std::size_t end);
  // Offset of a tagged node; 0 when the node was never tagged.
  std::size_t offset(const boost::spirit::x3::position_tagged& node) const;

  Diagnostic diagnose(Severity severity, std::size_t offset, std::string message) const;
  Diagnostic diagnose(Severity severity, const boost::spirit::x3::position_tagged& node, std::string message) const;
  models::SourceLocation location(std::size_t offset) const;
  // The offset of a line and column of this file (the inverse of location()).
  std::size_t offset(const models::SourceLocation& location) const;
  models::SourceLocation location(const boost::spirit::x3::position_tagged& node) const;

 private:
  std::pair<std::size_t, std::size_t> line_column(std::size_t offset) const;

  std::string filename_;
  std::string text_;
  std::vector<std::size_t> line_starts_;
  std::vector<std::pair<std::size_t, std::size_t>> ranges_;
};

}  // namespace pdl
