// Fitting PDL distributions to measured runtimes (the library behind pdl-fit; docs in
// README.md and docs/pdl.md, "Measured data files").
//
// The Erlang and phase-type fits match the data's mean exactly; the families differ in how
// they shape the rest:
//   Erlang            k phases of mean m/k (the maximum-likelihood scale for a fixed k), k chosen
//                     among the integers around 1/cv^2 by the smallest KS distance
//   general Erlang    k-1 stages of mean a and one of mean b matching mean and variance, with
//                     k = ceil(1/cv^2) (needs cv <= 1): GERLANG(a, ..., a, b)
//   hyperexponential  two exponential branches by expectation-maximisation (maximum likelihood),
//                     started from the balanced-means two-moment fit
//   phase-type        two-moment fits: for cv <= 1 the mixed Erlang of Tijms (Erlang k-1 or k of
//                     one rate), for cv > 1 the Coxian-2 with mean m/2 in its first phase
// The skewed laws by maximum likelihood instead (their mean is the fitted law's), for data all
// above 0 and parameters within PDL's ranges:
//   lognormal         mu and sigma the mean and standard deviation of ln x
//   Weibull           the shape solving the likelihood equation, then the scale
//   Pareto            the least value as the scale, alpha = n / sum ln(x / scale), if > 2
// Goodness of fit: the Kolmogorov-Smirnov distance D = sup |F_n(x) - F(x)| between the data's
// (weighted) empirical cdf and the fit's cdf. The fits are returned best (smallest D) first.
#pragma once

#include "distributions/distribution.hpp"

#include <string>
#include <vector>

namespace fitting {

struct Fit {
  std::string family;  // "Erlang", "general Erlang", "hyperexponential", "phase-type (mixed Erlang)", ...
  std::string detail;  // how it was fitted, e.g. "k = 8, maximum-likelihood scale"
  std::string pdl;     // the distribution as PDL text, e.g. "ERLANG(8, 1.00312)"
  distributions::Distribution distribution;
  double ks = 0.0;  // Kolmogorov-Smirnov distance to the data
};

// A family that does not apply to the data (e.g. general Erlang for cv > 1), and why.
struct Skipped {
  std::string family;
  std::string reason;
};

struct Fits {
  std::vector<Fit> fits;  // best first
  std::vector<Skipped> skipped;
};

// The data: values >= 0, finite, at least one; weights empty (samples) or one >= 0 per value
// with a positive total (a histogram). Throws std::invalid_argument otherwise.
Fits fit_all(const std::vector<double>& values, const std::vector<double>& weights);

// The Kolmogorov-Smirnov distance between the (weighted) data and a distribution.
double ks_distance(const std::vector<double>& values, const std::vector<double>& weights,
                   const distributions::Distribution& distribution);

// A number for PDL text: 6 significant digits, no exponent for ordinary magnitudes.
std::string number(double value);

}  // namespace fitting
