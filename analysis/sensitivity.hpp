// What limits scaling (--sensitivity; docs/sensitivity.md): for each (case, p) of a study and
// every numeric constant its model reads (the program's variables, RTFactor, the machine's
// constants), the elasticity e = d ln T / d ln x of the prediction T with its interval, and the
// tolerances: the factors by which x may grow before T grows by 1% and by 5%. Each is computed
// by the method the prediction of that p comes from, on models bound with x changed.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "analysis/failure.hpp"
#include "analysis/request.hpp"
#include "analysis/sensitivity_result.hpp"
#include "analysis/study.hpp"

namespace analysis {

// The numeric constants of a case whose sensitivity is computed, with their values: the
// program's variables that do not depend on P, RTFactor, then the machine's constants, each in
// declaration order; a constant whose value is 0 is left out (a relative change of 0 is none).
std::vector<ConstantSensitivity> constants_of(const Case& one);

// The case with one constant at another value, bound again as the command binds --set (a later
// variable's default, a later machine constant, RTFACTOR and SIZEOF follow it).
Outcome<Case> with_constant(const Case& one, const ConstantSensitivity& constant, double value);

// Every whole-program (case, p) of `study` (computed from `cases`, which it was run on). Runs
// after the study, on its threads; no figure depends on them. `rows_done`, when set, hears the
// rows finished and their number after each row, from one thread at a time.
std::vector<SensitivityRow> run_sensitivity(const std::vector<Case>& cases, const StudyResult& study,
                                            const Request& request,
                                            const std::function<void(std::size_t, std::size_t)>& rows_done = {});

}  // namespace analysis
