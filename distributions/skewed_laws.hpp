// The skewed and heavy-tailed laws of measured task times — lognormal, Weibull, Pareto — as
// closed forms: moments, survival, quantile and upper tail transport, each from Boost.Math's
// functions (docs/distributions.md, "Skewed and heavy-tailed laws"). Library-internal.
#pragma once

#include <string>
#include <type_traits>

#include "distributions/representation.hpp"

namespace distributions::detail {

template <class T>
concept SkewedLaw = std::is_same_v<T, LogNormal> || std::is_same_v<T, Weibull> || std::is_same_v<T, Pareto>;

double law_mean(const LogNormal& d);
double law_mean(const Weibull& d);
double law_mean(const Pareto& d);
double law_variance(const LogNormal& d);
double law_variance(const Weibull& d);
double law_variance(const Pareto& d);
// P(X > x).
double law_survival(const LogNormal& d, double x);
double law_survival(const Weibull& d, double x);
double law_survival(const Pareto& d, double x);
// The q-quantile, q in (0, 1): from the upper side for q > 1/2, where 1 - q is exact.
double law_quantile(const LogNormal& d, double q);
double law_quantile(const Weibull& d, double q);
double law_quantile(const Pareto& d, double q);
// E[(X - t)+], exact.
double law_upper_transport(const LogNormal& d, double t);
double law_upper_transport(const Weibull& d, double t);
double law_upper_transport(const Pareto& d, double t);
std::string law_describe(const LogNormal& d);
std::string law_describe(const Weibull& d);
std::string law_describe(const Pareto& d);

}  // namespace distributions::detail
