// Queries for code outside the library that treats some families of distributions specially
// (a vectorised sampler for exponentials, an exact phase-type chain for the state-space
// solver) or caches work per distribution, without reading the library's representation.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "distributions/distribution.hpp"

namespace distributions {

struct ClosedFormParameters {
  // One per factory of a closed form (distribution.hpp), plus Shifted: a closed form plus a
  // constant (what series with a deterministic keeps exact).
  enum class Kind {
    Deterministic,
    Exponential,
    Erlang,
    Hypoexponential,
    Hyperexponential,
    Uniform,
    TruncatedNormal,
    PhaseType,
    Mixture,
    Shifted,
    LogNormal,
    Weibull,
    Pareto,
  };
  Kind kind = Kind::Deterministic;

  // Only the fields of `kind` are set; the others keep these defaults.
  double value = 0.0;       // Deterministic
  double rate = 0.0;        // Exponential, Erlang
  std::int64_t phases = 0;  // Erlang (64-bit: series_power multiplies phase counts)
  double low = 0.0;         // Uniform
  double high = 0.0;        // Uniform
  double mu = 0.0;          // TruncatedNormal: of the normal before truncation at 0; LogNormal: of ln X
  double sigma = 0.0;       // TruncatedNormal, LogNormal
  double shape = 0.0;       // Weibull: k; Pareto: alpha, the tail index
  double scale = 0.0;       // Weibull: lambda; Pareto: x_m, the least value
  double offset = 0.0;      // Shifted: the distribution is *base + offset

  // The spans and `base` view the distribution's own storage: they stay valid as long as the
  // queried Distribution, or any copy of it, lives.
  std::span<const double> rates;             // Hypoexponential: the stages in order;
                                             // Hyperexponential: of the branches
  std::span<const double> probabilities;     // Hyperexponential: of the branches
  std::span<const double> alpha;             // PhaseType: initial vector (sum <= 1)
  std::span<const double> subgenerator;      // PhaseType: row-major, alpha.size() squared
  std::span<const double> weights;           // Mixture
  std::span<const Distribution> components;  // Mixture
  const Distribution* base = nullptr;        // Shifted
};

// The parameters of d when it is a closed form; std::nullopt for a numerical grid.
std::optional<ClosedFormParameters> closed_form(const Distribution& d);

// A key for caches of work per distribution: the same for copies of one Distribution (they
// share one immutable representation), different for distributions built separately, even
// equal ones. Valid as long as d, or any copy of it, lives.
const void* identity(const Distribution& d);

}  // namespace distributions
