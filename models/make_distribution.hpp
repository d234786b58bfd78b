// From a symbolic runtime (models::RuntimeSpec) to a distribution, once the variables are
// bound: the last step of the front end, taken by the scalers for every p.
#pragma once

#include "distributions/distribution.hpp"
#include "models/environment.hpp"
#include "models/machine.hpp"
#include "models/program.hpp"

namespace models {

// Evaluates the parameters in `environment` and builds the distribution in PDL's conventions
// (docs/pdl.md: times are means, ERLANG(k, scale) has k phases of mean `scale`). Throws
// std::invalid_argument with a message in PDL's terms (naming the distribution and the
// parameter, or the unbound identifier). NUMERICAL files are read by a later version; until
// then they are refused with a message saying so. `machine` names the architecture that
// replaces $ARCH in NUMERICAL file names.
distributions::Distribution make_distribution(const RuntimeSpec& spec, const Environment& environment,
                                              const Machine& machine);

}  // namespace models
