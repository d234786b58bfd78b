// The standard normal upper tail, stable far into the tail, and the truncated normal's
// survival built on it. Library-internal (closed forms).
#pragma once

#include "distributions/representation.hpp"

namespace distributions::detail {

// log of the standard normal density.
double log_phi(double z);
// log Q(z), Q the standard normal upper tail.
double log_upper_tail(double z);

// For a truncation point alpha >= 5 standard deviations above the mean, the inverse Mills
// ratio lambda = alpha + delta with delta and the variance factor 1 + alpha lambda - lambda^2
// = delta (c2 - delta) taken from the continued fraction without cancellation.
struct FarTail {
  double delta;
  double variance_factor;
};
FarTail far_tail(double alpha);

struct NormalParts {
  double alpha;        // standardised truncation point -mu/sigma
  double log_q_alpha;  // log P(Z >= alpha)
};
NormalParts normal_parts(const TruncatedNormal& d);

double truncated_normal_survival(const TruncatedNormal& d, double x);

}  // namespace distributions::detail
