// The lexical pieces the line-based data files share (measured-data files, pdl/measurements.cpp;
// runs files, pdl/runs.cpp): what counts as a space, and a number as they write it.
#pragma once

#include <charconv>
#include <cmath>
#include <cstddef>
#include <string_view>
#include <system_error>

namespace pdl::detail {

inline bool is_data_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// A number as a data file writes it: decimal or scientific, an optional sign. Returns the
// characters used (0 when the token does not start with a number); a value beyond a double is
// HUGE_VAL, which the caller reports as not finite.
inline std::size_t parse_data_number(std::string_view token, double& value) {
  std::size_t skip = 0;
  if (!token.empty() && token.front() == '+') skip = 1;  // from_chars refuses a leading '+'
  const char* first = token.data() + skip;
  const char* last = token.data() + token.size();
  if (first != last && *first == '+') return 0;
  const auto [end, ec] = std::from_chars(first, last, value, std::chars_format::general);
  if (end == first) return 0;
  if (ec == std::errc::result_out_of_range) value = HUGE_VAL;
  return static_cast<std::size_t>(end - token.data());
}

}  // namespace pdl::detail
