// The representation behind Distribution. Library-internal, but visible so that the
// header-only Sampler can read parameters without a virtual call per sample.
#pragma once

#include <cstddef>
#include <cstdint>
#include <variant>
#include <vector>

#include "distributions/distribution.hpp"

namespace distributions::detail {

struct Deterministic {
  double value;
};
struct Exponential {
  double rate;
};
struct Erlang {
  std::int64_t phases;  // 64-bit: series_power multiplies phase counts
  double rate;
};
struct Hypoexponential {
  std::vector<double> rates;
  // > 0 when the stages are rate * (p, p-1, ..., 1): the maximum of p iid exponentials of
  // this rate, whose cdf (1 - exp(-rate x))^p is used directly.
  double max_of_exponentials_rate = 0.0;
};
struct Hyperexponential {
  std::vector<double> probabilities;
  std::vector<double> rates;
};
struct Uniform {
  double low;
  double high;
};
struct TruncatedNormal {
  double mu;
  double sigma;
};
// Skewed and heavy-tailed laws of measured task times (skewed_laws.hpp).
struct LogNormal {  // ln X ~ N(mu, sigma)
  double mu;
  double sigma;
};
struct Weibull {  // P(X > x) = exp(-(x / scale)^shape)
  double shape;
  double scale;
};
struct Pareto {  // P(X > x) = (scale / x)^alpha for x >= scale; alpha > 2, a finite variance
  double alpha;
  double scale;
};
struct PhaseType {
  std::size_t size;
  std::vector<double> alpha;
  std::vector<double> subgenerator;  // row-major size x size
  double atom_at_zero;               // 1 - sum(alpha)
};
struct Mixture {
  std::vector<double> weights;
  std::vector<Distribution> components;
};
// base + offset for a closed-form base (keeps exactness of series with a deterministic).
struct Shifted {
  double offset;
  Distribution base;
};
// Two lattice pmfs on the grid origin + i * step (step == 0 iff one point): lower (each
// cell's mass at its left end) and upper (at its right end), and the slack: a bound on the
// transport distance by which mass was moved the unsafe way (see docs/distributions.md).
struct Numerical {
  double origin;
  double step;
  std::vector<double> lower;
  std::vector<double> upper;
  double slack;
};

struct Node {
  std::variant<Deterministic, Exponential, Erlang, Hypoexponential, Hyperexponential, Uniform, TruncatedNormal,
               PhaseType, Mixture, Shifted, Numerical,
               // Appended: a node's index is its tag in distribution_bytes.cpp's format.
               LogNormal, Weibull, Pareto>
      value;
};

}  // namespace distributions::detail
