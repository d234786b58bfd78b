#include "analysis/sensitivity_search.hpp"

#include <boost/math/tools/roots.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>

namespace analysis {

namespace {

// A solve that failed inside the root finder, which has no other way out.
struct SolveFailed {
  std::string why;
};

// The first factor tried above `from`.
double first_guess(double growth, double from, double elasticity, const SensitivityOptions& options) {
  const double guess = elasticity > 0.0 ? std::pow(1.0 + growth, 1.0 / elasticity) : 2.0 * from;
  const double above = from * (1.0 + 1000.0 * options.factor_precision);
  return std::clamp(std::isfinite(guess) ? guess : options.max_factor, above, options.max_factor);
}

}  // namespace

ToleranceSearch search_tolerance(const std::function<RatioAt(double)>& ratio_at, double growth, double from,
                                 double elasticity, const SensitivityOptions& options,
                                 std::optional<double> whole_value) {
  ToleranceSearch found;
  const auto excess = [&](double factor) {
    const RatioAt at = ratio_at(factor);
    if (!at.why_not.empty()) throw SolveFailed{at.why_not};
    return at.ratio - (1.0 + growth);
  };
  try {
    double low = from;
    double low_excess = from == 1.0 ? -growth : excess(from);
    double high = first_guess(growth, from, elasticity, options);
    double high_excess = excess(high);
    while (high_excess < 0.0) {
      if (high >= options.max_factor) {
        found.unbounded = true;
        return found;
      }
      low = high;
      low_excess = high_excess;
      high = std::min(4.0 * high, options.max_factor);
      high_excess = excess(high);
    }
    if (high_excess == 0.0) {
      found.factor = high;
      return found;
    }
    std::uintmax_t iterations = 200;
    const auto close = [&](double a, double b) {
      if (whole_value) return std::round(*whole_value * b) - std::round(*whole_value * a) <= 1.0;
      return b - a <= options.factor_precision * a;
    };
    const std::pair<double, double> bracket =
        boost::math::tools::toms748_solve(excess, low, high, low_excess, high_excess, close, iterations);
    found.factor = bracket.first;
  } catch (const SolveFailed& failed) {
    found.why_not = failed.why;
  }
  return found;
}

}  // namespace analysis
