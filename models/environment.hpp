// Values of the names an expression may mention, and evaluation of expressions in them.
#pragma once

#include "models/expr.hpp"

#include <functional>
#include <map>
#include <string>

namespace models {

// Everything an Expr can refer to. Program variables, machine constants and the built-ins
// share one namespace: "P" (processor count), "RTFactor" (machine runtime factor), and in
// machine expressions "L" (communication volume in bytes) and "T" (the phase's runtime, for
// contention). SIZEOF types live apart, keyed by upper-case type name.
struct Environment {
  std::map<std::string, double, std::less<>> values;
  std::map<std::string, double, std::less<>> sizes;
};

struct Evaluation {
  double value = 0.0;
  std::string error;       // empty on success
  std::string unbound;     // the unbound identifier (or "SIZEOF(TYPE)") when that was the error
  bool ok() const { return error.empty(); }
};

// Evaluates the expression. Fails with a message naming the identifier when a name is not
// bound, and on division by zero, a call outside its domain, or a non-finite result.
Evaluation evaluate(const Expr& expr, const Environment& environment);

}  // namespace models
