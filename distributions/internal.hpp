// Helpers shared by the library's .cpp files (not part of the public API).
#pragma once

#include <cmath>
#include <limits>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "distributions/distribution.hpp"
#include "distributions/representation.hpp"

namespace distributions::detail {

inline constexpr double kInf = std::numeric_limits<double>::infinity();

// std::visit over the representation with one lambda per alternative.
template <class... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

template <class T>
Distribution make(T&& alternative) {
  return Distribution(std::make_shared<const Node>(Node{std::forward<T>(alternative)}));
}

// Shortest round-trip formatting of a number, for messages and descriptions.
std::string format_number(double x);

[[noreturn]] inline void fail(std::string_view where, std::string_view what, double got) {
  throw std::invalid_argument(std::string(where) + ": " + std::string(what) + ", got " + format_number(got));
}

inline void require_finite_positive(std::string_view where, std::string_view name, double x) {
  if (!(std::isfinite(x) && x > 0.0)) {
    fail(where, std::string(name) + " must be finite and > 0", x);
  }
}
inline void require_finite_non_negative(std::string_view where, std::string_view name, double x) {
  if (!(std::isfinite(x) && x >= 0.0)) {
    fail(where, std::string(name) + " must be finite and >= 0", x);
  }
}
inline void require_finite(std::string_view where, std::string_view name, double x) {
  if (!std::isfinite(x)) fail(where, std::string(name) + " must be finite", x);
}
void require_valid(std::string_view where, const GridOptions& options);

// ---- closed forms (closed_forms.cpp; the tail transports in tail_transports.cpp) ----
double closed_mean(const Node& node);
double closed_variance(const Node& node);
double closed_cdf(const Node& node, double x);
// P(X > x) = 1 - cdf, computed without cancellation where it matters (tails).
double closed_survival(const Node& node, double x);
double closed_quantile(const Node& node, double q);
// E[(X - t)+] and E[(t - X)+]: transport of the tails cut off by a grid [t_low, t_high].
double closed_upper_tail_transport(const Node& node, double t);
double closed_lower_tail_transport(const Node& node, double t);
// Smallest point of the support (0 for most, low for uniforms, offset + ... for shifts).
double closed_support_min(const Node& node);
double closed_support_max(const Node& node);  // may be +inf
std::string closed_describe(const Node& node);
// Point masses (position, probability) of a closed form: deterministic parts of mixtures,
// a phase-type's atom at 0.
struct Atom {
  double position;
  double mass;
};
void closed_atoms(const Node& node, double weight, double offset, std::vector<Atom>* atoms);
// Exponential, Erlang and hypoexponential as a list of stage rates (empty if not one).
bool stage_rates(const Node& node, std::vector<double>* rates);

}  // namespace distributions::detail
