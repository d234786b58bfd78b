// The iterator, skipper and context types the grammar is instantiated for (one set, used by
// grammar.cpp to instantiate and by parse.cpp to call the rules).
#pragma once

#include "pdl/error_handler.hpp"

#include <boost/spirit/home/x3.hpp>
#include <boost/spirit/home/x3/support/utility/error_reporting.hpp>

#include <functional>

namespace pdl::parser {

namespace x3 = boost::spirit::x3;

// Skips one run of white space or one comment (// to the end of the line, /* ... */).
// Plain code rather than an X3 expression: it runs between every two tokens. An
// unterminated /* is left in place for the lexical check to report.
struct Skipper : x3::parser<Skipper> {
  using attribute_type = x3::unused_type;
  static bool const has_attribute = false;

  template <typename Iterator, typename Context, typename RContext, typename Attribute>
  bool parse(Iterator& first, Iterator const& last, Context const&, RContext&, Attribute&) const {
    Iterator it = first;
    while (it != last && (*it == ' ' || *it == '\t' || *it == '\n' || *it == '\r' || *it == '\f' || *it == '\v')) {
      ++it;
    }
    if (it == first && last - it >= 2 && it[0] == '/') {
      if (it[1] == '/') {
        while (it != last && *it != '\n') ++it;
      } else if (it[1] == '*') {
        Iterator end = it + 2;
        while (last - end >= 2 && !(end[0] == '*' && end[1] == '/')) ++end;
        if (last - end >= 2) it = end + 2;
      }
    }
    const bool moved = it != first;
    first = it;
    return moved;
  }
};

using skipper_type = Skipper;
using phrase_context_type = decltype(x3::make_context<x3::skipper_tag>(std::declval<skipper_type const&>()));
using context_type = decltype(x3::make_context<x3::error_handler_tag>(
    std::declval<std::reference_wrapper<ErrorHandler>&>(), std::declval<phrase_context_type const&>()));

}  // namespace pdl::parser
