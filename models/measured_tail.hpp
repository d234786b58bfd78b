// A fitted tail for measured runtimes (NUMERICAL('file', TAIL), docs/distributions.md "A fitted
// tail"): measured data never exceed their largest sample, so the slowest of many tasks drawn
// from them rests on that one value. Peaks over a threshold: beyond the data's 90% quantile u,
// the excesses X - u are fitted by a generalised Pareto law (Pickands-Balkema-de Haan), whose
// P(X - u > y) = (1 + xi y / sigma)^(-1/xi) (exp(-y / sigma) for xi = 0) extends past the data.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace models {

struct Measurements;

struct TailFit {
  double threshold = 0.0;       // u: the 90% quantile of the samples
  double share = 0.0;           // the share of samples above u (about 0.1)
  double xi = 0.0;              // the shape, in [0, 1/2): 0 is an exponential tail
  double sigma = 0.0;           // the scale of the excesses
  double xi_error = 0.0;        // the maximum-likelihood standard error of xi, (1 + xi) / sqrt(k)
  std::size_t exceedances = 0;  // k: the samples above u
};

struct TailFitOutcome {
  std::optional<TailFit> fit;
  std::string error;  // why there is none: too few samples, a histogram, an infinite variance
};

inline constexpr double kTailQuantile = 0.9;
inline constexpr std::size_t kTailMinimumExceedances = 20;

// The maximum-likelihood generalised Pareto fit of the samples above their 90% quantile, with
// xi >= 0 (a bounded tail, xi < 0, is fitted as the exponential one: never lighter than the
// data say). Refused for a histogram, for fewer than 20 samples above the quantile (200
// samples or more are needed), and for xi >= 1/2, whose variance is infinite.
TailFitOutcome fit_tail(const Measurements& measurements);

}  // namespace models
