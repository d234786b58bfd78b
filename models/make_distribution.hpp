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
// parameter, or the unbound identifier). NUMERICAL builds the distribution of the measurements
// pdl::check read into the spec (models::measured_distribution); it throws when they were not
// read, or were read for another machine than `machine` (whose name replaces $ARCH).
distributions::Distribution make_distribution(const RuntimeSpec& spec, const Environment& environment,
                                              const Machine& machine);

}  // namespace models
