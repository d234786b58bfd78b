// Validity of a distribution's parameters once they are numbers; shared by the checker
// (parameters that are constant in the source) and make_distribution (bound ones), so that
// both say the same thing in the PDL's own terms (means, not rates).
#pragma once

#include "models/program.hpp"

#include <span>
#include <string>

namespace models {

// Checks the numbers of one distribution (without its MIXTURE components): the count of
// parameters, and their ranges (docs/pdl.md, "Distributions"). `order` is the PHASETYPE
// order. Returns an empty string when valid, else a message naming the parameter.
std::string check_parameters(DistKind kind, std::size_t order, std::span<const double> values);

}  // namespace models
