// Internal to the state-space solver (state_space.hpp): the runtime distribution by
// uniformisation, from the jump counts a sweep carries.
#pragma once

#include <cstddef>
#include <vector>

#include "distributions/distribution.hpp"

namespace solvers::state_space_detail {

// Doubles per state of the uniformisation pass at rate uniform_rate, for times up to t_max.
std::size_t jumps_for(double uniform_rate, double t_max);

// The absorption time's distribution from v(n) = P(absorbed at jump n of the chain uniformised
// at `rate`): `points` equal cells on (0, top], and the mass beyond top (returned in *beyond)
// as a point at top.
distributions::Distribution distribution_from_jumps(const std::vector<double>& v, double rate, double top, int points,
                                                    double* beyond);

}  // namespace solvers::state_space_detail
