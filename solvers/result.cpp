#include "solvers/result.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "solvers/solver.hpp"

namespace solvers {

std::string_view to_string(Method method) { return info(method).name; }

std::optional<Method> method_from_string(std::string_view name) {
  for (Method method : all_methods()) {
    if (info(method).name == name) return method;
  }
  return std::nullopt;
}

Result finite_or_unsolved(Result result) {
  if (!result.solved()) return result;
  const bool finite = std::isfinite(result.mean) && std::isfinite(result.lower) && std::isfinite(result.upper);
  // The mean is the midpoint of the ends, or an estimate within them; both may differ from
  // the ends in their last digits, and a sum of n times drifts by up to n ulps: 1e-9 covers the
  // 10^7 nodes of the largest exact model (82,000 tasks in series crossed by 1.4e-12).
  const double slack = 1e-9 * std::max(std::abs(result.lower), std::abs(result.upper));
  // Two bounds computed along different sums of the same deterministic times (a lower and an
  // upper bound that meet) can cross in their last digits: they are one figure.
  if (finite && result.lower > result.upper && result.lower <= result.upper + slack) {
    const double meet = result.lower / 2 + result.upper / 2;
    result.lower = result.upper = meet;
    result.mean = meet;
  }
  const bool ordered =
      result.lower <= result.upper && result.mean >= result.lower - slack && result.mean <= result.upper + slack;
  if (finite && ordered) return result;
  char figures[160];
  std::snprintf(figures, sizeof figures, "mean %.6g, interval [%.6g, %.6g]", result.mean, result.lower, result.upper);
  Unsolved& why = result.unsolved.emplace();
  why.reason = Unsolved::Reason::NumericalFailure;
  why.explanation = std::string(finite ? "the figures are not ordered (" : "the figures are not finite (") + figures +
                    "); none is shown rather than a wrong one";
  result.mean = result.lower = result.upper = 0.0;
  result.distribution.reset();
  return result;
}

bool valid_quantile_levels(const std::vector<double>& levels, std::string* why) {
  for (std::size_t k = 0; k < levels.size(); ++k) {
    std::string problem;
    if (!(levels[k] > 0.0 && levels[k] < 1.0))
      problem = "quantile level " + std::to_string(levels[k]) + " is outside (0, 1)";
    else if (k > 0 && !(levels[k] > levels[k - 1]))
      problem = "quantile levels must ascend without repeats";
    if (!problem.empty()) {
      if (why != nullptr) *why = std::move(problem);
      return false;
    }
  }
  return true;
}

}  // namespace solvers
