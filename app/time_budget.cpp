#include "app/time_budget.hpp"

#include <cmath>

#include <fmt/format.h>

namespace app {

bool shows_progress(const TimeBudget& budget, bool terminal) { return (terminal && !budget.quiet) || budget.progress; }

std::string limit_text(double seconds) {
  if (seconds >= 3600.0 && std::fmod(seconds, 3600.0) == 0.0) return fmt::format("{:g} h", seconds / 3600.0);
  if (seconds >= 60.0 && std::fmod(seconds, 60.0) == 0.0) return fmt::format("{:g} min", seconds / 60.0);
  return fmt::format("{:g} s", seconds);
}

}  // namespace app
