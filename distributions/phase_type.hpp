// Phase-type computations shared by the closed forms: the matrix exponential, survival and
// moments of a phase-type, and the survival of a hypoexponential (a chain of stages).
// Library-internal.
#pragma once

#include <utility>
#include <vector>

#include "distributions/matrix.hpp"
#include "distributions/representation.hpp"

namespace distributions::detail {

// exp(T x) for the subgenerator T of d, accurate entrywise even where tiny.
Matrix phase_type_exponential(const PhaseType& d, double x);
double phase_type_survival(const PhaseType& d, double x);
// The stages in series as a phase-type (alpha = e_1, T bidiagonal).
PhaseType hypoexponential_as_phase_type(const Hypoexponential& d);
// E[X] and E[X^2].
std::pair<double, double> phase_type_moments(const PhaseType& d);

bool all_rates_equal(const std::vector<double>& rates);
double hypoexponential_survival(const Hypoexponential& d, double x);

}  // namespace distributions::detail
