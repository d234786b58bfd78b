// The errors of the distributions library a user's input can cause, each a type of its own so
// that a caller catches exactly them and locates them in the input; any other exception that
// leaves the library is a bug. Both derive from the standard exception they refine.
#pragma once

#include <stdexcept>

namespace distributions {

// Parameters that describe no distribution (a negative rate, probabilities not summing to 1, no
// samples): the input's values.
class InvalidDistribution : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// A support, a grid step or a special function's value beyond the largest finite double: the
// model's figures cannot be computed in doubles.
class SupportOverflow : public std::overflow_error {
 public:
  using std::overflow_error::overflow_error;
};

// A special function (Boost.Math) that cannot be evaluated at these arguments: out of its
// domain, or its series did not converge.
class EvaluationError : public std::domain_error {
 public:
  using std::domain_error::domain_error;
};

}  // namespace distributions
