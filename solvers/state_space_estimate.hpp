// Internal to the state-space solver (state_space.hpp): the size of a sweep, estimated before
// exploring, and the figures of an estimate as text.
#pragma once

#include <cstddef>
#include <string>

#include "solvers/state_space.hpp"
#include "solvers/state_space_model.hpp"

namespace solvers::state_space_detail {

// What a sweep of m carrying `width` doubles per state would hold (see StateSpaceEstimate).
StateSpaceEstimate estimate_model(const CompiledGraph& m, const StateSpaceOptions& options, std::size_t width);

// A count ("1234", "1.2e+09") and a size in bytes ("1.9 GB", "3.4 MB"), for messages.
std::string figure(double x);
std::string bytes_text(double bytes);

}  // namespace solvers::state_space_detail
