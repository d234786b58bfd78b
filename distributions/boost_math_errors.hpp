// Boost.Math's errors as the library's own (distributions/errors.hpp): the distributions
// library calls Boost.Math with the user_error policy for domain, overflow and evaluation
// errors (detail::kTypedErrors), and these handlers throw the typed errors, so that a
// caller never needs to catch a standard exception to tell a special function's refusal from a
// bug. Every Boost.Math call of the library passes detail::kTypedErrors.
#pragma once

#include <string>

#include <boost/math/policies/policy.hpp>

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

namespace distributions::detail {

// The policy every Boost.Math call of the library passes: its refusals as the typed errors
// above; the other settings (precision, promotion) Boost.Math's defaults, so figures are as
// without it.
inline constexpr boost::math::policies::policy<
    boost::math::policies::domain_error<boost::math::policies::user_error>,
    boost::math::policies::overflow_error<boost::math::policies::user_error>,
    boost::math::policies::evaluation_error<boost::math::policies::user_error>>
    kTypedErrors{};

}  // namespace distributions::detail
