// The unit the reports print times in (--time-unit). A program's times are microseconds
// (docs/pdl.md); the report converts them, and says which unit it uses wherever it prints a time.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace report {

struct TimeUnit {
  std::string name = "us";       // as --time-unit takes it and CSV/JSON name it: ns, us, ms, s
  std::string symbol = "µs";     // as the table shows it
  double per_microsecond = 1.0;  // the figure in this unit of one microsecond
  double of(double microseconds) const { return microseconds * per_microsecond; }
};

// ns, us, ms or s; nullopt for anything else.
std::optional<TimeUnit> time_unit_named(std::string_view name);

}  // namespace report
