// The tolerance of one constant (analysis/sensitivity.hpp): the factor f by which it may grow
// before the runtime grows by a given fraction, found on the solved model itself.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "analysis/request.hpp"

namespace analysis {

// T(f x) / T(x), or why it could not be solved at f.
struct RatioAt {
  double ratio = 0.0;
  std::string why_not;  // non-empty: no figure at this factor
};

struct ToleranceSearch {
  std::optional<double> factor;  // the largest f found with T(f x) <= (1 + growth) T(x)
  bool unbounded = false;        // T stays within (1 + growth) T(x) up to max_factor
  std::string why_not;           // non-empty: a solve on the way failed
};

// The tolerance for `growth`, searched from `from` (>= 1, where the ratio is below 1 + growth):
// a first guess (1 + growth)^(1 / elasticity) (twice `from` when the elasticity is not
// positive), grown fourfold until the ratio reaches 1 + growth or max_factor is passed, then
// TOMS 748 (Boost.Math) on the bracket until its ends are within factor_precision of each other;
// the lower end is the answer. Assumes the ratio crosses 1 + growth once in the bracket.
// With `whole_value` (a constant taken in whole numbers, of that value) the search stops when
// the bracket's ends round to neighbouring whole values.
ToleranceSearch search_tolerance(const std::function<RatioAt(double)>& ratio_at, double growth, double from,
                                 double elasticity, const SensitivityOptions& options,
                                 std::optional<double> whole_value = std::nullopt);

}  // namespace analysis
