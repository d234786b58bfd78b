// Where the time goes (--breakdown): the predicted runtime at p split, as in the textbook model
// T = (T_comp + T_comm + T_idle) / P (Foster, "Designing and Building Parallel Programs",
// section 3.3), into the processor time of computation, communication and synchronisation of
// the exact model, divided by p, and the rest, the processors' idle time (imbalance, waiting for
// messages in flight and for jobs to arrive). docs/methods.md, "Where the time goes".
#pragma once

#include <optional>

#include "analysis/prediction.hpp"
#include "analysis/processor_time.hpp"

namespace analysis {

// One part of the split, per processor, in the model's time unit (µs): an interval and, except for idle time
// under bounds that give no estimate, an estimate inside it.
struct Share {
  std::optional<double> estimate;
  double lower = 0.0;
  double upper = 0.0;
};

// The prediction at p split into its parts, each per processor: computation = T_comp / p,
// communication = T_comm / p, synchronisation = stall + contention / p, and idle = the
// prediction minus the three, whose interval takes the prediction's interval and the parts'
// brackets: [lower - busy upper, upper - busy lower]. The four estimates add up to the
// prediction's estimate; idle has none when the prediction has none (wide bounds).
struct Breakdown {
  Share computation;
  Share communication;
  Share synchronisation;
  Share idle;
};
Breakdown split(const ProcessorTime& busy, int p, const Prediction& prediction);

}  // namespace analysis
