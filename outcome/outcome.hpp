// A value, or why there is none: the project's one way to return an error a user can cause
// (docs/architecture.md, "Errors"). Header only and below every library, so that a lower layer
// (solvers) and a higher one (analysis, the command) return the same shape.
#pragma once

#include <optional>

namespace pdl_scale {

// Exactly one of value and failure is set by the function that returns it.
template <typename T, typename Error>
struct Outcome {
  std::optional<T> value;
  std::optional<Error> failure;

  bool ok() const { return value.has_value(); }
};

}  // namespace pdl_scale
