// The one parallel driver of the analysis: sweeps, loss analysis and isoefficiency all run their
// independent items through it.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>

#include "analysis/failure.hpp"

namespace analysis {

// Runs item(k) for every k in [0, count) on TBB, with `threads` workers (0: every core). An
// item returns the failure that stops the study, or nothing; a scaling::ScalingError it throws
// is such a failure (with the machine `machine_of(k)`). The result is the failure of the lowest
// failing k, so it does not depend on the thread count. Items are started from the highest k:
// callers put the costly items (large p) there.
std::optional<Failure> run_items(std::size_t count, int threads,
                                 const std::function<std::optional<Failure>(std::size_t)>& item,
                                 const std::function<std::size_t(std::size_t)>& machine_of);

}  // namespace analysis
