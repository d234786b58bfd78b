// Typed outcomes of the layers below, worded in the command's vocabulary: its option names
// appear here and nowhere below app/.
#pragma once

#include <string>

#include "models/bind.hpp"
#include "solvers/result.hpp"

namespace report {

// Why a method has no figure, e.g. "about 3.6e+07 states needing 401 MiB, beyond --max-states
// 5000; bounds and mc apply at any size".
std::string unsolved_text(const solvers::Unsolved& why);

// A variable that could not be bound, e.g. "variable 'n' has no default value: bind it with
// --set n=VALUE".
std::string bind_error_text(const models::BindError& error);

}  // namespace report
