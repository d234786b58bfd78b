#include "report/time_unit.hpp"

namespace report {

std::optional<TimeUnit> time_unit_named(std::string_view name) {
  if (name == "ns") return TimeUnit{"ns", "ns", 1e3};
  if (name == "us") return TimeUnit{"us", "µs", 1.0};
  if (name == "ms") return TimeUnit{"ms", "ms", 1e-3};
  if (name == "s") return TimeUnit{"s", "s", 1e-6};
  return std::nullopt;
}

}  // namespace report
