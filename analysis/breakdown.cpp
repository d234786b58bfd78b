#include "analysis/breakdown.hpp"

#include <stdexcept>

namespace analysis {

namespace {

Share per_processor(const Total& total, double p) { return {total.estimate / p, total.lower / p, total.upper / p}; }

}  // namespace

Breakdown split(const ProcessorTime& busy, int p, const Prediction& prediction) {
  if (p < 1) throw std::invalid_argument("split: p must be at least 1");
  const double processors = static_cast<double>(p);
  Breakdown parts;
  parts.computation = per_processor(busy.computation, processors);
  parts.communication = per_processor(busy.communication, processors);
  const Total synchronisation{busy.stall.estimate + busy.contention.estimate / processors,
                              busy.stall.lower + busy.contention.lower / processors,
                              busy.stall.upper + busy.contention.upper / processors};
  parts.synchronisation = per_processor(synchronisation, 1.0);
  const Share* const busy_parts[] = {&parts.computation, &parts.communication, &parts.synchronisation};
  double busy_estimate = 0.0, busy_lower = 0.0, busy_upper = 0.0;
  for (const Share* part : busy_parts) {
    busy_estimate += *part->estimate;
    busy_lower += part->lower;
    busy_upper += part->upper;
  }
  // A prediction without an interval (an approximation alone) is its own interval here.
  const double lower = prediction.lower.value_or(prediction.estimate.value_or(0.0));
  const double upper = prediction.upper.value_or(prediction.estimate.value_or(0.0));
  parts.idle.lower = lower - busy_upper;
  parts.idle.upper = upper - busy_lower;
  if (prediction.estimate) parts.idle.estimate = *prediction.estimate - busy_estimate;
  return parts;
}

}  // namespace analysis
