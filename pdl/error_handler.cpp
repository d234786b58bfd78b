#include "pdl/error_handler.hpp"

#include <fmt/format.h>

#include <array>
#include <utility>

namespace pdl::parser {

namespace {

bool is_word(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }

// What to say when a rule (by its name) or keyword was expected.
std::string expectation_message(std::string_view expected) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 18> kMessages{{
      {"distribution",
       "a distribution: DETERMINISTIC, EXPONENTIAL, ERLANG, GERLANG, HYPEREXPONENTIAL, UNIFORM, "
       "NORMAL, PHASETYPE, MIXTURE, SAMPLES, HISTOGRAM or NUMERICAL"},
      {"parallelization scheme",
       "a parallelization scheme: INDEPENDENT, NEIGHBOR, NEIGHBOR-TORUS, MACROPIPELINE, "
       "FORK-JOIN, PAIRED or ARBITRARY"},
      {"scheduling", "a scheduling: BLOCK, CYCLIC or DYNAMIC"},
      {"decomposition", "a decomposition: 1D or 2D"},
      {"problem shape", "a problem shape: VECTOR name(n) or GRID name(height, width)"},
      {"concatenation kind", "a concatenation: NEIGHBOR, NEIGHBOR-TORUS, TORUS, SERIAL or BARRIER"},
      {"communication kind", "MESSAGE PASSING or SHARED MEMORY"},
      {"topology",
       "a topology: FULLY CONNECTED (or CROSSBAR), BUS, RING, MESH 2D, TORUS 2D, MESH 3D, TORUS 3D, "
       "HYPERCUBE or FAT TREE"},
      {"expression", "an expression"},
      {"execution pattern", "an execution pattern: phase names and SYNC joined by '->'"},
      {"pattern", "a phase name, SYNC or '('"},
      {"phase name", "a phase name"},
      {"variable name", "a variable name"},
      {"task name", "a task name"},
      {"type name", "a type name such as INT"},
      {"string", "a quoted string such as 'name'"},
      {"distribution parameter", "a distribution parameter"},
      {"list", "a list in brackets such as [1, 2]"},
  }};
  for (const auto& [name, message] : kMessages) {
    if (name == expected) return std::string(message);
  }
  return std::string(expected);
}

}  // namespace

std::string describe_token(iterator_type where, iterator_type end) {
  if (where == end) return "the end of the file";
  iterator_type it = where;
  if (is_word(*it)) {
    while (it != end && is_word(*it) && it - where < 32) ++it;
  } else if (*it == '\'') {
    ++it;
    while (it != end && *it != '\'' && *it != '\n' && it - where < 32) ++it;
    if (it != end && *it == '\'') ++it;
  } else if (end - it >= 2 && it[0] == '-' && it[1] == '>') {
    it += 2;
  } else {
    ++it;
  }
  std::string text;
  for (iterator_type c = where; c != it; ++c) {
    const auto byte = static_cast<unsigned char>(*c);
    text += (byte >= 0x20 && byte < 0x7f) ? *c : '?';
  }
  return fmt::format("'{}'", text);
}

void ErrorHandler::expected(iterator_type where, std::string_view expected) {
  error(where, fmt::format("expected {} but found {}", expectation_message(expected), describe_token(where, end_)));
}

void ErrorHandler::error(iterator_type where, std::string message) {
  last_error_ = where;
  diagnostics_.push_back(
      source_.diagnose(Severity::Error, static_cast<std::size_t>(where - begin_), std::move(message)));
}

}  // namespace pdl::parser
