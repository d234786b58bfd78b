// The parser's error handler: tags AST nodes with their source range (for the semantic
// pass) and turns X3 expectation failures into diagnostics. Messages are keyed by the name
// of the rule (or keyword) that was expected.
#pragma once

#include "pdl/diagnostic.hpp"

#include <boost/spirit/home/x3/support/ast/position_tagged.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace pdl::parser {

using iterator_type = const char*;

class ErrorHandler {
 public:
  ErrorHandler(Source& source, std::vector<Diagnostic>& diagnostics)
      : source_(source),
        diagnostics_(diagnostics),
        begin_(source.text().data()),
        end_(source.text().data() + source.text().size()) {}

  iterator_type begin() const { return begin_; }
  iterator_type end() const { return end_; }

  // Called by the rules' on_success: records where a position-tagged node came from.
  template <typename Node>
  void tag(Node& node, iterator_type first, iterator_type last) {
    if constexpr (std::is_base_of_v<boost::spirit::x3::position_tagged, std::remove_cv_t<Node>>) {
      const int id =
          source_.add_range(static_cast<std::size_t>(first - begin_), static_cast<std::size_t>(last - begin_));
      node.id_first = id;
      node.id_last = id;
    }
  }

  // Reports that `expected` (a rule or keyword name) was expected at `where`.
  void expected(iterator_type where, std::string_view expected);
  // Reports any message at `where`.
  void error(iterator_type where, std::string message);

  // Where the last reported error was, for the parser's resynchronisation.
  std::optional<iterator_type> last_error() const { return last_error_; }
  void clear_last_error() { last_error_.reset(); }

 private:
  Source& source_;
  std::vector<Diagnostic>& diagnostics_;
  iterator_type begin_;
  iterator_type end_;
  std::optional<iterator_type> last_error_;
};

// The text of the token at `where` for messages ("found 'foo'"), or "end of file".
std::string describe_token(iterator_type where, iterator_type end);

}  // namespace pdl::parser
