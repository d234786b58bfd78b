// Boost.Math's errors as the library's own (distributions/errors.hpp): the distributions
// library compiles Boost.Math with the user_error policy for domain, overflow and evaluation
// errors (distributions/CMakeLists.txt), and these handlers throw the typed errors, so that a
// caller never needs to catch a standard exception to tell a special function's refusal from a
// bug. Include it in every file of the library that includes a Boost.Math header.
#pragma once

#include <string>

#include "distributions/errors.hpp"

namespace boost::math::policies {

template <class T>
T user_domain_error(const char* function, const char* message, const T&) {
  throw distributions::EvaluationError(std::string(function) + ": " + message);
}

template <class T>
T user_overflow_error(const char* function, const char* message, const T&) {
  throw distributions::SupportOverflow(std::string(function) + ": " + (message ? message : "overflow"));
}

template <class T>
T user_evaluation_error(const char* function, const char* message, const T&) {
  throw distributions::EvaluationError(std::string(function) + ": " + message);
}

}  // namespace boost::math::policies
