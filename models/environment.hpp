// Values of the names an expression may mention, and evaluation of expressions in them.
#pragma once

#include "models/expr.hpp"
#include "models/program.hpp"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace models {

// Everything an Expr can refer to. Program variables, machine constants and the built-ins
// share one namespace: "P" (processor count), "RTFactor" (machine runtime factor), and in
// machine expressions "L" (communication volume in bytes), "S" (the bandwidth-sharing factor of
// the step that sends a message) and "T" (the phase's runtime, for contention). SIZEOF types
// live apart, keyed by upper-case type name.
struct Environment {
  std::map<std::string, double, std::less<>> values;
  std::map<std::string, double, std::less<>> sizes;

  // Weak scaling: the program variables whose value depends on the processor count (a default
  // or --set expression that mentions P, or a variable before it that does), in declaration
  // order. They have no entry in `values` until with_processors() evaluates them for one p.
  struct PerProcessorVariable {
    std::string name;
    Expr value;
    SourceLocation location;  // the variable's declaration
  };
  std::vector<PerProcessorVariable> per_processor;
  // The P at which with_processors() evaluates `per_processor` when it is not the model's own
  // processor count: the scaled speedup's one-processor time of the problem of p processors.
  std::optional<int> problem_processors;
};

struct Evaluation {
  double value = 0.0;
  std::string error;    // empty on success
  std::string unbound;  // the unbound identifier (or "SIZEOF(TYPE)") when that was the error
  bool ok() const { return error.empty(); }
};

// Evaluates the expression. Fails with a message naming the identifier when a name is not
// bound, and on division by zero, a call outside its domain, or a non-finite result.
Evaluation evaluate(const Expr& expr, const Environment& environment);

// Why a per-processor variable could not be evaluated.
struct PerProcessorError {
  std::string message;      // e.g. "variable 'n' (= 100*P at P = 3): division by zero"
  SourceLocation location;  // the variable's declaration
};

// Sets P to `p` and evaluates the per-processor variables in order, each at P =
// problem_processors (when set) or p; the first failure is returned and leaves the rest unset.
std::optional<PerProcessorError> with_processors(Environment& environment, int p);

}  // namespace models
